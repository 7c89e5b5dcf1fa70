// runtime contract › Input hygiene, in one place for every route: strings PostgreSQL cannot
// store as text (a NUL, a lone UTF-16 surrogate) anywhere in the body, the query or the path,
// repeated or bracketed query parameters, and bodies nested deeper than anything the API takes.
// Runs on matched routes only (unknown routes stay 404), after the key guard and the rate-limit
// guard and before the validation pipe, so every refusal is a 400 naming the field. It is the last
// global guard, not an interceptor: with no interceptor at all, Nest skips its per-request
// interceptor chain (an rxjs Observable and two AsyncResource.bind calls per request, issue 23).
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { badRequest } from '@svc/core';

// eslint-disable-next-line no-control-regex -- the NUL is exactly what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CANNOT_STORE = 'must not contain a NUL character or an unpaired UTF-16 surrogate';

/** Deeper than any body the API accepts (metadata included): refused before anything recurses over it. */
export const MAX_BODY_DEPTH = 32;

export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);

/**
 * The problems of a parsed JSON body, each naming its path (`metadata.a.b`, `networks.0.token`).
 * Iterative, so a hostile nesting depth cannot overflow the stack here.
 */
export function bodyProblems(body: unknown): string[] {
  const problems: string[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length && problems.length < 20) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) problems.push(`${path || 'body'} ${CANNOT_STORE}`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_BODY_DEPTH) {
      problems.push(`${path || 'body'} is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
      continue;
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, child] of entries) {
      if (!isStorableText(key)) {
        problems.push(`${path ? `${path} has a property name that` : 'a property name'} ${CANNOT_STORE}`);
        continue;
      }
      stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return problems.reverse();
}

/** Express's simple query parser gives a string, or an array for a repeated parameter. */
export function queryProblems(query: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    const name = key.split('[')[0];
    if (key.includes('[') || key.includes(']')) {
      problems.push(`query parameter ${key} is not accepted: give ${name} once, as a plain value`);
    } else if (Array.isArray(value)) {
      problems.push(`query parameter ${name} must be given once`);
    } else if (!isStorableText(key)) {
      problems.push(`a query parameter name ${CANNOT_STORE}`);
    } else if (typeof value === 'string' && !isStorableText(value)) {
      problems.push(`${name} ${CANNOT_STORE}`);
    }
  }
  return problems;
}

export function paramProblems(params: Record<string, unknown>): string[] {
  return Object.entries(params)
    .filter(([, v]) => typeof v === 'string' && !isStorableText(v))
    .map(([name]) => `${name} ${CANNOT_STORE}`);
}

@Injectable()
export class InputHygieneGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() === 'http') {
      const req = ctx.switchToHttp().getRequest<Request>();
      const problems = [
        ...paramProblems((req.params ?? {}) as Record<string, unknown>),
        ...queryProblems((req.query ?? {}) as Record<string, unknown>),
        ...bodyProblems(req.body),
      ];
      if (problems.length) throw badRequest(problems);
    }
    return true;
  }
}
