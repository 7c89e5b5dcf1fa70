// @svc/client as a user installs it (issue 20 › 6): `npm pack` in libs/client builds the package
// (CommonJS + .d.ts) into a tarball; a scratch project in a temporary directory installs it with
// npm, offline and with an empty cache of its own (its one dependency, openapi-fetch, is packed from
// this repository's node_modules: nothing comes from a registry); a TypeScript file there is
// type-checked against the installed declarations, compiled, and run against the real API.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..');
const run = promisify(execFile);
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];

let t: TestApp;
let scratch: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  scratch = mkdtempSync(path.join(tmpdir(), 'svc-client-package-'));
});
afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await t?.close();
});

const npm = (args: string[], cwd: string) =>
  run('npm', [...args, ...NPM_FLAGS, '--cache', path.join(scratch, 'npm-cache')], {
    cwd,
    env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' }, // a registry that cannot answer
    maxBuffer: 16 * 1024 * 1024,
  });

/** What the scratch project does with the package: typed calls, an error, the two verifiers. */
const CONSUMER = `
import { createSvcClient, signWebhookBody, verifyWebhook, verifySignedReturn, returnSignature, type Product } from '@svc/client';

async function main(): Promise<void> {
  const [baseUrl, apiKey] = process.argv.slice(2);
  const svc = createSvcClient({ baseUrl, apiKey });
  const created = await svc.POST('/v1/products', {
    body: { name: 'Packed lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '12.5' },
  });
  const product: Product = created.data!;
  const session = await svc.POST('/v1/checkout/sessions', { body: { productId: product.id, reference: 'pkg-1' } });
  const listed = await svc.GET('/v1/checkout/sessions', { params: { query: { reference: 'pkg-1' } } });
  const missing = await svc.GET('/v1/payments/{id}', { params: { path: { id: 'nope' } } });
  const body = JSON.stringify({ id: 'evt_1' });
  const ts = Math.floor(Date.now() / 1000);
  const url = new URL('https://shop.example.com/done');
  url.searchParams.set('svc_session', session.data!.id);
  url.searchParams.set('svc_status', 'completed');
  url.searchParams.set('svc_ts', String(ts));
  url.searchParams.set('svc_sig', returnSignature('s3cret', session.data!.id, 'completed', ts));
  console.log(
    JSON.stringify({
      created: created.response.status,
      price: product.price,
      session: session.data!.status,
      listed: listed.data!.data.map((s) => s.id).includes(session.data!.id),
      missing: [missing.response.status, missing.error],
      webhook: [verifyWebhook(body, signWebhookBody(body, 'whsec'), 'whsec'), verifyWebhook(body, 'sha256=00', 'whsec')],
      signedReturn: verifySignedReturn(url, 's3cret').valid,
    }),
  );
}
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

test('npm pack builds @svc/client; a scratch project installs the tarball offline, type-checks and calls the API', async () => {
  // the package: built by its prepack script, only the compiled files in it
  const tarballs = path.join(scratch, 'tarballs');
  mkdirSync(tarballs);
  const packed = await npm(['pack', '--pack-destination', tarballs, '--json'], path.join(ROOT, 'libs/client'));
  const [manifest] = JSON.parse(packed.stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
  expect(manifest.name).toBe('@svc/client');
  const files = manifest.files.map((f) => f.path).sort();
  expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'package.json']));
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]); // no sources, no specs
  // its dependency, from the tree this repository installed (what a registry would have served)
  const deps = ['openapi-fetch', 'openapi-typescript-helpers'].map((d) => path.join(ROOT, 'node_modules', d));
  await npm(['pack', ...deps, '--ignore-scripts', '--pack-destination', tarballs], scratch);

  const project = path.join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }),
  );
  const local = readdirSync(tarballs).map((f) => path.join(tarballs, f));
  await npm(['install', ...local], project);
  const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/@svc/client/package.json'), 'utf8'));
  expect(installed).toMatchObject({ name: '@svc/client', types: './dist/index.d.ts' });

  // a TypeScript user: strict, Node's own module resolution (the package's `exports`), node types only
  writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  await run(
    process.execPath,
    [
      tsc,
      ...['--strict', '--target', 'es2022', '--module', 'node16', '--moduleResolution', 'node16'],
      ...['--typeRoots', path.join(ROOT, 'node_modules/@types'), '--types', 'node', '--outDir', 'out', 'consumer.ts'],
    ],
    { cwd: project },
  ).catch((err: { stdout?: string }) => {
    throw new Error(`the scratch project does not type-check:\n${err.stdout ?? String(err)}`);
  });

  const { apiKey } = await t.workspace();
  const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const { stdout } = await run(process.execPath, ['out/consumer.js', baseUrl, apiKey], { cwd: project });
  expect(JSON.parse(stdout)).toEqual({
    created: 201,
    price: '12.5',
    session: 'open',
    listed: true,
    missing: [404, { statusCode: 404, error: 'Not Found', message: 'No such payment: nope.' }],
    webhook: [true, false],
    signedReturn: true,
  });
});
