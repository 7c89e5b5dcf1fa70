#!/usr/bin/env node
// npm run bench:payouts — the built money-out pair, child processes as `npm run start:signer`
// and `npm run start:payouts` run them: the signer (`dist/apps/signer/src/main.js`, the only one
// given SVC_MNEMONIC and SVC_DESTINATION_KEY: signs, broadcasts, follows receipts) and the payout
// process (`dist/apps/payouts/src/main.js`, neither: plans the sweeps, notifies the signer), on
// real PostgreSQL and Anvil from npm, with the OpenZeppelin ERC-20 USDC (18 decimals) of the
// devnet, auto-mining, 1 confirmation. JSON-RPC calls are counted for both processes together.
// BENCH_BLOCK_MS=1000 switches Anvil to a block every second (evm_setIntervalMining) once the
// token payments are paid, before the processes start: many transactions per block, as on a
// chain, where auto-mining mines one block per transaction (Anvil's own CPU, not the service's).
//   (1) native: BENCH_NATIVE paid BNB payments (default 20) swept: gas per sweep, what stays at
//       the deposit address;
//   (2) token: BENCH_PAYMENTS paid USDC payments (default 1,000) waiting when the process starts:
//       sweeps per second until every one completed, gas per swept payment (the gas tank's top-up
//       and the token transfer), the native dust each deposit address keeps.
//   (3) sui: BENCH_SUI_PAYMENTS paid USDC-on-Sui payments (default 1,000) waiting on the Sui devnet
//       (libs/devnet/src/sui, executing the signed transactions, a checkpoint every
//       BENCH_SUI_CHECKPOINT_MS, default 250): gas units and MIST the Sui gas tank paid per
//       sponsored sweep (read from each transaction's effects), sweeps per second, GraphQL
//       requests per sweep by operation (a counting proxy in front of the devnet), CPU per sweep of
//       the signer, the payout process, the bench process (the devnet and the proxy) and the run's
//       PostgreSQL backends, and PostgreSQL transactions per sweep; the tank holds
//       BENCH_SUI_GAS_COINS gas coins (default 20), the pool the signer picks from.
// Payments are inserted paid (as the listener leaves them); their money is sent on chain first
// (Sui: minted to each deposit address by the devnet, a coin and a checkpoint each).
// BENCH_PAYMENTS, BENCH_NATIVE, BENCH_PAYOUT_INTERVAL_MS, BENCH_PAYOUTS_NODE_ARGS (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof", both processes), BENCH_SIGNER_NODE_ARGS (the signer only)
// adjust a run; BENCH_RAILS=bnb,sui (the default) picks
// the rails measured. Where a token sweep's CPU goes: the CPU time (/proc/<pid>/stat) of the
// signer, the payout process, the PostgreSQL backends of the bench's database, Anvil and the
// bench itself over the run, per sweep; and the `pg` statements each process sent per sweep
// (bench/support/count-queries.js preloaded into both; BENCH_COUNT_QUERIES=0 leaves it out),
// the signer's most frequent ones by text (a prepared one by its name; BENCH_TOP_STATEMENTS of them, default 12).
'use strict';
require('reflect-metadata');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1000);
const NATIVE = Number(process.env.BENCH_NATIVE ?? 20);
const INTERVAL_MS = Number(process.env.BENCH_PAYOUT_INTERVAL_MS ?? 50);
const SUI_PAYMENTS = Number(process.env.BENCH_SUI_PAYMENTS ?? 1000);
const SUI_CHECKPOINT_MS = Number(process.env.BENCH_SUI_CHECKPOINT_MS ?? 250);
const SUI_GAS_COINS = Number(process.env.BENCH_SUI_GAS_COINS ?? 20);
const RAILS = (process.env.BENCH_RAILS ?? 'bnb,sui').split(',').map((r) => r.trim());
// a rail this bench does not know (BENCH_RAILS=evm, say) would measure nothing and print nothing
for (const rail of RAILS)
  if (rail !== 'bnb' && rail !== 'sui')
    throw new Error(`BENCH_RAILS: unknown rail "${rail}" (the rails are bnb and sui)`);
const COUNT_QUERIES = process.env.BENCH_COUNT_QUERIES !== '0';
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 0);
const MINING = BLOCK_MS > 0 ? `a block every ${BLOCK_MS} ms while sweeping` : 'auto-mining';
/** issue 23's goal for sweeps with 1,000 paid payments waiting */
const GOAL_SWEEPS_PER_SECOND = 50;
const E18 = 10n ** 18n;
/** the signer's SVC_DESTINATION_KEY, with which this bench authorises its settlement address */
const DESTINATION_KEY = require('node:crypto').randomBytes(32);

const dist = (...p) => require(path.join(DIST, ...p));
const { startDevnet, DevPayer } = dist('libs', 'devnet', 'src');
const { createDataSource } = dist('libs', 'db', 'src');
const { DepositAddressDeriver, EvmAccounts, generateMnemonic } = dist('libs', 'chains', 'src');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (line) => process.stderr.write(`[bench] ${line}\n`);
const fmt = (n) => Number(n).toLocaleString('en-US');

async function admin(sql) {
  const c = new Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function database() {
  const name = `svc_bench_payouts_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  // BENCH_PG_SET="log_min_duration_statement=0;plan_cache_mode=auto": settings of the bench's database
  // only (its sessions), e.g. to log every statement's duration while nothing else is measured
  for (const setting of (process.env.BENCH_PG_SET ?? '').split(';').filter(Boolean)) {
    const [key, value] = setting.split('=');
    if (!/^[a-z_.]+$/.test(key)) throw new Error(`BENCH_PG_SET: ${key}?`);
    await admin(`ALTER DATABASE "${name}" SET ${key} = '${value.replace(/'/g, "''")}'`);
  }
  const url = `${PG}/${name}`;
  const ds = createDataSource(url, 2);
  await ds.initialize();
  await ds.runMigrations({ transaction: 'all' });
  await ds.destroy();
  const client = new Client({ connectionString: url });
  await client.connect();
  const workspaceId = (
    await client.query(`INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`)
  ).rows[0].id;
  return {
    name,
    url,
    client,
    workspaceId,
    async close() {
      await client.end();
      // BENCH_KEEP_DB=1: the database stays for EXPLAIN (ANALYZE, BUFFERS) of the hot statements; drop it by hand
      if (process.env.BENCH_KEEP_DB === '1') return say(`kept the database ${name}`);
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** Paid payments at deposit indexes [from, from + count), inserted as the listener leaves them. */
async function insertPaid(db, deriver, { from, count, token, tokenAddress, amountAtomic }) {
  const addresses = [];
  for (let i = from; i < from + count; i++) addresses.push(deriver.derive('evm', BigInt(i)));
  await db.client.query(
    `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
       expected_amount_atomic, received_amount_atomic, payment_address, address_kind, address_index, status,
       expires_at, confirmed_at)
     SELECT gen_random_uuid(), $1, 'bnb', 'mainnet', $2, $3, 18, $4, $2, $5::numeric, $5::numeric,
       ($6::text[])[i - $7 + 1], 'evm', i, 'confirmed', now() - interval '1 minute', now() - interval '1 minute'
     FROM generate_series($7::int, $7::int + $8::int - 1) AS i`,
    [
      db.workspaceId,
      token,
      tokenAddress,
      (amountAtomic / E18).toString(),
      amountAtomic.toString(),
      addresses,
      from,
      count,
    ],
  );
  await db.client.query(`SELECT setval('deposit_address_index_seq', $1)`, [from + count]);
  await db.client.query('ANALYZE payments');
  return addresses;
}

/**
 * A JSON-RPC proxy in front of the node that counts the signer's and the payout process's calls by method (each
 * call of a JSON-RPC batch counts), and its HTTP requests (round trips: a batch is one) under
 * ROUND_TRIPS, so the bench can say where a sweep's time goes. Returns its URL.
 */
const ROUND_TRIPS = Symbol('round trips');
const graphqlOperation = (query) =>
  (/^\s*(?:query|mutation)\s+(\w+)/.exec(String(query ?? '')) ?? [])[1] ?? 'anonymous GraphQL';
async function countingProxy(target, counts) {
  const server = http.createServer((req, res) => {
    counts.set(ROUND_TRIPS, (counts.get(ROUND_TRIPS) ?? 0) + 1);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed = JSON.parse(body.toString('utf8'));
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          // JSON-RPC: the method; GraphQL (Sui): the operation's name, from the document when not given
          const name = call.method ?? call.operationName ?? graphqlOperation(call.query);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      } catch {
        // not JSON: forwarded as it is
      }
      const upstream = http.request(
        target,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (r) => {
          res.writeHead(r.statusCode ?? 502, { 'content-type': 'application/json' });
          r.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * One app of the service as `npm run start:<app>` runs its build (its log lines are discarded:
 * SVC_ENV=test logs errors only, and those reach this bench's stderr through `[app]`). `died`
 * rejects when it exits before `stop`.
 */
function startApp(app, env) {
  const nodeArgs = [
    ...(process.env.BENCH_PAYOUTS_NODE_ARGS ?? '').split(' '),
    ...(app === 'signer' ? (process.env.BENCH_SIGNER_NODE_ARGS ?? '').split(' ') : []),
  ].filter(Boolean);
  const countsFile = path.join(os.tmpdir(), `svc-bench-payouts-${app}-${process.pid}-${Date.now()}.json`);
  const preload = COUNT_QUERIES ? ['-r', path.join(__dirname, 'support/count-queries.js')] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...preload, path.join(DIST, 'apps', app, 'src', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      ...(COUNT_QUERIES ? { BENCH_QUERY_COUNTS: countsFile } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (d) => {
    for (const line of d.toString().split('\n')) if (line.trim()) say(`[${app}] ${line.slice(0, 2000)}`);
  });
  let stopping = false;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const died = exited.then((code) => {
    if (!stopping) throw new Error(`${app} exited (${code}) during the run`);
  });
  died.catch(() => undefined);
  return {
    pid: child.pid,
    died,
    pid: child.pid,
    /** its `pg` statements so far, by text: [count, ms] (count-queries.js writes them on SIGUSR2) */
    async queryCounts() {
      if (!COUNT_QUERIES) return null;
      fs.rmSync(countsFile, { force: true });
      child.kill('SIGUSR2');
      for (let i = 0; i < 100 && !fs.existsSync(countsFile); i++) await sleep(20);
      await sleep(50);
      const counts = JSON.parse(fs.readFileSync(countsFile, 'utf8'));
      fs.rmSync(countsFile, { force: true });
      return counts;
    },
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(countsFile, { force: true });
    },
  };
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (CLK_TCK 100)
  } catch {
    return 0;
  }
}

/** The whole machine's busy CPU seconds (all cores, /proc/stat), for the share the measured processes had. */
function machineBusySeconds() {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100; // minus idle and iowait
}

/**
 * CPU seconds so far of each process a token sweep runs through: the signer, the payout process,
 * the PostgreSQL backends serving the bench's database (the bench's own connection apart), Anvil,
 * this bench (its JSON-RPC proxy) and the machine.
 */
async function cpuSnapshot(db, pair, anvilPid) {
  const { rows } = await db.client.query(
    'SELECT pid, pid = pg_backend_pid() AS own FROM pg_stat_activity WHERE datname = current_database()',
  );
  const backends = new Map(rows.map((r) => [r.pid, { own: r.own, cpu: cpuSeconds(r.pid) }]));
  const self = process.cpuUsage();
  return {
    signer: cpuSeconds(pair.signer.pid),
    payouts: cpuSeconds(pair.payouts.pid),
    backends,
    anvil: cpuSeconds(anvilPid),
    bench: (self.user + self.system) / 1e6,
    machine: machineBusySeconds(),
  };
}

/** CPU seconds per process between two snapshots; backends that connected meanwhile count whole. */
function cpuBetween(a, b) {
  let pg = 0;
  let benchPg = 0;
  for (const [pid, { own, cpu }] of b.backends) {
    const used = cpu - (a.backends.get(pid)?.cpu ?? 0);
    if (own) benchPg += used;
    else pg += used;
  }
  return {
    signer: b.signer - a.signer,
    payouts: b.payouts - a.payouts,
    pg,
    anvil: b.anvil - a.anvil,
    bench: b.bench - a.bench + benchPg,
    machine: b.machine - a.machine,
  };
}

/**
 * The service's money-out pair on the bench's database: the signer (apps/signer: the seed and
 * SVC_DESTINATION_KEY; publishes the public keys, signs, broadcasts, follows receipts) and the
 * payout process (apps/payouts: neither; plans the sweeps from the published keys, waiting for
 * them, and notifies the signer). `died` rejects when either exits before `stop`.
 */
function startPayouts(db, chainsFile, mnemonic) {
  const common = {
    DATABASE_URL: db.url,
    SVC_ENV: 'test',
    SVC_CHAINS_FILE: chainsFile,
    SVC_PAYOUT_INTERVAL_MS: String(INTERVAL_MS),
  };
  const signer = startApp('signer', {
    ...common,
    SVC_MNEMONIC: mnemonic,
    SVC_DESTINATION_KEY: DESTINATION_KEY.toString('hex'),
  });
  const payouts = startApp('payouts', common);
  const died = Promise.race([signer.died, payouts.died]);
  died.catch(() => undefined);
  return {
    pids: { signer: signer.pid, payouts: payouts.pid },
    died,
    signer,
    payouts,
    async stop() {
      await payouts.stop();
      await signer.stop();
    },
  };
}

async function until(db, token, count, timeoutMs, chain = null) {
  const deadline = Date.now() + timeoutMs;
  let firstRowAt = null;
  for (;;) {
    const { rows } = await db.client.query(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE payout_state = 'completed')::int AS completed,
              count(*) FILTER (WHERE payout_state IN ('held', 'failed', 'manual_required'))::int AS stuck
       FROM sweeps WHERE token = $1 AND ($2::text IS NULL OR chain = $2)`,
      [token, chain],
    );
    if (firstRowAt === null && rows[0].rows > 0) firstRowAt = performance.now();
    if (rows[0].completed >= count) return { doneAt: performance.now(), firstRowAt };
    if (rows[0].stuck > 0) throw new Error(`${rows[0].stuck} ${token} sweep(s) held or failed`);
    if (Date.now() > deadline) throw new Error(`only ${rows[0].completed}/${count} ${token} sweeps completed in time`);
    await sleep(100);
  }
}

const median = (values) => {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[Math.floor(s.length / 2)];
};
const range = (values) => {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${fmt(s[0])}–${fmt(s[s.length - 1])}`;
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere or once it exited. */
const TICKS = 100; // USER_HZ, 100 on Linux
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** CPU seconds of the PostgreSQL backends connected to the bench's database now (what its pools' connections used). */
async function backendCpuSeconds(db) {
  const { rows } = await db.client.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows.reduce((s, r) => s + (cpuSeconds(r.pid) ?? 0), 0);
}

/**
 * PostgreSQL's own counters for the bench's database (pg_stat_user_tables, pg_stat_user_indexes,
 * pg_stat_database), read after the processes exited (a backend flushes its counters when it
 * ends): what the statements of both processes cost the server, whatever the load — rows read by
 * sequential scans and by index, index scans by index, buffer hits.
 */
async function tableStats(db) {
  await sleep(1200); // backends flush their counters at most once a second
  await db.client.query('SELECT pg_stat_clear_snapshot()');
  const tables = await db.client.query(
    `SELECT relname, seq_scan, seq_tup_read, coalesce(idx_scan, 0) AS idx_scan, coalesce(idx_tup_fetch, 0) AS idx_tup_fetch
       FROM pg_stat_user_tables`,
  );
  const indexes = await db.client.query(`SELECT indexrelname, idx_scan, idx_tup_read FROM pg_stat_user_indexes`);
  const [database] = (
    await db.client.query(
      `SELECT xact_commit, blks_hit, blks_read, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = current_database()`,
    )
  ).rows;
  return {
    tables: new Map(tables.rows.map((r) => [r.relname, r])),
    indexes: new Map(indexes.rows.map((r) => [r.indexrelname, r])),
    database,
  };
}

function tableStatsBetween(a, b, sweeps) {
  const per = (x) => (Number(x) / sweeps).toFixed(1);
  const d = (x, y, k) => Number(y?.[k] ?? 0) - Number(x?.[k] ?? 0);
  const tables = [...b.tables.entries()]
    .map(([name, r]) => ({
      name,
      seq: d(a.tables.get(name), r, 'seq_scan'),
      seqRows: d(a.tables.get(name), r, 'seq_tup_read'),
      idx: d(a.tables.get(name), r, 'idx_scan'),
      idxRows: d(a.tables.get(name), r, 'idx_tup_fetch'),
    }))
    .filter((t) => t.seq + t.idx > 0)
    .sort((x, y) => y.seqRows + y.idxRows - (x.seqRows + x.idxRows))
    .slice(0, 8)
    .map((t) => `${t.name} seq ${per(t.seq)} (${per(t.seqRows)} rows), idx ${per(t.idx)} (${per(t.idxRows)} rows)`)
    .join('; ');
  const indexes = [...b.indexes.entries()]
    .map(([name, r]) => ({
      name,
      scans: d(a.indexes.get(name), r, 'idx_scan'),
      rows: d(a.indexes.get(name), r, 'idx_tup_read'),
    }))
    .filter((i) => i.scans > 0)
    .sort((x, y) => y.rows - x.rows)
    .slice(0, 8)
    .map((i) => `${i.name} ${per(i.scans)} (${per(i.rows)} rows)`)
    .join('; ');
  const db = (k) => per(d(a.database, b.database, k));
  return [
    `| PostgreSQL per token sweep (pg_stat_database, both processes and the bench's polling) | ${db('xact_commit')} transactions, ${db('blks_hit')} buffer hits, ${db('blks_read')} reads, ${db('tup_returned')} rows returned by scans, ${db('tup_fetched')} fetched |`,
    `| tables per token sweep: scans (rows read), most rows first | ${tables} |`,
    `| indexes per token sweep: scans (index entries read), most first | ${indexes} |`,
  ];
}

async function evm() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-payouts-'));
  const devnet = await startDevnet({
    dir,
    chains: [
      {
        chain: 'bnb',
        network: 'mainnet',
        chainId: 56,
        confirmations: 1,
        tokens: [
          { symbol: 'USDC', decimals: 18, watched: true },
          { symbol: 'BNB', decimals: 18, watched: true, native: true },
        ],
      },
    ],
  });
  const db = await database();
  const bnb = devnet.get('bnb');
  const usdc = bnb.tokens.USDC;
  const payer = new DevPayer(bnb.node.url, devnet.payerKey, 56);
  const provider = payer.provider;
  const mnemonic = generateMnemonic();
  const deriver = new DepositAddressDeriver(mnemonic);
  const tank = new EvmAccounts(mnemonic).address('gas_tank', 0);
  const settlement = `0x${'5e'.repeat(20)}`;
  let running = null;
  try {
    // an active settlement address with the MAC the API would give it (docs/money-out.md › Destinations)
    const settlementId = require('node:crypto').randomUUID();
    const activatesAt = new Date(Date.now() - 1000);
    const address = require('ethers').getAddress(settlement);
    const mac = dist('libs', 'domain', 'src').destinationMac(DESTINATION_KEY, {
      kind: 'settlement_address',
      workspaceId: db.workspaceId,
      id: settlementId,
      chain: 'bnb',
      network: 'mainnet',
      address,
      activatesAt,
    });
    await db.client.query(
      `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, label, status, is_default,
         activates_at, activated_at, created_at, updated_at, destination_mac)
       VALUES ($3, $1, 'bnb', 'mainnet', $2, 'bench', 'active', true, $4, now(), now(), now(), $5)`,
      [db.workspaceId, address, settlementId, activatesAt, mac],
    );
    await payer.sendNative(tank, 1000n * E18);

    // (1) native sweeps, and one token sweep to the settlement address while it holds no USDC yet
    say(`native: ${NATIVE} paid BNB payments of 0.5 BNB; one USDC payment to an empty settlement address`);
    const nativeAddresses = await insertPaid(db, deriver, {
      from: 1,
      count: NATIVE,
      token: 'BNB',
      tokenAddress: null,
      amountAtomic: E18 / 2n,
    });
    for (const a of nativeAddresses) await payer.sendNative(a, E18 / 2n);
    const [firstTokenAddress] = await insertPaid(db, deriver, {
      from: NATIVE + 1,
      count: 1,
      token: 'USDC',
      tokenAddress: usdc,
      amountAtomic: 10n * E18,
    });
    await payer.sendToken(usdc, firstTokenAddress, 10n * E18);
    const process1 = (running = startPayouts(db, devnet.chainsFile, mnemonic));
    await Promise.race([until(db, 'BNB', NATIVE, 180_000), process1.died]);
    await Promise.race([until(db, 'USDC', 1, 180_000), process1.died]);
    await process1.stop();
    running = null;
    const native = (
      await db.client.query(
        `SELECT t.fee->>'gasUsed' AS gas_used, t.fee->>'effectiveGasPrice' AS effective_gas_price FROM sweeps s JOIN outbound_transactions t ON t.id = s.transfer_id WHERE s.token = 'BNB'`,
      )
    ).rows.map((r) => BigInt(r.gas_used));
    const nativeDust = await Promise.all(nativeAddresses.map((a) => provider.getBalance(a)));
    const [firstToken] = (
      await db.client.query(
        `SELECT t.fee->>'gasUsed' AS gas, t.fee->>'gasLimit' AS gas_limit, t.fee->>'effectiveGasPrice' AS price,
                u.fee->>'gasUsed' AS top_up_gas, s.from_address
         FROM sweeps s JOIN outbound_transactions t ON t.id = s.transfer_id
         JOIN outbound_transactions u ON u.funds_transaction_id = t.id AND u.state = 'completed' WHERE s.token = 'USDC'`,
      )
    ).rows;
    const firstDust = await provider.getBalance(firstToken.from_address);

    // (2) token sweeps
    say(`token: ${fmt(PAYMENTS)} paid USDC payments of 10 USDC, sent on chain 100 a transaction`);
    const tokenAddresses = await insertPaid(db, deriver, {
      from: NATIVE + 2,
      count: PAYMENTS,
      token: 'USDC',
      tokenAddress: usdc,
      amountAtomic: 10n * E18,
    });
    for (let i = 0; i < tokenAddresses.length; i += 100) {
      await payer.sendTokenMany(usdc, tokenAddresses.slice(i, i + 100), 10n * E18);
    }
    const tablesStart = await tableStats(db);
    if (BLOCK_MS > 0) await bnb.node.rpc('evm_setIntervalMining', [BLOCK_MS / 1000]);
    say('starting the signer and the payout process');
    const loadBefore = os.loadavg()[0];
    const startedAt = performance.now();
    const counts = new Map();
    const proxy = await countingProxy(bnb.node.url, counts);
    const proxiedChains = path.join(dir, 'chains-proxied.json');
    const file = JSON.parse(fs.readFileSync(devnet.chainsFile, 'utf8'));
    for (const c of file.chains) c.rpcUrls = [proxy.url];
    fs.writeFileSync(proxiedChains, JSON.stringify(file));
    const process2 = (running = startPayouts(db, proxiedChains, mnemonic));
    const cpuStart = await cpuSnapshot(db, process2, bnb.node.pid);
    const { doneAt, firstRowAt } = await Promise.race([until(db, 'USDC', PAYMENTS + 1, 30 * 60_000), process2.died]);
    const cpu = cpuBetween(cpuStart, await cpuSnapshot(db, process2, bnb.node.pid));
    const statements = {
      signer: await process2.signer.queryCounts(),
      payouts: await process2.payouts.queryCounts(),
    };
    await process2.stop();
    running = null;
    await proxy.close();
    const tables = tableStatsBetween(tablesStart, await tableStats(db), PAYMENTS);
    const roundTrips = counts.get(ROUND_TRIPS) ?? 0;
    counts.delete(ROUND_TRIPS);
    const rpcCalls = [...counts.values()].reduce((a, b) => a + b, 0);
    const byMethod = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([method, n]) => `${method} ${(n / PAYMENTS).toFixed(1)}`)
      .join(', ');
    const tokenRows = (
      await db.client.query(
        `SELECT t.fee->>'gasUsed' AS gas, u.fee->>'gasUsed' AS top_up_gas, ul.amount_atomic AS top_up,
                u.fee->>'paid' AS top_up_fee, t.fee->>'effectiveGasPrice' AS price, t.fee->>'gasLimit' AS gas_limit,
                s.from_address
         FROM sweeps s JOIN outbound_transactions t ON t.id = s.transfer_id
         JOIN outbound_transactions u ON u.funds_transaction_id = t.id AND u.state = 'completed'
         JOIN outbound_legs ul ON ul.transaction_id = u.id
         WHERE s.token = 'USDC' AND s.from_address = ANY($1) ORDER BY s.created_at`,
        [tokenAddresses],
      )
    ).rows;
    const planned = (
      await db.client.query(
        `SELECT extract(epoch FROM max(created_at) - min(created_at)) AS seconds FROM sweeps WHERE from_address = ANY($1)`,
        [tokenAddresses],
      )
    ).rows[0].seconds;
    const sample = tokenRows.filter((_, i) => i % 10 === 0);
    const tokenDust = await Promise.all(sample.map((r) => provider.getBalance(r.from_address)));
    const dustGas = tokenDust.map((d, i) => d / BigInt(sample[i].price));
    const laterTokenGas = tokenRows.map((r) => BigInt(r.gas));
    const received = await new (require('ethers').Contract)(
      usdc,
      ['function balanceOf(address) view returns (uint256)'],
      provider,
    ).balanceOf(settlement);

    const tokenGas = tokenRows.map((r) => BigInt(r.gas));
    const topUpGas = tokenRows.map((r) => BigInt(r.top_up_gas));
    const seconds = (doneAt - startedAt) / 1000;
    const working = (doneAt - firstRowAt) / 1000;
    const ms = (s) => ((s * 1000) / PAYMENTS).toFixed(1);
    const measured = cpu.signer + cpu.payouts + cpu.pg + cpu.anvil + cpu.bench;
    const cpuLine = `| CPU per token sweep (ms; /proc over the run: ${seconds.toFixed(1)} s × ${os.cpus().length} cores = ${fmt(Math.round((seconds * os.cpus().length * 1000) / PAYMENTS))} ms of machine per sweep) | signer ${ms(cpu.signer)}, payout process ${ms(cpu.payouts)}, PostgreSQL backends ${ms(cpu.pg)}, Anvil ${ms(cpu.anvil)}, bench and its proxy ${ms(cpu.bench)}: ${ms(measured)} in all; the machine was busy ${ms(cpu.machine)} (other processes ${ms(Math.max(0, cpu.machine - measured))}) |`;
    const queries = (counts) =>
      counts
        ? Object.entries(counts)
            .filter(([text]) => !text.startsWith('('))
            .reduce((a, [, [n]]) => a + n, 0)
        : null;
    const topQueries = (counts, n) =>
      Object.entries(counts)
        .filter(([text]) => !text.startsWith('('))
        .sort((a, b) => b[1][0] - a[1][0])
        .slice(0, n)
        .map(([text, [count]]) => `${(count / PAYMENTS).toFixed(1)} ${text.slice(0, 70)}`)
        .join('; ');
    const statementLines = statements.signer
      ? [
          `| \`pg\` statements per token sweep (BEGIN/COMMIT included; count-queries.js) | signer ${(queries(statements.signer) / PAYMENTS).toFixed(1)}, payout process ${(queries(statements.payouts) / PAYMENTS).toFixed(1)} |`,
          `| the signer's most frequent statements, per token sweep | ${topQueries(statements.signer, Number(process.env.BENCH_TOP_STATEMENTS ?? 12))} |`,
          `| the payout process's most frequent statements, per token sweep | ${topQueries(statements.payouts, Number(process.env.BENCH_TOP_PAYOUT_STATEMENTS ?? 6))} |`,
        ]
      : [];
    const lines = [
      '',
      `payouts on the bnb devnet (Anvil, OpenZeppelin ERC-20 USDC with 18 decimals, ${MINING}, 1 confirmation), ${os.cpus().length} cores, load ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
      '',
      '| figure | value |',
      '|---|---|',
      `| gas per swept token payment, the first to a settlement address without the token | ${fmt(firstToken.top_up_gas)} (gas tank top-up) + ${fmt(firstToken.gas)} (token transfer) = ${fmt(BigInt(firstToken.top_up_gas) + BigInt(firstToken.gas))} |`,
      `| gas per swept token payment, the settlement address already holding the token | ${fmt(median(topUpGas))} + ${fmt(median(laterTokenGas))} (median; ${range(laterTokenGas)}) = ${fmt(median(topUpGas) + median(laterTokenGas))} |`,
      `| gas per swept native payment | ${fmt(median(native))} (${range(native)}) |`,
      `| native dust left per deposit address, token sweep | ${fmt(median(tokenDust))} wei = ${fmt(median(dustGas))} gas × its price (median of ${sample.length}; ${range(dustGas)}); the first sweep to the empty address: ${fmt(firstDust / BigInt(firstToken.price))} gas × price |`,
      `| native dust left per deposit address, native sweep | ${fmt(nativeDust.reduce((a, b) => (a > b ? a : b), 0n))} wei (max of ${NATIVE}) |`,
      `| sweeps per second, ${fmt(PAYMENTS)} paid payments waiting | ${(PAYMENTS / seconds).toFixed(1)} (all ${fmt(PAYMENTS)} completed ${seconds.toFixed(1)} s after the process started; ${(PAYMENTS / working).toFixed(1)}/s from the first sweep row) |`,
      `| sweep rows planned | ${fmt(PAYMENTS)} in ${Number(planned).toFixed(1)} s |`,
      `| JSON-RPC calls per token sweep (planning check, top-up, transfer, receipts) | ${(rpcCalls / PAYMENTS).toFixed(1)}: ${byMethod} |`,
      `| JSON-RPC round trips (HTTP requests; a batch is one) per token sweep | ${(roundTrips / PAYMENTS).toFixed(1)} |`,
      cpuLine,
      ...statementLines,
      ...tables,
      '',
      'goal (issue 23): ≥ 50 sweeps/s with 1,000 paid payments waiting, ≤ 10 JSON-RPC calls per token sweep',
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
      '',
      `settlement address received ${fmt(received / E18)} USDC (expected ${fmt(PAYMENTS * 10 + 10)}); every deposit address holds 0 USDC: ${
        (
          await Promise.all(
            sample.map((r) =>
              new (require('ethers').Contract)(
                usdc,
                ['function balanceOf(address) view returns (uint256)'],
                provider,
              ).balanceOf(r.from_address),
            ),
          )
        ).every((b) => b === 0n)
          ? 'yes'
          : 'NO'
      } (sampled ${sample.length})`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    if (running) await running.stop();
    payer.close();
    await db.close();
    await devnet.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * (3) Sui: paid USDC-on-Sui payments waiting, swept by the payout process in sponsored
 * transactions (sender the deposit address, gas owner the Sui gas tank).
 */
async function sui() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-payouts-sui-'));
  const { startDevSui, DEV_SUI_USDC, SUI, writeChainsFile, randomSuiAddress } = dist('libs', 'devnet', 'src');
  const { SuiKeyring } = dist('libs', 'outbound', 'src');
  const { bcs } = require('@mysten/sui/bcs');
  const { fromBase64 } = require('@mysten/sui/utils');
  const loadBefore = os.loadavg()[0];
  const devSui = await startDevSui({ checkpointIntervalMs: SUI_CHECKPOINT_MS });
  const chain = devSui.server.chain;
  const db = await database();
  const mnemonic = generateMnemonic();
  const deriver = new DepositAddressDeriver(mnemonic);
  const tank = new SuiKeyring(mnemonic).gasTankAddress;
  const settlement = randomSuiAddress();
  // the signer's and the payout process's GraphQL requests counted by operation at a proxy
  const counts = new Map();
  const proxy = await countingProxy(devSui.server.url, counts);
  const chainsFile = path.join(dir, 'chains.json');
  writeChainsFile(chainsFile, [{ ...devSui.entry, rpcUrls: [proxy.url] }]);
  const USDC_ATOMIC = 10_000_000n; // 10 USDC, 6 decimals
  let process3 = null;
  try {
    const settlementId = require('node:crypto').randomUUID();
    const activatesAt = new Date(Date.now() - 1000);
    const mac = dist('libs', 'domain', 'src').destinationMac(DESTINATION_KEY, {
      kind: 'settlement_address',
      workspaceId: db.workspaceId,
      id: settlementId,
      chain: 'sui',
      network: 'mainnet',
      address: settlement,
      activatesAt,
    });
    await db.client.query(
      `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, label, status, is_default,
         activates_at, activated_at, created_at, updated_at, destination_mac)
       VALUES ($3, $1, 'sui', 'mainnet', $2, 'bench', 'active', true, $4, now(), now(), now(), $5)`,
      [db.workspaceId, settlement, settlementId, activatesAt, mac],
    );
    // the tank's gas coins: signed transfers from the devnet payer, one coin each
    for (let i = 0; i < SUI_GAS_COINS; i++) {
      const sent = await devSui.payer.pay(tank, SUI, 10n ** 9n);
      if (!sent.success) throw new Error(`funding the Sui gas tank failed: ${sent.error}`);
    }
    say(`sui: ${fmt(SUI_PAYMENTS)} paid USDC payments of 10 USDC; the tank holds ${SUI_GAS_COINS} gas coins of 1 SUI`);
    const addresses = [];
    for (let i = 1; i <= SUI_PAYMENTS; i++) addresses.push(deriver.derive('sui', BigInt(i)));
    for (const a of addresses) chain.mint(a, DEV_SUI_USDC, USDC_ATOMIC);
    await db.client.query(
      `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
         expected_amount_atomic, received_amount_atomic, payment_address, address_kind, address_index, status,
         expires_at, confirmed_at)
       SELECT gen_random_uuid(), $1, 'sui', 'mainnet', 'USDC', $2, 6, '10', 'USDC', $3::numeric, $3::numeric,
         ($4::text[])[i], 'sui', i, 'confirmed', now() - interval '1 minute', now() - interval '1 minute'
       FROM generate_series(1, $5::int) AS i`,
      [db.workspaceId, DEV_SUI_USDC, USDC_ATOMIC.toString(), addresses, SUI_PAYMENTS],
    );
    await db.client.query('ANALYZE payments');
    const tankBefore = chain.balanceOf(tank, SUI);
    say('sui: starting the signer and the payout process');
    counts.clear();
    const commitsBefore = Number(
      (await db.client.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)).rows[0]
        .xact_commit,
    );
    const startedAt = performance.now();
    const benchCpuBefore = process.cpuUsage();
    process3 = startPayouts(db, chainsFile, mnemonic);
    const { doneAt, firstRowAt } = await Promise.race([
      until(db, 'USDC', SUI_PAYMENTS, 30 * 60_000, 'sui'),
      process3.died,
    ]);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const commits = Number(
      (await db.client.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)).rows[0]
        .xact_commit,
    );
    const cpu = {
      signer: cpuSeconds(process3.pids.signer),
      payouts: cpuSeconds(process3.pids.payouts),
      postgres: await backendCpuSeconds(db),
      devnet: (benchCpu.user + benchCpu.system) / 1e6,
    };
    await process3.stop();
    process3 = null;
    const rows = (
      await db.client.query(
        `SELECT t.tx_hash, t.fee->>'paid' AS paid, t.fee->>'gasLimit' AS gas_limit, t.fee->>'gasPrice' AS gas_price,
                (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
         FROM sweeps s JOIN outbound_transactions t ON t.id = s.transfer_id WHERE s.chain = 'sui'`,
      )
    ).rows;
    const paid = rows.map((r) => BigInt(r.paid));
    const units = [];
    const storage = [];
    for (const r of rows) {
      const tx = chain.transaction(r.tx_hash);
      const fx = bcs.TransactionEffects.parse(fromBase64(tx.executed.effectsBcs)).V2.gasUsed;
      units.push(BigInt(fx.computationCost) / BigInt(r.gas_price));
      storage.push(BigInt(fx.storageCost) - BigInt(fx.storageRebate));
    }
    const tankSpent = tankBefore - chain.balanceOf(tank, SUI);
    const recorded = paid.reduce((a, b) => a + b, 0n);
    const received = chain.balanceOf(settlement, DEV_SUI_USDC);
    const leftUsdc = addresses.filter((a) => chain.balanceOf(a, DEV_SUI_USDC) !== 0n).length;
    const leftSui = addresses.filter((a) => chain.balanceOf(a, SUI) !== 0n).length;
    const seconds = (doneAt - startedAt) / 1000;
    const working = (doneAt - firstRowAt) / 1000;
    const rate = SUI_PAYMENTS / seconds;
    const extraAttempts = rows.reduce((a, r) => a + r.attempts - 1, 0);
    const planned = (
      await db.client.query(
        `SELECT extract(epoch FROM max(created_at) - min(created_at)) AS seconds FROM sweeps WHERE chain = 'sui'`,
      )
    ).rows[0].seconds;
    const roundTrips = counts.get(ROUND_TRIPS) ?? 0;
    counts.delete(ROUND_TRIPS);
    const calls = [...counts.values()].reduce((a, b) => a + b, 0);
    const byOperation = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([op, n]) => `${op} ${(n / SUI_PAYMENTS).toFixed(1)}`)
      .join(', ');
    const perSweepMs = (s) => (s === null ? 'n/a' : `${((s * 1000) / SUI_PAYMENTS).toFixed(1)} ms`);
    const lines = [
      '',
      `payouts on the Sui devnet (libs/devnet/src/sui, executing signed transactions, a checkpoint every ${SUI_CHECKPOINT_MS} ms, 1 confirmation), USDC 6 decimals, ${os.cpus().length} cores, load ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
      '',
      '| figure | value | goal |',
      '|---|---|---|',
      `| gas units per sponsored sweep (computation; budget ${fmt(rows[0].gas_limit)} units × ${fmt(rows[0].gas_price)} MIST) | ${fmt(median(units))} (${range(units)}) | |`,
      `| SUI the gas tank paid per sponsored sweep (computation + storage − rebate) | ${fmt(median(paid))} MIST (median; ${range(paid)}); storage net ${fmt(median(storage))} MIST | |`,
      `| sweeps per second, ${fmt(SUI_PAYMENTS)} paid payments waiting, ${SUI_GAS_COINS} tank gas coins | ${rate.toFixed(1)} (all ${fmt(SUI_PAYMENTS)} completed ${seconds.toFixed(1)} s after the process started; ${(SUI_PAYMENTS / working).toFixed(1)}/s from the first sweep row) | ≥ ${GOAL_SWEEPS_PER_SECOND}/s (issue 23): ${rate >= GOAL_SWEEPS_PER_SECOND ? 'met' : 'NOT met'} |`,
      `| sweep rows planned | ${fmt(SUI_PAYMENTS)} in ${Number(planned).toFixed(1)} s | |`,
      `| attempts signed beyond one per sweep (expired fences, re-signed) | ${fmt(extraAttempts)} | |`,
      `| PostgreSQL transactions committed per sweep (both processes, and the bench's polling) | ${((commits - commitsBefore) / SUI_PAYMENTS).toFixed(1)} | |`,
      `| GraphQL requests per sweep (signer and payout process), by operation | ${(calls / SUI_PAYMENTS).toFixed(1)}: ${byOperation} | |`,
      `| CPU per sweep (from the start to the last completion) | signer ${perSweepMs(cpu.signer)}, payout process ${perSweepMs(cpu.payouts)}, devnet (the bench process) ${perSweepMs(cpu.devnet)}, PostgreSQL backends of the run's connections ${perSweepMs(cpu.postgres)} | |`,
      '',
      `settlement address received ${fmt(received / 1_000_000n)} USDC (expected ${fmt(SUI_PAYMENTS * 10)}); deposit addresses holding USDC: ${leftUsdc}, holding SUI: ${leftSui}; the tank spent ${fmt(tankSpent)} MIST, the rows record ${fmt(recorded)} MIST (${tankSpent === recorded ? 'equal' : 'DIFFERENT'})`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    if (process3) await process3.stop();
    await proxy.close();
    await db.close();
    await devSui.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (RAILS.includes('bnb')) await evm();
  if (RAILS.includes('sui')) await sui();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
