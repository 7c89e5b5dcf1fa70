import type { NextFunction, Request, Response } from 'express';
import * as express from 'express';
import { errorBody } from './error.filter';

export const MAX_BODY_BYTES = 256 * 1024;

/** JSON bodies only, at most 256 kB; body-parser's own errors leave in the spec's error shape. */
export function jsonBodyParser() {
  return express.json({ limit: MAX_BODY_BYTES, strict: true, type: () => true });
}

/** A body that is not JSON is refused before parsing (415), instead of being silently ignored. */
export function requireJsonContentType(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json') && !req.is('application/*+json')) {
    res.status(415).json(errorBody(415, 'Content-Type must be application/json.'));
    return;
  }
  next();
}

export function bodyParserErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.too.large') {
    res.status(413).json(errorBody(413, `Request body is larger than ${MAX_BODY_BYTES / 1024} kB.`));
  } else if (e?.type === 'entity.parse.failed') {
    res.status(400).json(errorBody(400, 'Request body is not valid JSON.'));
  } else if (e?.status && e.status >= 400 && e.status < 500) {
    res.status(e.status).json(errorBody(e.status, 'Request body could not be read.'));
  } else {
    next(err);
  }
}
