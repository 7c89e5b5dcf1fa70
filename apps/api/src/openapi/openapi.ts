// The API described as OpenAPI 3.1, built from the code at start-up: @nestjs/swagger walks the
// controllers (paths, methods, path parameters, bodies), class-validator-jsonschema turns the
// request DTOs' validation rules into schemas (bodies and query parameters), and the success
// bodies come from responses.generated.json (the checker's reading of what each controller method
// returns; see response-schemas.ts). Every operation answers errors in the spec's shape
// `{statusCode, error, message}` (the `Error` schema). Served at GET /v1/openapi.json, with the
// reference page at GET /docs (Swagger UI from the swagger-ui-dist package: no CDN, works offline).
import type { INestApplication } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage'; // typed in class-transformer-storage.d.ts
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { SvcConfig } from '@svc/core';
import { IS_PUBLIC, REQUIRED_PERMISSION } from '../modules/auth/auth.decorators';
import generated from './responses.generated.json';

type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema; example?: Schema }> }>;
  security?: Array<Record<string, string[]>>;
  tags?: string[];
};

export const OPENAPI_JSON_PATH = 'v1/openapi.json';
export const DOCS_PATH = 'docs';

const ERROR_SCHEMA: Schema = {
  type: 'object',
  description:
    'Every error, in the shape of the spec: `message` is a string, or an array of strings for field validation. ' +
    'Some refusals add fields (an amount out of bounds adds `minAmount`, `maxAmount`, `currency`; a refund above ' +
    'the maximum adds `maximum`).',
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    message: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  },
  required: ['statusCode', 'error', 'message'],
};

/** The errors each kind of route may answer, each with a message this API really sends. */
const ERROR_RESPONSES: Record<string, { description: string; example: Schema }> = {
  '400': {
    description: 'The request is malformed or breaks a rule; `message` names the field and the rule.',
    example: { statusCode: 400, error: 'Bad Request', message: 'amount 0.5 is below the minimum of 1 USD.' },
  },
  '401': {
    description: 'No API key, or an unknown or revoked one.',
    example: { statusCode: 401, error: 'Unauthorized', message: 'Missing API key: send it in the x-api-key header.' },
  },
  '403': {
    description: "The key's role lacks the permission this route needs.",
    example: {
      statusCode: 403,
      error: 'Forbidden',
      message: 'This API key (role developer) lacks the permission refunds.write.',
    },
  },
  '404': {
    description: "No such object in this workspace (another workspace's objects are not found either).",
    example: {
      statusCode: 404,
      error: 'Not Found',
      message: 'No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b.',
    },
  },
  '409': {
    description: 'The object is not in a state that allows this.',
    example: {
      statusCode: 409,
      error: 'Conflict',
      message: 'Only confirmed or overpaid payments can be refunded; this payment is underpaid.',
    },
  },
  '429': {
    description: 'Too many requests; wait `Retry-After` seconds.',
    example: { statusCode: 429, error: 'Too Many Requests', message: 'Too many requests: try again in 12 seconds.' },
  },
};

/** One route of the router, as Nest registered it. */
export interface RouteInfo {
  method: string;
  /** OpenAPI style: `/v1/payments/{id}` */
  path: string;
  operationId: string;
  isPublic: boolean;
  permission: string | null;
  httpCode: number | null;
  /** the class of a whole-query `@Query() q: SomeQueryDto`, if any */
  queryDto: string | null;
  /** the names of single query parameters read with `@Query('name')` */
  queryNames: string[];
}

/**
 * The method's query arguments: the class name of a whole-query `@Query()` DTO, and the names of
 * `@Query('name')` parameters. e2e/openapi.e2e-spec.ts checks the document against the same metadata.
 */
function queryArgsOf(type: object, key: string): { dto: string | null; names: string[] } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type.constructor, key) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', type, key) ?? []) as Array<{ name?: string }>;
  let dto: string | null = null;
  const names: string[] = [];
  for (const [k, arg] of Object.entries(args)) {
    if (Number(k.split(':')[0]) !== RouteParamtypes.QUERY) continue;
    if (arg.data === undefined) dto = types[arg.index]?.name ?? null;
    else if (typeof arg.data === 'string') names.push(arg.data);
  }
  return { dto, names };
}

/** Every controller route of the app, read from Nest's metadata (the same source the router uses). */
export function routesOf(app: INestApplication): RouteInfo[] {
  const routes: RouteInfo[] = [];
  const wrappers = [...app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
  for (const wrapper of wrappers) {
    const type = wrapper.metatype as (new (...args: never[]) => object) | null;
    if (!type || !wrapper.instance) continue;
    const base = [Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined].flat()[0] ?? '';
    const proto = type.prototype as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const handler = proto[key];
      if (key === 'constructor' || typeof handler !== 'function') continue;
      const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (methodPath === undefined || method === undefined) continue;
      for (const p of [methodPath].flat()) {
        const full = `/${[base, p].filter((s) => s && s !== '/').join('/')}`.replace(/\/+/g, '/');
        routes.push({
          method: RequestMethod[method].toLowerCase(),
          path: full.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
          operationId: `${type.name}_${key}`,
          isPublic: Reflect.getMetadata(IS_PUBLIC, handler) === true || Reflect.getMetadata(IS_PUBLIC, type) === true,
          permission: (Reflect.getMetadata(REQUIRED_PERMISSION, handler) as string | undefined) ?? null,
          httpCode: (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? null,
          ...((q) => ({ queryDto: q.dto, queryNames: q.names }))(queryArgsOf(proto, key)),
        });
      }
    }
  }
  return routes;
}

export function buildOpenApiDocument(app: INestApplication, config: SvcConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('svc API')
    .setDescription(
      'Stablecoin checkout and payments: products, checkout sessions, payment links, direct payments, ' +
        'invoices, receipts, payouts, refunds and signed webhooks. Authenticate with an API key as ' +
        'the `x-api-key: svc_sk_…` header; `/v1/public/*` routes need none. Amounts are decimal strings ' +
        'in token units; `*Atomic` fields are integer strings in the token’s smallest unit.',
    )
    .setVersion('v1')
    .addServer(config.baseUrl)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key: `svc_sk_…`' }, 'apiKey')
    .build();
  const document = SwaggerModule.createDocument(app, base, {
    operationIdFactory: (controller, method) => `${controller}_${method}`,
  });

  // class-transformer's @Type() names the items of nested arrays (`networks: NetworkDto[]`)
  const dto = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, Schema>;
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {}) as Record<string, Schema>;
  const responses = generated as { components: Record<string, Schema>; operations: Record<string, Schema | null> };
  Object.assign(schemas, responses.components, { Error: ERROR_SCHEMA });

  const routes = new Map(routesOf(app).map((r) => [r.operationId, r]));
  const included = new Set<string>();
  for (const [, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const route = routes.get(op.operationId);
      describeOperation(op, method, route, { dto, schemas, included }, responses.operations);
    }
  }
  return document;
}

function describeOperation(
  op: Operation,
  method: string,
  route: RouteInfo | undefined,
  { dto, schemas, included }: { dto: Record<string, Schema>; schemas: Record<string, Schema>; included: Set<string> },
  bodies: Record<string, Schema | null>,
): void {
  const [controller] = op.operationId.split('_');
  op.tags = [controller.replace(/Controller$/, '').replace(/([a-z])([A-Z])/g, '$1 $2')];
  // request body: the DTO's class-validator rules
  const bodyRef = op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
  if (bodyRef) includeDto(bodyRef.split('/').pop()!, dto, schemas, included);
  // query DTOs: swagger lists a class's properties only when they carry @ApiProperty; class-validator knows them
  op.parameters = (op.parameters ?? []).filter((p) => p.in !== 'query');
  // single `@Query('name')` parameters: optional strings, checked by the handler itself
  for (const name of route?.queryNames ?? [])
    op.parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  const query = route?.queryDto ? dto[route.queryDto] : undefined;
  if (query) {
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [field, schema] of Object.entries((query.properties as Record<string, Schema>) ?? {})) {
      op.parameters.push({ name: field, in: 'query', required: required.has(field), schema });
      for (const ref of refsIn(schema)) includeDto(ref, dto, schemas, included);
    }
  }
  for (const p of op.parameters) {
    if (p.in !== 'header') continue;
    // headers are optional (Idempotency-Key is the only one a route reads)
    p.required = false;
    if (String(p.name).toLowerCase() === 'idempotency-key') {
      p.name = 'Idempotency-Key';
      p.description = 'The same key with the same request answers the same object; another request with it is a 409.';
      p.schema = { type: 'string', minLength: 1, maxLength: 255 };
    }
  }
  if (!op.parameters.length) delete op.parameters;
  // who may call it
  if (route?.isPublic) op.security = [];
  else op.security = [{ apiKey: [] }];
  if (route?.permission) op.description = `Needs the \`${route.permission}\` permission.`;
  // success body, then the errors in the spec's shape
  const code = String(route?.httpCode ?? (method === 'post' ? 201 : 200));
  const body = bodies[op.operationId];
  op.responses = {
    [code]: {
      description: 'OK',
      ...(body ? { content: { 'application/json': { schema: body } } } : {}),
    },
  };
  const errors = route?.isPublic ? ['400', '404', '409', '429'] : ['400', '401', '403', '404', '409'];
  for (const status of errors) {
    op.responses[status] = {
      description: ERROR_RESPONSES[status].description,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: ERROR_RESPONSES[status].example,
        },
      },
    };
  }
}

/** A DTO's schema in the components, with the nested DTOs it refers to (`@ValidateNested` items). */
function includeDto(
  name: string,
  dto: Record<string, Schema>,
  schemas: Record<string, Schema>,
  done: Set<string>,
): void {
  if (!dto[name] || done.has(name)) return;
  done.add(name);
  schemas[name] = openObjects(dto[name]) as Schema;
  for (const ref of refsIn(dto[name])) includeDto(ref, dto, schemas, done);
}

/** `@IsObject()` fields (metadata) hold any keys: say so, or generated types would allow none. */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (value === null || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, openObjects(v)]));
  if (out.type === 'object' && !out.properties && out.additionalProperties === undefined)
    out.additionalProperties = true;
  return out;
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [v.split('/').pop()!] : refsIn(v),
  );
}

/** GET /v1/openapi.json and the reference page at GET /docs, both public. */
export function serveOpenApi(app: INestApplication, config: SvcConfig): OpenAPIObject {
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: 'v1/openapi.yaml',
    customSiteTitle: 'svc API reference',
    swaggerOptions: { defaultModelsExpandDepth: 0, docExpansion: 'none', tryItOutEnabled: false },
  });
  return document;
}
