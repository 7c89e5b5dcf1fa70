// The OpenAPI document and the reference page (docs/api-reference.md): GET /v1/openapi.json is a
// valid OpenAPI 3.1 document (Redocly's linter, no errors) that names every route of the router;
// real answers of the API match the documented response schemas (Ajv, JSON Schema 2020-12); the
// generated files (responses.generated.json, @svc/client's schema.ts) are current; GET /docs is
// Swagger UI served from the package's own assets, with nothing fetched from another host.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import Ajv2020 from 'ajv/dist/2020';
import type { OpenAPIObject } from '@nestjs/swagger';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { fixedProduct, Merchant, merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..');
let t: TestApp;
let doc: OpenAPIObject;
const op = (p: string, method: string): any => (doc.paths[p] as Record<string, unknown>)[method];
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  const res = await t.http().get('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as OpenAPIObject;
});
afterAll(() => t?.close());

/** Every route Express serves from Nest's controllers, as `METHOD /path/{param}`. */
function routerRoutes(): string[] {
  const express = t.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return (
    express.router.stack
      // `/{*path}` layers are middleware mounted for every route (nestjs-pino's request log), not routes
      .filter((layer) => layer.route && layer.route.path !== '/{*path}')
      .flatMap((layer) =>
        Object.keys(layer.route!.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
      )
  );
}

const documented = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.keys(item)
      .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
      .map((k) => `${k.toUpperCase()} ${p}`),
  );

test('GET /v1/openapi.json: public, OpenAPI 3.1, the spec error shape shared by every operation', async () => {
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.title).toBe('svc API');
  expect(doc.components?.schemas?.Error).toMatchObject({ required: ['statusCode', 'error', 'message'] });
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { responses: Record<string, unknown> }>)) {
      const errors = Object.entries(op.responses).filter(([code]) => code.startsWith('4'));
      expect([`${method} ${p}`, errors.length > 0]).toEqual([`${method} ${p}`, true]);
      for (const [, r] of errors) {
        expect(r).toMatchObject({
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        });
      }
    }
  }
  // the merchant routes need a key, the public ones none
  expect(op('/v1/payments', 'post').security).toEqual([{ apiKey: [] }]);
  expect(op('/v1/public/checkout/sessions/{id}', 'get').security).toEqual([]);
  expect(op('/v1/payments/{id}/refund', 'post').description).toContain('refunds.write');
});

test('every route of the router is in the document, and nothing else is', () => {
  const served = routerRoutes().filter((r) => !/ \/(docs|v1\/openapi|metrics$)/.test(r));
  expect(served.length).toBeGreaterThan(60);
  expect([...documented()].sort()).toEqual([...new Set(served)].sort());
});

test('the document is valid OpenAPI 3.1 (Redocly lint, no errors)', async () => {
  const config = await createConfig({ extends: ['minimal'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  const errors = problems.filter((p) => p.severity === 'error');
  expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([]);
});

test('request bodies and query parameters come from the DTOs’ validation rules', () => {
  const body = doc.components!.schemas!.CreatePaymentDto as { properties: Record<string, unknown>; required: string[] };
  expect(body.required).toEqual(expect.arrayContaining(['chain', 'token', 'amount', 'currency']));
  expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['idempotencyKey', 'network', 'metadata']));
  const list = op('/v1/payments', 'get').parameters as Array<{ name: string; in: string }>;
  expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(['status', 'limit', 'cursor', 'updatedAfter']));
  const refund = op('/v1/payments/{id}/refund', 'post').parameters as Array<{ name: string; required: boolean }>;
  expect(refund).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', required: false }));
});

/**
 * What each handler reads from the query string, from the metadata Nest itself routes by: the
 * properties of its whole-query `@Query()` DTO (class-validator's metadata: the global pipe
 * refuses every other name) and the names of its `@Query('name')` arguments. Keyed by operationId.
 */
function queryReadsOfHandlers(): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  const storage = getMetadataStorage();
  for (const wrapper of [...t.app.get(ModulesContainer).values()].flatMap((mod) => [...mod.controllers.values()])) {
    const type = wrapper.metatype as (new (...args: never[]) => object) | null;
    if (!type) continue;
    const proto = type.prototype as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || typeof proto[key] !== 'function') continue;
      if (Reflect.getMetadata(METHOD_METADATA, proto[key]) === undefined) continue;
      const operationId = `${type.name}_${key}`;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, key) ?? {}) as Record<
        string,
        { index: number; data?: unknown }
      >;
      const types = (Reflect.getMetadata('design:paramtypes', proto, key) ?? []) as Array<new () => object>;
      const names = new Set<string>();
      for (const [k, arg] of Object.entries(args)) {
        const kind = Number(k.split(':')[0]);
        // a raw request object could read req.query behind the metadata's back
        expect([operationId, kind === RouteParamtypes.REQUEST]).toEqual([operationId, false]);
        if (kind !== RouteParamtypes.QUERY) continue;
        if (typeof arg.data === 'string') {
          names.add(arg.data);
          continue;
        }
        // a whole-query argument must be a validated class: an interface (design type Object) reads anything
        const dto = types[arg.index];
        const fields = storage.getTargetValidationMetadatas(dto, '', true, false).map((v) => v.propertyName);
        expect([operationId, dto?.name, fields.length > 0]).toEqual([operationId, dto?.name, true]);
        for (const field of fields) names.add(field);
      }
      reads.set(operationId, [...names].sort());
    }
  }
  return reads;
}

test('every route documents exactly the query parameters its handler reads', () => {
  const reads = queryReadsOfHandlers();
  const listed = new Map<string, string[]>();
  for (const item of Object.values(doc.paths)) {
    for (const [method, o] of Object.entries(item as Record<string, any>)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (o.parameters ?? []) as Array<{ name: string; in: string }>;
      listed.set(
        o.operationId,
        params
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
      );
    }
  }
  expect(reads.size).toBeGreaterThan(60);
  const differences = [...reads]
    .filter(([id, names]) => JSON.stringify(listed.get(id)) !== JSON.stringify(names))
    .map(
      ([id, names]) =>
        `${id}: reads [${names.join(', ')}], documents [${listed.get(id)?.join(', ') ?? 'no operation'}]`,
    );
  expect(differences).toEqual([]);
  // the case (spec: Reconciliation walk; money contract › Payouts 8)
  expect(listed.get('SweepsController_list')).toEqual([
    'cursor',
    'limit',
    'network',
    'paymentId',
    'status',
    'updatedAfter',
  ]);
});

test('no code reads the raw query string but the input-hygiene guard, which checks every parameter', () => {
  const raw: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const source = readFileSync(full, 'utf8');
        if (/\.query\s*(\?\.|\.|\[|\?\?|\))|\bquery\s*}\s*=|searchParams/.test(source))
          raw.push(path.relative(ROOT, full));
      }
    }
  };
  // the API's request handling lives in apps/api (the libraries serve no HTTP routes)
  walk(path.join(ROOT, 'apps/api/src'));
  expect(raw).toEqual(['apps/api/src/common/input-hygiene.ts']);
});

test('real answers match the documented response schemas', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  const check = (pathKey: string, method: string, code: string, body: unknown) => {
    const schema = op(pathKey, method).responses[code].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    const ok = validate(body);
    expect([pathKey, ok ? [] : validate.errors]).toEqual([pathKey, []]);
  };
  const product = await m.product(fixedProduct({ price: '12.5' }));
  check('/v1/products', 'post', '201', product);
  const session = await m.session({ productId: product.id, reference: 'order-1' });
  check('/v1/checkout/sessions', 'post', '201', session);
  check('/v1/checkout/sessions', 'get', '200', (await m.get('/v1/checkout/sessions')).body);
  const payment = await m.payment({ chain: 'bnb', token: 'USDC', amount: '5', currency: 'USDC' });
  check('/v1/payments', 'post', '201', payment);
  check('/v1/payments/{id}', 'get', '200', (await m.get(`/v1/payments/${payment.id}`)).body);
  check('/v1/public/payments/{id}', 'get', '200', (await t.http().get(`/v1/public/payments/${payment.id}`)).body);
  const pub = await t.http().get(`/v1/public/checkout/sessions/${session.id}`);
  check('/v1/public/checkout/sessions/{id}', 'get', '200', pub.body);
  check('/v1/events', 'get', '200', (await m.get('/v1/events')).body);
  check('/v1/refunds', 'get', '200', (await m.get('/v1/refunds')).body);
  check('/v1/changelog', 'get', '200', (await t.http().get('/v1/changelog')).body);
  const error = await m.get('/v1/payments/nope');
  check('/v1/payments/{id}', 'get', '404', error.body);
  const invalid = await m.post('/v1/payments', { chain: 'bnb', token: 7, amount: '1', currency: 'USDC', extra: 1 });
  expect(invalid.status).toBe(400);
  check('/v1/payments', 'post', '400', invalid.body);
  // every documented error example is itself a valid error body
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, o] of Object.entries(item as Record<string, { responses: Record<string, any> }>)) {
      for (const [code, r] of Object.entries(o.responses)) {
        if (code.startsWith('4')) check(p, method, code, r.content['application/json'].example);
      }
    }
  }
});

test('the generated files are current (npm run openapi:generate -- --check)', async () => {
  // a child process: openapi-typescript's dependencies are ES modules, which Node loads and Jest does not
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', './scripts/swc-register.js', 'scripts/openapi-generate.ts', '--check'],
    { cwd: ROOT, env: { ...process.env, OPENAPI_DATABASE_URL: t.config.databaseUrl } },
  );
  expect(stdout).toContain('generated files are current');
});

test('GET /docs: the reference page from swagger-ui-dist’s own assets, nothing from another host', async () => {
  const page = await t.http().get('/docs/');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  const html = page.text;
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((x) => x[1]);
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources) expect(src).not.toMatch(/^(https?:)?\/\//);
  const init = await t.http().get('/docs/swagger-ui-init.js');
  expect(init.status).toBe(200);
  expect(init.text).toContain('"openapi": "3.1.0"');
  const bundle = await t.http().get('/docs/swagger-ui-bundle.js');
  expect(bundle.status).toBe(200);
  expect(bundle.text.length).toBeGreaterThan(100_000);
});
