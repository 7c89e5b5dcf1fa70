#!/usr/bin/env node
// `npm run dev` (runtime contract › Commands): the newcomer's one command. Builds when the build
// is missing or older than the sources, creates and migrates the dev database, seeds a `Demo`
// workspace and a demo product (idempotent), prints how to use them, then runs the service's
// processes in the foreground until Ctrl-C. The product and the checkout session are created
// through the running API, so seeding follows the real rules.
// Not yet: the devnet (Anvil), listener, worker and pay arrive with later issues.
const fs = require('node:fs');
const path = require('node:path');
const { root, dist, isBuildCurrent } = require('./svc.js');
const { PROCESSES, runOnce, supervise, say } = require('./start.js');

// Development defaults; whatever the environment already says wins.
process.env.SVC_ENV ??= 'development';
process.env.SVC_DEV_CLOCK ??= '1';

const DEMO_WORKSPACE = 'Demo';
const DEMO_PRODUCT = {
  name: 'Demo T-shirt',
  kind: 'one_off',
  chain: 'bnb',
  token: 'USDC',
  price: '25',
  networks: [
    { chain: 'bnb', token: 'USDC', price: '25' },
    { chain: 'brokerchain', token: 'USDG', price: '25' },
  ],
};
// The key is shown once and stored hashed, so the dev copy lives here, made with the workspace.
const DEMO_KEY_FILE = path.join(root, '.svc', 'demo-api-key');
const HEALTH_TIMEOUT_MS = 60_000;

const built = (...parts) => path.join(root, 'dist', ...parts);

function saveDemoKey(apiKey) {
  fs.mkdirSync(path.dirname(DEMO_KEY_FILE), { recursive: true });
  fs.writeFileSync(DEMO_KEY_FILE, `${apiKey}\n`, { mode: 0o600 });
  fs.chmodSync(DEMO_KEY_FILE, 0o600); // mode only applies to a new file
}

/** The Demo workspace and a working owner key for it, created when missing. Runs against the database directly. */
async function seedWorkspace(config) {
  require('reflect-metadata');
  const { IsNull } = require('typeorm');
  const { createDataSource, ApiKeyEntity, ProductEntity } = require(built('libs', 'db', 'src'));
  const { WorkspacesService } = require(built('apps', 'api', 'src', 'modules', 'workspaces', 'workspaces.service.js'));
  const { hashApiKey } = require(built('apps', 'api', 'src', 'modules', 'workspaces', 'api-key.js'));

  const db = await createDataSource(config.databaseUrl, 2).initialize();
  try {
    const workspaces = new WorkspacesService(db);
    const existing = await workspaces.findByName(DEMO_WORKSPACE);
    let merchantId;
    let apiKey;
    if (!existing) {
      ({ merchantId, apiKey } = await workspaces.createWorkspace(DEMO_WORKSPACE));
      saveDemoKey(apiKey);
      say(`created the ${DEMO_WORKSPACE} workspace (${merchantId})`);
    } else {
      merchantId = existing.id;
      apiKey = fs.existsSync(DEMO_KEY_FILE) ? fs.readFileSync(DEMO_KEY_FILE, 'utf8').trim() : '';
      // The file may be missing, or belong to another database (DATABASE_URL changed, database recreated).
      const valid =
        apiKey !== '' &&
        (await db.getRepository(ApiKeyEntity).existsBy({ keyHash: hashApiKey(apiKey), workspaceId: merchantId, revokedAt: IsNull() }));
      if (!valid) {
        apiKey = await workspaces.createApiKey(merchantId, 'owner');
        saveDemoKey(apiKey);
        say(`made a new owner key for the ${DEMO_WORKSPACE} workspace (saved in .svc/demo-api-key)`);
      }
    }
    const product = await db.getRepository(ProductEntity).findOne({
      where: { workspaceId: merchantId, name: DEMO_PRODUCT.name, status: 'active' },
      order: { createdAt: 'ASC' },
    });
    return { merchantId, apiKey, product: product && { id: product.id, slug: product.slug } };
  } finally {
    await db.destroy();
  }
}

async function api(localUrl, apiKey, method, route, body) {
  const res = await fetch(`${localUrl}${route}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

async function waitForHealth(localUrl, isStopped) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (isStopped()) throw new Error('the api stopped before it became healthy');
    try {
      const res = await fetch(`${localUrl}/healthz`, { signal: AbortSignal.timeout(3000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`GET /healthz did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000}s (last: ${last})`);
}

function printSummary(config, { apiKey, slug, sessionUrl }) {
  const lines = [
    '',
    `svc is running (${config.env})`,
    `  API            ${config.baseUrl}`,
    `  Demo API key   ${apiKey}   (workspace ${DEMO_WORKSPACE}; kept in .svc/demo-api-key)`,
    `  Try it         curl -s ${config.baseUrl}/v1/products -H 'x-api-key: ${apiKey}'`,
    `  Checkout       ${sessionUrl}`,
    `  Payment link   ${config.payUrl}/pay/${slug}`,
    '',
    'Not here yet: the chain listener, the local devnet (Anvil) and the hosted pages (pay) arrive',
    'with later issues, so the checkout and payment-link pages do not load and no payment is detected.',
    'Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

async function main() {
  if (!isBuildCurrent([dist('api'), dist('cli')])) {
    say('building (the build is missing or older than the sources)');
    if ((await runOnce('npm', ['run', 'build'])) !== 0 || !isBuildCurrent([dist('api'), dist('cli')])) {
      say('the build failed; fix the errors above and run `npm run dev` again');
      return 1;
    }
  }
  if ((await runOnce(process.execPath, [dist('cli'), 'migrate'])) !== 0) return 1;

  const { loadConfig } = require(built('libs', 'config', 'src'));
  const config = loadConfig();
  const seeded = await seedWorkspace(config);

  const service = supervise(PROCESSES);
  let stopped = false;
  let seedFailed = false;
  const exited = service.done.then((code) => {
    stopped = true;
    return code;
  });
  try {
    const localUrl = `http://127.0.0.1:${config.port}`;
    await waitForHealth(localUrl, () => stopped);
    const product = seeded.product ?? (await api(localUrl, seeded.apiKey, 'POST', '/v1/products', DEMO_PRODUCT));
    if (!seeded.product) say(`created the demo product "${DEMO_PRODUCT.name}" (${product.id})`);
    const session = await api(localUrl, seeded.apiKey, 'POST', '/v1/checkout/sessions', { productId: product.id });
    printSummary(config, { apiKey: seeded.apiKey, slug: product.slug, sessionUrl: session.url });
  } catch (err) {
    if (!stopped) {
      seedFailed = true;
      say(`seeding failed: ${err.message}`);
      service.stop();
    }
  }
  const code = await exited;
  return seedFailed ? 1 : code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    say(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
