import {
  ArgumentMetadata,
  PipeTransform,
  ValidationError,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationTypes, type ValidatorOptions } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { badRequest } from '@svc/core';

/** The 400 messages of class-validator's errors, nested properties prefixed with their parent's name. */
export function validationMessages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const own = Object.values(e.constraints ?? {});
    const nested = e.children?.length ? validationMessages(e.children, `${parent}${e.property}.`) : [];
    return [...own.map((m) => (parent ? `${parent}${m}` : m)), ...nested];
  });
}

interface Rule {
  property: string;
  /** class-validator's conditions (Optional, OptionalNotNull, NullClears): all true, or the rules are skipped */
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Array<{ metadata: ValidationMetadata; validate: (value: unknown, args: object) => unknown }>;
}

/** Per DTO class: its rules, or null when it uses anything the quick check does not cover. */
const plans = new WeakMap<object, { properties: Set<string>; rules: Rule[] } | null>();

function planOf(target: new (...args: unknown[]) => object): { properties: Set<string>; rules: Rule[] } | null {
  if (plans.has(target)) return plans.get(target)!;
  const storage = getMetadataStorage();
  // the call class-validator's executor makes for validate(object) without groups (its targetSchema is undefined)
  const metadatas = storage.getTargetValidationMetadatas(
    target,
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
  let plan: { properties: Set<string>; rules: Rule[] } | null = { properties: new Set(), rules: [] };
  const byProperty = new Map<string, Rule>();
  for (const m of metadatas) {
    const known = m.type === ValidationTypes.CUSTOM_VALIDATION || m.type === ValidationTypes.CONDITIONAL_VALIDATION;
    if (!known || m.each || m.always !== undefined || m.groups?.length) {
      plan = null; // nested objects, `each`, groups, IsDefined, Allow…: class-validator decides
      break;
    }
    let rule = byProperty.get(m.propertyName);
    if (!rule) {
      rule = { property: m.propertyName, conditions: [], checks: [] };
      byProperty.set(m.propertyName, rule);
    }
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      rule.conditions.push(m.constraints[0] as (object: object, value: unknown) => boolean);
      continue;
    }
    for (const constraint of storage.getTargetValidatorConstraints(m.constraintCls)) {
      if (constraint.async) {
        plan = null;
        break;
      }
      const instance = constraint.instance as { validate: (value: unknown, args: object) => unknown };
      rule.checks.push({ metadata: m, validate: (value, args) => instance.validate(value, args) });
    }
    if (!plan) break;
  }
  if (plan && byProperty.size === 0) plan = null; // forbidUnknownValues: class-validator refuses a class without rules
  if (plan) plan = { properties: new Set(byProperty.keys()), rules: [...byProperty.values()] };
  plans.set(target, plan);
  return plan;
}

/**
 * True only if class-validator, with these options, would find no error in `object`: every key is
 * a property with rules (whitelist, forbidNonWhitelisted), and each property whose conditions hold
 * passes each of its constraints' own `validate` (the same functions, with the same arguments). Any
 * other answer (false) sends the object to class-validator, which then builds the errors as always.
 */
export function passesAtOnce(object: object, options: ValidatorOptions | undefined): boolean {
  if (!options?.whitelist || options.groups?.length || options.always || options.strictGroups) return false;
  const target = (object as { constructor?: unknown }).constructor;
  if (typeof target !== 'function' || Object.prototype.hasOwnProperty.call(object, 'constructor')) return false;
  const plan = planOf(target as new (...args: unknown[]) => object);
  if (!plan) return false;
  for (const key of Object.keys(object)) if (!plan.properties.has(key)) return false;
  const targetName = (target as { name?: string }).name;
  for (const rule of plan.rules) {
    const value = (object as Record<string, unknown>)[rule.property];
    // class-validator evaluates every condition (map, then reduce)
    if (!rule.conditions.map((c) => c(object, value)).every(Boolean)) continue;
    for (const { metadata, validate } of rule.checks) {
      const args = { targetName, property: metadata.propertyName, object, value, constraints: metadata.constraints };
      const valid = validate(value, args);
      if (valid !== true && valid !== false) return false; // a promise, or anything unexpected
      if (!valid) return false;
    }
  }
  return true;
}

const PROTO_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** An object of Object.prototype whose own values are all strings, numbers, booleans or null. */
function isFlatPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value)) {
    if (PROTO_KEYS.has(key)) return false;
    const v = (value as Record<string, unknown>)[key];
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return false;
  }
  return true;
}

/**
 * The global pipe: a body that passes is let through by the quick check above (the rules of its
 * class collected once, instead of class-validator's metadata walk, error objects and promises per
 * request); anything else goes to class-validator, so every 400 is what it always was.
 */
class QuickValidationPipe extends ValidationPipe {
  /**
   * A request body of plain values (strings, numbers, booleans, null: no object, array or binary
   * value, no `__proto__`, `prototype` or `constructor` key) that passes at once: the entity,
   * built by the same `plainToInstance` with the same options and checked by the same quick check.
   * What `transform` does besides for such a body changes nothing (its arrays' gaps closed, its
   * prototype keys stripped, nested binary values looked for), so the entity is the one it would
   * return. Undefined for anything else, or a body that does not pass: `transform` decides.
   */
  passedAtOnce(value: unknown, metadata: ArgumentMetadata): object | undefined {
    const metatype = metadata.metatype;
    if (
      metadata.type !== 'body' ||
      typeof metatype !== 'function' ||
      this.expectedType ||
      !this.isTransformEnabled ||
      !this.toValidate(metadata) ||
      !isFlatPlainObject(value)
    )
      return undefined;
    const entity = plainToInstance(metatype as new () => object, value, this.transformOptions) as object;
    return entity.constructor === metatype && passesAtOnce(entity, this.validatorOptions) ? entity : undefined;
  }

  /**
   * Whether ValidationPipe's `transform` answers this parameter without validating it (a custom
   * decorator's value, a primitive route or query parameter, a parameter without a type): then its
   * answer is `transformPrimitive`'s (or the value itself without `transform`), which
   * `primitiveAtOnce` gives without the promise of the async `transform`.
   */
  leavesUnvalidated(metadata: ArgumentMetadata): boolean {
    return !this.expectedType && (!metadata.metatype || !this.toValidate(metadata));
  }

  /** ValidationPipe's answer for a parameter it leaves unvalidated (`leavesUnvalidated`), synchronously. */
  primitiveAtOnce(value: unknown, metadata: ArgumentMetadata): unknown {
    return this.isTransformEnabled ? this.transformPrimitive(value, metadata) : value;
  }

  protected override validate(
    object: object,
    validatorOptions?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    return passesAtOnce(object, validatorOptions) ? [] : super.validate(object, validatorOptions);
  }
}

/**
 * The global pipe as Nest calls it: a flat body that passes at once is answered without a
 * promise (no async `transform`, no awaited validation: issue 23, ninth pass), and so is a
 * parameter ValidationPipe does not validate (tenth pass); everything else is ValidationPipe's
 * `transform` with the quick check above.
 */
class SvcValidationPipe implements PipeTransform {
  private readonly pipe: QuickValidationPipe;

  constructor(options: ValidationPipeOptions) {
    this.pipe = new QuickValidationPipe(options);
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // a custom decorator's value (the caller, the request's logger) or a route parameter such as
    // `:id`: nothing to validate, answered without a promise (issue 23, tenth pass)
    if (this.pipe.leavesUnvalidated(metadata)) return this.pipe.primitiveAtOnce(value, metadata);
    return this.pipe.passedAtOnce(value, metadata) ?? this.pipe.transform(value, metadata);
  }
}

/**
 * The one global pipe (house style 8): unknown properties are refused, so the spec's messages
 * (`property amount should not exist`, `amount must be a string`) come out as written.
 */
export function globalValidationPipe(): PipeTransform {
  return new SvcValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => badRequest(validationMessages(errors)),
  });
}
