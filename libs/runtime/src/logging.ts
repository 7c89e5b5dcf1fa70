// Logs of every process: JSON lines through pino (nestjs-pino routes Nest's own Logger there too),
// pretty only when a terminal asks for it (docs/operations.md › Logs). The API's request lines
// carry the request id (X-Request-Id, honoured or minted, echoed back), the workspace, the route
// pattern, the status and the duration. Keys, secrets and seeds are redacted wherever they appear.
// nestjs-pino's own middlewares are not mounted: the API mounts pino-http itself
// (requestLogMiddleware), without nestjs-pino's per-request AsyncLocalStorage (async_hooks on every
// promise, issue 23); a line the API writes during a request gets its `req` field from the request
// handed to the call site (request-log.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';
import { redactRpcText } from '@svc/chains';
import { bufferedStdout } from './log-stream';
import type { SvcConfig } from '@svc/config';

/**
 * Keys whose values no line keeps (`[redacted]`). pino's redaction censors them at the top of
 * every line, a child logger's bindings included, and of every object a message interpolates; the
 * log calls' objects, and the objects a message interpolates, have them censored one level down too
 * (censorSecrets, in the `logMethod` hook). No header reaches a line: the request line's serializers
 * keep the request's id, method and path and the response's status code only. The paths
 * `*.apiKey`… and `req.headers["x-api-key"]`… that pino censored before ran a copy and a second
 * JSON.stringify of every value of every line, and of the request's bindings: a request line took
 * 17–21 µs with them, 4–6 µs now (issue 23, thirteenth pass). A child logger's bindings are censored
 * at their top only: the service's one child logger is the request's (`{ req }`, through its serializer).
 */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['apiKey', 'secret', 'checkoutSecret', 'mnemonic']);
const CENSOR = '[redacted]';

/**
 * A copy of `value` with the properties `replaced` holds set to its values: an array stays an
 * array; an object keeps its prototype and every own property, enumerable or not (an Error its
 * message), a frozen one too (the replaced properties are the copy's own, writable).
 */
function replacedCopy(value: object, replaced: Map<string, unknown>): object {
  if (Array.isArray(value)) {
    const copy = value.slice() as unknown as Record<string, unknown>;
    for (const [key, v] of replaced) copy[key] = v;
    return copy;
  }
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(value);
  for (const [key, v] of replaced)
    descriptors[key] = { value: v, enumerable: true, writable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(value), descriptors) as object;
}

/** `value`'s own SECRET_KEYS, each with the censor, or null when it has none. */
function censoredKeys(value: object): Map<string, unknown> | null {
  let out: Map<string, unknown> | null = null;
  for (const key of SECRET_KEYS)
    if (Object.prototype.hasOwnProperty.call(value, key)) (out ??= new Map()).set(key, CENSOR);
  return out;
}

/**
 * `value` with SECRET_KEYS censored at its top and one level down: a copy where one was found (the
 * caller's object is never changed), `value` itself otherwise.
 */
export function censorSecrets<T>(value: T): T {
  // a Buffer or typed array has no keys to censor, and one key per byte to walk
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  let replaced: Map<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (SECRET_KEYS.has(key)) (replaced ??= new Map()).set(key, CENSOR);
    else if (typeof v === 'object' && v !== null) {
      const inner = censoredKeys(v);
      if (inner) (replaced ??= new Map()).set(key, replacedCopy(v, inner));
    }
  }
  return replaced ? (replacedCopy(value, replaced) as T) : value;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

type Req = IncomingMessage & { id?: string; route?: { path?: string }; caller?: { workspaceId?: string } };

function pretty(config: SvcConfig): boolean {
  if (config.logPretty !== null) return config.logPretty;
  return Boolean(process.stdout.isTTY) && config.env !== 'production';
}

/** pino-pretty is a development dependency: absent in a production install, JSON it is. */
function prettyTransport(): { target: string; options: Record<string, unknown> } | undefined {
  try {
    require.resolve('pino-pretty');
    return { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } };
  } catch {
    return undefined;
  }
}

function handled(r: Req): Record<string, string> {
  return {
    ...(r.route?.path ? { route: r.route.path } : {}),
    ...(r.caller?.workspaceId ? { workspaceId: r.caller.workspaceId } : {}),
  };
}

type RawReq = IncomingMessage & { id?: string | (() => string); originalUrl?: string; path?: unknown };

/** The URL pino-std-serializers' `req` gives (Express's `originalUrl`, else the path), for the serializer above. */
function requestUrl(req: RawReq): string {
  if (req.originalUrl) return req.originalUrl;
  return typeof req.path === 'string' ? req.path : (req.url ?? '');
}

/** pino options of a process; `http` adds the request log of the API. */
export function loggerParams(config: SvcConfig, processName: string, http: boolean): Params {
  const transport = pretty(config) ? prettyTransport() : undefined;
  const options: Options = {
    level: config.logLevel,
    base: { process: processName },
    // RPC URLs carry provider keys, and a library's error text may embed one (ethers names the
    // request URL): every logged message and error text has its URLs cut to scheme://host[:port];
    // and every logged object has its secret keys censored (SECRET_KEYS; a child's bindings at their top)
    hooks: { logMethod: redactLogArguments },
    redact: { paths: [...SECRET_KEYS], censor: CENSOR },
    transport,
    autoLogging: http ? { ignore: (req) => req.url === '/metrics' || req.url === '/healthz' } : false,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // the route and the workspace are known once the request was handled: added to its last line only
    customSuccessObject: (req, _res, value: Record<string, unknown>) => ({ ...value, ...handled(req as Req) }),
    customErrorObject: (req, _res, _err, value: Record<string, unknown>) => ({ ...value, ...handled(req as Req) }),
    // the serializers take the request and the response themselves: pino-http would first pass
    // them through pino-std-serializers' (a copy of every response header, the socket's address
    // and port, objects with a prototype of their own, for each request) of which these keep
    // three fields; what those would have given is read here the same way (issue 23, ninth pass)
    wrapSerializers: false,
    serializers: {
      req: (req: RawReq) => ({
        id: typeof req.id === 'function' ? req.id() : req.id,
        method: req.method,
        // the path only: a query string is the caller's, and may hold what should not be kept
        path: requestUrl(req).split('?')[0],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.headersSent ? res.statusCode : null }),
      err: stdSerializers.err,
    },
    customSuccessMessage: (req, res, ms) =>
      `${req.method} ${(req as Req).route?.path ?? req.url?.split('?')[0]} ${res.statusCode} ${Math.round(ms)}ms`,
    customErrorMessage: (req, res) =>
      `${req.method} ${(req as Req).route?.path ?? req.url?.split('?')[0]} ${res.statusCode}`,
  };
  // buffered, one write per turn of the event loop, flushed on exit and crash (log-stream.ts);
  // process.stdout underneath, not a file descriptor of its own: whatever wraps stdout sees every line
  return { pinoHttp: transport ? options : [options, bufferedStdout()] };
}

/**
 * pino `logMethod` hook: the arguments of a log call with every URL in their text redacted, and
 * every object's secret keys censored (censorSecrets: the logged object, the ones a message interpolates).
 */
export function redactLogArguments(
  this: unknown,
  args: Parameters<import('pino').LogFn>,
  method: (...args: unknown[]) => void,
): void {
  method.apply(
    this,
    (args as unknown[]).map((arg) => {
      if (typeof arg === 'string') return redactRpcText(arg);
      if (arg instanceof Error) return redactedError(arg);
      if (arg && typeof arg === 'object' && 'err' in arg && (arg as { err: unknown }).err instanceof Error) {
        return censorSecrets({ ...arg, err: redactedError((arg as { err: Error }).err) });
      }
      return censorSecrets(arg);
    }),
  );
}

function redactedError(err: Error): Error {
  const copy = new Error(redactRpcText(err.message));
  copy.name = err.name;
  copy.stack = err.stack === undefined ? undefined : redactRpcText(err.stack);
  return copy;
}

/**
 * Nest's Logger routed to pino, in every process. nestjs-pino's two middlewares (pino-http, and the
 * request context: every request run inside an AsyncLocalStorage) are not mounted (`forRoutes: []`;
 * `useExisting`: it builds no pino-http of its own either); the API mounts `requestLogMiddleware`.
 */
export function loggerModule(config: SvcConfig, processName: string, http = false): DynamicModule {
  return LoggerModule.forRoot({ ...loggerParams(config, processName, http), useExisting: true, forRoutes: [] });
}

/**
 * The API's request log: pino-http with the module's own options and output (the `Params` the
 * LoggerModule was given, PARAMS_PROVIDER_TOKEN), as nestjs-pino would have mounted it, minus the
 * request context. The request's logger is `req.log` (request-log.ts).
 */
export function requestLogMiddleware(params: Params): HttpLogger {
  const { pinoHttp: given } = params;
  return Array.isArray(given) ? pinoHttp(...given) : pinoHttp(given as Options);
}
