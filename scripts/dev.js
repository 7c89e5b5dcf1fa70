#!/usr/bin/env node
// `npm run dev` (runtime contract › Commands): the newcomer's one command. Builds when the build
// is missing or older than the sources, creates and migrates the dev database, seeds a `Demo`
// workspace and a demo product (idempotent), prints how to use them, then runs the service's
// processes in the foreground until Ctrl-C. The product and the checkout session are created
// through the running API, so seeding follows the real rules.
// The devnet: one Anvil per watched EVM chain (from the npm package @foundry-rs/anvil) with the
// dev tokens (USDC with 18 decimals on bnb, USDG with 6 on brokerchain, native USDC on arc
// testnet), a block a second, and the Sui devnet (libs/devnet/src/sui: Sui's GraphQL API over an
// in-memory chain that executes signed transactions, a checkpoint a second) for sui/mainnet with
// SUI and the registry's USDC coin type; its chains file under .svc/devnet/ handed to every
// process as SVC_CHAINS_FILE; `npm run svc -- dev:pay --payment <id>` pays on it (EVM or Sui).
// The hosted pages (pay) run from their Next.js build (apps/pay/.next), rebuilt when apps/pay changed.
// Payouts: the Demo workspace gets an active default settlement address on every dev chain (the
// cool-down is skipped for the seed) and the gas tank is funded from the devnet's payer, so the
// demo payment is paid out a few seconds after it confirms (SVC_PAYOUT_INTERVAL_MS 5000 here).
// Refunds: the Demo workspace's refund wallet (the address GET /v1/refund-wallets names, which
// refunds of paid-out payments are sent from) is funded with native coin and every dev token.
// Sui: the Sui gas tank (the gas owner of every sponsored Sui payout and refund) gets SUI, the
// refund wallet's Sui address SUI and USDC; the demo Sui USDC payment is swept to the demo Sui
// settlement address once `dev:pay` paid it.
const fs = require('node:fs');
const path = require('node:path');
const { root, dist, isBuildCurrent } = require('./svc.js');
const { PROCESSES, runOnce, supervise, say } = require('./start.js');
const { isPayBuildCurrent, buildPay } = require('./pay.js');

// Development defaults; whatever the environment already says wins.
process.env.SVC_ENV ??= 'development';
process.env.SVC_DEV_CLOCK ??= '1';
process.env.SVC_PAYOUT_INTERVAL_MS ??= '5000'; // the demo payment is paid out within seconds

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
const APPS = ['api', 'cli', 'listener', 'worker', 'payouts', 'signer'];
/** Native coin the gas tank gets on each devnet node at start (it pays the gas of token payouts). */
const GAS_TANK_FUNDING = 100n * 10n ** 18n;
/** What the Demo refund wallet gets on each devnet node at start: whole native coins and whole tokens. */
const REFUND_WALLET_FUNDING = { nativeUnits: 1000n, tokenUnits: 1000n }; // arc's native coin is its USDC
/** The same on the Sui devnet, in atomic units: 100 SUI (9 decimals) for the tank; 1000 SUI and 1000 USDC (6) for refunds. */
const SUI_GAS_TANK_FUNDING = { sui: 100n * 10n ** 9n, usdc: 0n };
const SUI_REFUND_WALLET_FUNDING = { sui: 1000n * 10n ** 9n, usdc: 1000n * 10n ** 6n };

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
  const { WorkspacesService } = require(built('libs', 'workspaces', 'src', 'workspaces.service.js'));
  const { hashApiKey } = require(built('libs', 'workspaces', 'src', 'api-key.js'));

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
        (await db
          .getRepository(ApiKeyEntity)
          .existsBy({ keyHash: hashApiKey(apiKey), workspaceId: merchantId, revokedAt: IsNull() }));
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

/** How long a 503 is retried: the api answers 503 on deposit addresses until the signer, started beside it, has published its keys. */
const SIGNER_WAIT_MS = 60_000;

async function api(localUrl, apiKey, method, route, body) {
  const deadline = Date.now() + SIGNER_WAIT_MS;
  let res;
  for (;;) {
    res = await fetch(`${localUrl}${route}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (res.status !== 503 || Date.now() > deadline) break;
    await res.text();
    await new Promise((r) => setTimeout(r, 500));
  }
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

const DEVNET_DIR = path.join(root, '.svc', 'devnet');

let mnemonicCache = null;
/** The same seed the processes use (.svc/mnemonic outside production), read once (it warns each time). */
function devMnemonic(config) {
  if (mnemonicCache === null) {
    const { generateMnemonic } = require(built('libs', 'chains', 'src'));
    const { resolveMnemonic } = require(built('libs', 'config', 'src'));
    mnemonicCache = resolveMnemonic(config, generateMnemonic).mnemonic;
  }
  return mnemonicCache;
}

/** Starts the devnet unless SVC_CHAINS_FILE already points somewhere; exports SVC_CHAINS_FILE to the processes. */
async function startDevnet() {
  if (process.env.SVC_CHAINS_FILE) {
    say(`SVC_CHAINS_FILE is set (${process.env.SVC_CHAINS_FILE}): not starting the devnet`);
    return null;
  }
  const { startDevnet: start, defaultDevChains } = require(built('libs', 'devnet', 'src'));
  fs.rmSync(DEVNET_DIR, { recursive: true, force: true });
  say('starting the devnet (Anvil and the Sui devnet) and deploying the dev tokens');
  const devnet = await start({
    dir: DEVNET_DIR,
    chains: defaultDevChains(2),
    blockTimeSeconds: 1,
    logs: true,
    sui: { checkpointIntervalMs: 1000 },
  });
  process.env.SVC_CHAINS_FILE = devnet.chainsFile;
  for (const c of devnet.chains) {
    const tokens = c.entry.tokens.filter((t) => t.watched).map((t) => `${t.symbol}${t.native ? ' (native)' : ''}`);
    say(
      `devnet ${c.spec.chain}/${c.spec.network}: ${c.node.url}, ${tokens.join(', ')}, ${c.spec.confirmations} confirmation(s)`,
    );
  }
  if (devnet.sui) say(`devnet sui/mainnet: ${devnet.sui.server.url}, USDC, SUI (native), 1 confirmation`);
  return devnet;
}

/**
 * The Sui devnet starts from its genesis on every run with the same chain identifier (mainnet's,
 * so the registry's sui/mainnet applies unchanged), and the Sui watcher tells chains apart by that
 * identifier only: a cursor kept from an earlier run would sit past the new chain's head and skip
 * its first checkpoints. The dev database forgets it; the watcher opens a new one at the head.
 */
async function forgetSuiCursor(config) {
  require('reflect-metadata');
  const { createDataSource } = require(built('libs', 'db', 'src'));
  const db = await createDataSource(config.databaseUrl, 2).initialize();
  try {
    await db.query(`DELETE FROM chain_cursors WHERE chain = 'sui' AND network = 'mainnet'`);
  } finally {
    await db.destroy();
  }
}

/**
 * Payouts on the devnet: the Demo workspace's settlement wallet as the active default of every dev
 * chain (inserted active: the cool-down is skipped for the seed; idempotent), and the gas tank
 * funded from the devnet's payer on each node. Returns the settlement address.
 */
async function seedPayouts(config, merchantId, devnet) {
  require('reflect-metadata');
  const { createDataSource } = require(built('libs', 'db', 'src'));
  const { EvmAccounts } = require(built('libs', 'chains', 'src'));
  const { destinationMac } = require(built('libs', 'domain', 'src'));
  const { destinationKeyOf } = require(built('libs', 'config', 'src'));
  const { DevPayer, DEV_SETTLEMENT_ADDRESS, DEV_SUI_SETTLEMENT } = require(built('libs', 'devnet', 'src'));
  const db = await createDataSource(config.databaseUrl, 2).initialize();
  // Sui too: its settlement wallet is a publicly known dev key as well (DEV_SUI_SETTLEMENT); Sui USDC
  // is forwarded there in sponsored transactions (native SUI payouts stay manual_required).
  const rails = devnet.chains.map((c) => ({
    chain: c.spec.chain,
    network: c.spec.network,
    address: DEV_SETTLEMENT_ADDRESS,
  }));
  if (devnet.sui) rails.push({ chain: 'sui', network: 'mainnet', address: DEV_SUI_SETTLEMENT.toSuiAddress() });
  try {
    for (const c of rails) {
      const added = await db.query(
        `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, label, status, is_default,
           activates_at, activated_at, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, $2::varchar, $3::varchar, $4::varchar, 'Devnet wallet', 'active', true,
           now(), now(), now(), now()
         WHERE NOT EXISTS (SELECT 1 FROM settlement_addresses
                           WHERE workspace_id = $1::uuid AND chain = $2::varchar AND network = $3::varchar
                             AND status = 'active')
         RETURNING id`,
        [merchantId, c.chain, c.network, c.address],
      );
      if (added.length) say(`settlement address ${c.address} is the ${c.chain}/${c.network} default`);
    }
    // docs/money-out.md › Destinations: the signer pays only addresses the API authorised; the seed
    // authorises its own with the same key (SVC_DESTINATION_KEY, generated under .svc/ in development)
    const unmaced = await db.query(
      `SELECT id, workspace_id, chain, network, address, activates_at FROM settlement_addresses
       WHERE workspace_id = $1::uuid AND label = 'Devnet wallet' AND destination_mac IS NULL AND status = 'active'`,
      [merchantId],
    );
    for (const a of unmaced) {
      const mac = destinationMac(destinationKeyOf(config), {
        kind: 'settlement_address',
        workspaceId: a.workspace_id,
        id: a.id,
        chain: a.chain,
        network: a.network,
        address: a.address,
        activatesAt: new Date(a.activates_at),
      });
      await db.query('UPDATE settlement_addresses SET destination_mac = $2 WHERE id = $1', [a.id, mac]);
    }
  } finally {
    await db.destroy();
  }
  // the same seed the processes use (.svc/mnemonic outside production)
  const mnemonic = devMnemonic(config);
  const tank = new EvmAccounts(mnemonic).address('gas_tank', 0);
  const funded = new Set();
  for (const c of devnet.chains) {
    if (funded.has(c.node.url)) continue; // arc mainnet and testnet share a node
    funded.add(c.node.url);
    const payer = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
    try {
      await payer.sendNative(tank, GAS_TANK_FUNDING);
    } finally {
      payer.close();
    }
  }
  say(`gas tank ${tank} funded with 100 native coins on each devnet chain (npm run svc -- gas-tank)`);
  if (devnet.sui) {
    const { suiAccountKeypair, fundDevSuiAccount } = require(built('libs', 'devnet', 'src'));
    const suiTank = suiAccountKeypair(mnemonic, 'gas_tank', 0).toSuiAddress();
    await fundDevSuiAccount(devnet.sui, suiTank, SUI_GAS_TANK_FUNDING);
    say(`Sui gas tank ${suiTank} funded with 100 SUI on the Sui devnet`);
  }
  return DEV_SETTLEMENT_ADDRESS;
}

/**
 * The Demo workspace's refund wallet, as the API names it (allocated on first use, one EVM address
 * on every rail), funded from the devnet's payer on each node. Returns its address.
 */
async function fundRefundWallet(config, merchantId, localUrl, apiKey, devnet) {
  const wallets = await api(localUrl, apiKey, 'GET', '/v1/refund-wallets');
  const address = wallets[0]?.address;
  if (!address) throw new Error('GET /v1/refund-wallets named no refund wallet');
  const { fundDevAccount } = require(built('libs', 'devnet', 'src'));
  const sent = await fundDevAccount(devnet, address, REFUND_WALLET_FUNDING);
  const what = [...new Set(sent.map((s) => s.symbol))].join(', ');
  say(
    `refund wallet ${address} funded with ${REFUND_WALLET_FUNDING.nativeUnits} native coins and ${REFUND_WALLET_FUNDING.tokenUnits} of each dev token (${what}) on each devnet chain`,
  );
  if (devnet.sui) {
    const suiAddress = await suiRefundWallet(config, merchantId);
    const { fundDevSuiAccount } = require(built('libs', 'devnet', 'src'));
    await fundDevSuiAccount(devnet.sui, suiAddress, SUI_REFUND_WALLET_FUNDING);
    say(`refund wallet's Sui address ${suiAddress} funded with 1000 SUI and 1000 USDC on the Sui devnet`);
  }
  return address;
}

/**
 * The Demo refund wallet's Sui address: the service allocates one index per workspace
 * (refund_wallets, EVM m/44'/60'/2'/0/i) and its Sui refund wallet is the same index on the Sui
 * path m/44'/784'/2'/0'/i' (RefundWallets.ensureSui; the devnet derives it the same way).
 */
async function suiRefundWallet(config, merchantId) {
  require('reflect-metadata');
  const { createDataSource } = require(built('libs', 'db', 'src'));
  const { suiAccountKeypair } = require(built('libs', 'devnet', 'src'));
  const db = await createDataSource(config.databaseUrl, 2).initialize();
  try {
    const [row] = await db.query(
      `SELECT address_index FROM refund_wallets WHERE workspace_id = $1 AND address_kind = 'evm'`,
      [merchantId],
    );
    if (!row) throw new Error('the Demo workspace has no refund wallet');
    return suiAccountKeypair(devMnemonic(config), 'refund_wallet', BigInt(row.address_index)).toSuiAddress();
  } finally {
    await db.destroy();
  }
}

function printSummary(config, { apiKey, slug, sessionUrl, payment, suiPayment, settlementAddress, refundWallet }) {
  const lines = [
    '',
    `svc is running (${config.env})`,
    `  API            ${config.baseUrl}`,
    `  Demo API key   ${apiKey}   (workspace ${DEMO_WORKSPACE}; kept in .svc/demo-api-key)`,
    `  Try it         curl -s ${config.baseUrl}/v1/products -H 'x-api-key: ${apiKey}'`,
    `  Checkout       ${sessionUrl}`,
    `  Payment link   ${config.payUrl}/pay/${slug}`,
    '',
    ...(payment
      ? [
          `  Demo payment   ${payment.expectedAmount} ${payment.token} on ${payment.chain} to ${payment.paymentAddress}`,
          `  Pay it         npm run svc -- dev:pay --payment ${payment.id}`,
          `  Watch it       curl -s ${config.baseUrl}/v1/payments/${payment.id} -H 'x-api-key: ${apiKey}'`,
          '                 (confirmed within a few seconds: the devnet makes a block a second)',
          `  Payout         curl -s "${config.baseUrl}/v1/sweeps?paymentId=${payment.id}" -H 'x-api-key: ${apiKey}'`,
          `                 (swept to the demo settlement wallet ${settlementAddress} seconds after it confirms)`,
          `  Refunds        sent from the funded refund wallet ${refundWallet} once a payment is paid out`,
          `                 (curl -s ${config.baseUrl}/v1/refund-wallets -H 'x-api-key: ${apiKey}')`,
        ]
      : []),
    ...(suiPayment
      ? [
          '',
          `  Sui payment    ${suiPayment.expectedAmount} ${suiPayment.token} on sui to ${suiPayment.paymentAddress}`,
          `  Pay it         npm run svc -- dev:pay --payment ${suiPayment.id}`,
          '                 (a signed transaction on the Sui devnet; confirmed at the next checkpoint read)',
          '                 then swept to the demo Sui settlement wallet (the sui/mainnet default) in one',
          '                 sponsored transaction whose gas the Sui gas tank pays (GET /v1/sweeps)',
        ]
      : []),
    'Webhooks: POST /v1/webhooks with a URL on this machine (http://localhost:<port>/...) is allowed here.',
    'Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

async function main() {
  if (!isBuildCurrent(APPS.map(dist))) {
    say('building (the build is missing or older than the sources)');
    if ((await runOnce('npm', ['run', 'build'])) !== 0 || !isBuildCurrent(APPS.map(dist))) {
      say('the build failed; fix the errors above and run `npm run dev` again');
      return 1;
    }
  }
  if (!isPayBuildCurrent()) {
    say('building the hosted pages (apps/pay: missing or older than its sources)');
    if ((await buildPay()).code !== 0) {
      say('the hosted pages did not build; fix the errors above and run `npm run dev` again');
      return 1;
    }
  }
  if ((await runOnce(process.execPath, [dist('cli'), 'migrate'])) !== 0) return 1;

  const { loadConfig } = require(built('libs', 'config', 'src'));
  // the seed authorises the Demo settlement addresses with the destination key (.svc/destination-key)
  const config = loadConfig(process.env, { destinationKey: true });
  const seeded = await seedWorkspace(config);

  const devnet = await startDevnet();
  if (devnet?.sui) await forgetSuiCursor(config);
  const settlementAddress = devnet ? await seedPayouts(config, seeded.merchantId, devnet) : null;
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
    const refundWallet = devnet
      ? await fundRefundWallet(config, seeded.merchantId, localUrl, seeded.apiKey, devnet)
      : null;
    const payment = devnet
      ? await api(localUrl, seeded.apiKey, 'POST', '/v1/payments', {
          chain: 'bnb',
          token: 'USDC',
          amount: '25',
          currency: 'USDC',
        })
      : null;
    const suiPayment = devnet?.sui
      ? await api(localUrl, seeded.apiKey, 'POST', '/v1/payments', {
          chain: 'sui',
          token: 'USDC',
          amount: '25',
          currency: 'USDC',
        })
      : null;
    printSummary(config, {
      apiKey: seeded.apiKey,
      slug: product.slug,
      sessionUrl: session.url,
      payment,
      suiPayment,
      settlementAddress,
      refundWallet,
    });
  } catch (err) {
    if (!stopped) {
      seedFailed = true;
      say(`seeding failed: ${err.message}`);
      service.stop();
    }
  }
  const code = await exited;
  await devnet?.stop();
  return seedFailed ? 1 : code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    say(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
