// npm run openapi:generate: rewrites apps/api/src/openapi/responses.generated.json (from the
// controllers' return types) and libs/client/src/schema.ts (from the API's OpenAPI document). The
// API is booted as in tests (SVC_ENV=test) against PostgreSQL's `postgres` database; it migrates nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createApiApp } from '../apps/api/src/app.factory';
import { buildOpenApiDocument } from '../apps/api/src/openapi/openapi';
import { CLIENT_TYPES_FILE, clientTypes, RESPONSES_FILE, responsesJson } from '../apps/api/src/openapi/generate';
import { loadConfig } from '@svc/config';

const ROOT = path.resolve(__dirname, '..');

// With --check, writes nothing and exits 1 when a checked-in copy differs (e2e/openapi.e2e-spec.ts runs it).
const CHECK = process.argv.includes('--check');
const stale: string[] = [];

function output(file: string, text: string): void {
  const target = path.join(ROOT, file);
  if (!CHECK) return writeFileSync(target, text);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== text) stale.push(file);
}

async function main(): Promise<void> {
  output(RESPONSES_FILE, responsesJson(ROOT));
  const config = loadConfig({
    DATABASE_URL: process.env.OPENAPI_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    SVC_MNEMONIC: 'test test test test test test test test test test test junk',
  });
  const app = await createApiApp({ ...config, logLevel: 'silent' });
  try {
    // the document embeds responses.generated.json as loaded: in --check mode a stale one is reported above
    output(CLIENT_TYPES_FILE, await clientTypes(buildOpenApiDocument(app, config)));
  } finally {
    await app.close();
  }
  if (CHECK && stale.length) {
    console.error(`stale: ${stale.join(', ')} (run npm run openapi:generate)`);
    process.exit(1);
  }
  console.log(CHECK ? 'generated files are current' : `wrote ${RESPONSES_FILE} and ${CLIENT_TYPES_FILE}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
