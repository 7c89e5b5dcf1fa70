#!/usr/bin/env node
// npm run bench:api — throughput and latency of the built API on real PostgreSQL, beside the
// rate of a bare `pg` INSERT loop writing the same session rows over a pool of the same size.
// Prints a table; the goal (issue 23): session create >= 50% of the bare-INSERT rate, p99 < 50 ms
// (issue 2's was >= 35%). Every run prints the load average at its start and end (a shared machine).
// BENCH_API_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is given to the API's node;
// BENCH_COUNT_QUERIES=1 preloads bench/support/count-queries.js into the API and prints the `pg`
// statements each measured request sent, by text (load-independent, unlike requests/s), the
// mean waits for a pool connection and for the key guard's revocation round trip, and the stages
// of a request: arrival to the key guard, the guard, the guard to the response, the grouped
// write, arrival to response in all, and the event loop's mean delay.
// Each measured phase prints the API's garbage collections per 1,000 requests (from its GET /metrics).
// Every row prints the CPU ms per request of the API (all its threads, and in brackets its main
// thread: the event loop every request goes through, without the worker thread that derives
// deposit addresses ahead), of this process and of the PostgreSQL backends (Linux /proc), and the
// run prints the CPU of one deposit address derived from the xpub (the API now) and from the seed
// (before issue 19).
'use strict';
require('reflect-metadata');
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const autocannon = require('autocannon');
const fs = require('node:fs');
const os = require('node:os');
const { Client, Pool } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const { API_NODE_FLAGS } = require('../scripts/svc.js');
const DIST = path.join(ROOT, 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PORT = Number(process.env.BENCH_PORT ?? 3950);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const POOL = 32; // the API's pool size (libs/core/src/core.module.ts)
// Production refuses the well-known test mnemonics (docs/configuration.md › SVC_ENV): a fresh seed each run.
const MNEMONIC = require('ethers').Mnemonic.fromEntropy(require('node:crypto').randomBytes(16)).phrase;
const DATA_KEY = require('node:crypto').randomBytes(32).toString('hex');
/** the MAC key of payout and refund destinations, required by the API in production (issue 19) */
const DESTINATION_KEY = require('node:crypto').randomBytes(32).toString('hex');
const NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * BENCH_ONLY=sessions: session create and the bare INSERTs only (a profile of that path alone);
 * BENCH_ONLY=payments: `POST /v1/payments` and `GET /v1/payments/:id` only.
 */
const SESSIONS_ONLY = process.env.BENCH_ONLY === 'sessions';
const PAYMENTS_ONLY = process.env.BENCH_ONLY === 'payments';
const COUNT_QUERIES = process.env.BENCH_COUNT_QUERIES === '1';
/**
 * BENCH_RATE=400: the API rows send this many requests/s in all, evenly paced (one every 1/RATE s,
 * each on a free one of the CONNECTIONS keep-alive connections, queued when none is free), instead
 * of as many as the API answers. The API is then never saturated, so its CPU per request is
 * compared at the same batching (requests per turn of its event loop) from run to run, which a
 * saturated run on a shared machine does not give; latency runs from the moment a request was due,
 * so a stall counts for every request it held up. (autocannon's overallRate, used before, is not
 * paced: each connection sends its share of a second back to back when the second starts, so the
 * API saw a burst at full speed each second; and its correction for the requests a slow answer
 * held up takes 1/rate s for 1 ms, so every answer counted once per ms it took and the p99 it
 * printed was that of a latency-weighted sample.)
 */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/**
 * BENCH_SLOW_EVENTS=/tmp/slow: preloads bench/support/slow-events.js into the API (its slow
 * requests, collections, event loop delays, statements and waits, to /tmp/slow.api.json) and, at
 * BENCH_RATE, writes the requests answered in BENCH_SLOW_MS (20) or more to /tmp/slow.client.json.
 */
const SLOW_EVENTS = process.env.BENCH_SLOW_EVENTS;
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 20);
/** [due epoch ms, ms, method path] of the slow requests (BENCH_SLOW_EVENTS) */
const slowRequests = [];
const COUNTS_FILE = path.join(os.tmpdir(), `svc-bench-api-queries-${process.pid}.json`);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * CPU ms used so far (Linux /proc; null elsewhere) by the API, by this process (the load generator
 * or the bare INSERT loop) and by the PostgreSQL backends serving the bench database: divided by
 * the requests of a phase, a figure that does not move with the machine's load as requests/s do.
 */
const TICK_MS = 1000 / 100; // USER_HZ, 100 on Linux
function procCpuMs(pid, file = `/proc/${pid}/stat`) {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return null;
  }
}
function cpuSnapshot(api, dbName) {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const own = process.cpuUsage();
  let pg = 0;
  const backends = new Map();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let cmd;
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.startsWith('postgres: ') || !cmd.includes(` ${dbName} `)) continue;
    const ms = procCpuMs(pid);
    if (ms !== null) {
      pg += ms;
      backends.set(pid, ms);
    }
  }
  return {
    api: api ? procCpuMs(api.pid) : 0,
    // the API's main thread alone (its event loop), without worker threads (deposit addresses derived ahead)
    apiMain: api ? procCpuMs(api.pid, `/proc/${api.pid}/task/${api.pid}/stat`) : 0,
    self: (own.user + own.system) / 1000,
    pg,
    backends,
  };
}
/** CPU ms per request between two snapshots; backends that ended between them are not counted. */
function cpuPerRequest(before, after, requests) {
  if (!before || !after) return null;
  let pg = 0;
  for (const [pid, ms] of after.backends) pg += ms - (before.backends.get(pid) ?? 0);
  return {
    api: (after.api - before.api) / requests,
    apiMain: (after.apiMain - before.apiMain) / requests,
    self: (after.self - before.self) / requests,
    pg: pg / requests,
  };
}
const cpuText = (c) =>
  c ? `${c.api.toFixed(3)} (${c.apiMain.toFixed(3)}) / ${c.self.toFixed(3)} / ${c.pg.toFixed(3)}` : 'n/a';

/** The API's `pg` statement counts so far (BENCH_COUNT_QUERIES): it writes them on SIGUSR2. */
async function queryCounts(api) {
  if (!COUNT_QUERIES) return null;
  fs.rmSync(COUNTS_FILE, { force: true });
  api.kill('SIGUSR2');
  for (let i = 0; i < 100 && !fs.existsSync(COUNTS_FILE); i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50));
  return JSON.parse(fs.readFileSync(COUNTS_FILE, 'utf8'));
}

/**
 * The API's garbage collections so far, from its own GET /metrics (prom-client's
 * `svc_nodejs_gc_duration_seconds`, by kind): count and seconds of pause, for a phase's difference.
 */
async function gcTotals(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const totals = {};
  for (const m of text.matchAll(/^svc_nodejs_gc_duration_seconds_(sum|count)\{[^}]*kind="(\w+)"[^}]*\} (\S+)$/gm))
    (totals[m[2]] ??= { sum: 0, count: 0 })[m[1]] += Number(m[3]);
  return totals;
}

/** Scavenges (V8's minor collections, every request in flight waits through one) and major ones, per 1,000 requests. */
function gcText(before, after, requests) {
  const per = (kind) => {
    const n = (after[kind]?.count ?? 0) - (before[kind]?.count ?? 0);
    const ms = ((after[kind]?.sum ?? 0) - (before[kind]?.sum ?? 0)) * 1000;
    return `${((n * 1000) / requests).toFixed(2)} (${((ms * 1000) / requests).toFixed(1)} ms of pause, ${n ? (ms / n).toFixed(1) : '-'} ms each)`;
  };
  return `GC per 1,000 requests: scavenges ${per('minor')}; major ${per('major')}`;
}

function perRequest(name, before, after, requests) {
  if (!before || !after) return;
  const lines = Object.entries(after)
    .map(([text, [n, ms]]) => [
      text,
      (n - (before[text]?.[0] ?? 0)) / requests,
      ms - (before[text]?.[1] ?? 0),
      n - (before[text]?.[0] ?? 0),
    ])
    .filter(([, n]) => n >= 0.005)
    .sort((a, b) => b[1] - a[1]);
  const total = lines.filter(([text]) => !text.startsWith('(')).reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `\n${name}: ${total.toFixed(2)} pg statements per request (${requests} requests); per request, then mean ms each`,
  );
  for (const [text, n, ms, count] of lines)
    console.log(`  ${n.toFixed(3)}  ${(ms / count).toFixed(2).padStart(7)} ms  ${text}`);
}

async function admin(sql) {
  const c = new Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function waitHealthy(url, ms = 30000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not healthy`);
}

/** Requests the load generator sent in all, warm-up included (to divide a CPU profile by). */
let requestsInAll = 0;

function cannon(opts) {
  if (RATE) return paced({ duration: DURATION, ...opts });
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, res) => {
      if (res) requestsInAll += res.requests.total;
      return err ? reject(err) : resolve(res);
    });
  });
}

/** BENCH_RATE's load: autocannon's result fields that `row` reads, from an evenly paced run. */
async function paced({ url, method = 'GET', headers, body, duration }) {
  const { Pool: HttpPool } = require('undici');
  const target = new URL(url);
  const http = new HttpPool(target.origin, { connections: CONNECTIONS, pipelining: 1 });
  const total = Math.round(RATE * duration);
  const latencies = [];
  const statusCodeStats = {};
  let errors = 0;
  let non2xx = 0;
  let sent = 0;
  let pacerLateMs = 0;
  const inFlight = new Set();
  const t0 = performance.now();
  const send = (dueAt) => {
    const request = http
      .request({ path: target.pathname, method, headers, body })
      .then(async (res) => {
        await res.body.text();
        const ms = performance.now() - dueAt;
        statusCodeStats[res.statusCode] = { count: (statusCodeStats[res.statusCode]?.count ?? 0) + 1 };
        if (SLOW_EVENTS && ms >= SLOW_MS)
          slowRequests.push([
            Math.round(performance.timeOrigin + dueAt),
            Math.round(ms * 10) / 10,
            `${method} ${target.pathname}`,
          ]);
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
        else latencies.push(ms);
      })
      .catch(() => errors++)
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - t0) * RATE) / 1000) + 1);
      if (sent < due) pacerLateMs = Math.max(pacerLateMs, now - (t0 + (sent * 1000) / RATE));
      for (; sent < due; sent++) send(t0 + (sent * 1000) / RATE);
      if (sent === total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  while (inFlight.size) await Promise.all(inFlight);
  const seconds = (performance.now() - t0) / 1000;
  await http.close();
  requestsInAll += sent;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  console.log(
    `  paced ${RATE}/s: ${sent} sent, ${latencies.length} answered 2xx in ${seconds.toFixed(1)} s; latency from due p50 ${pct(50).toFixed(1)}, p90 ${pct(90).toFixed(1)}, p99 ${pct(99).toFixed(1)}, p99.9 ${pct(99.9).toFixed(1)}, max ${pct(100).toFixed(1)} ms; the pacer itself up to ${pacerLateMs.toFixed(1)} ms late`,
  );
  return {
    requests: { average: latencies.length / seconds, total: sent },
    latency: { p50: pct(50), p99: pct(99) },
    non2xx,
    errors,
    timeouts: 0,
    statusCodeStats,
  };
}

function row(name, res, cpu) {
  const errors = res.non2xx + res.errors;
  if (errors) {
    const codes = Object.entries(res.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${count} × ${code}`);
    console.error(`${name}: ${[...codes, `${res.errors} errors, ${res.timeouts} timeouts`].join(', ')}`);
  }
  return { name, rps: res.requests.average, p50: res.latency.p50, p99: res.latency.p99, errors, cpu };
}

async function bareInserts(dbUrl, dbName, workspaceId, productId) {
  const pool = new Pool({ connectionString: dbUrl, max: POOL });
  // the pool's connections open before the first snapshot, so their backends are counted whole
  await Promise.all(Array.from({ length: POOL }, () => pool.connect())).then((clients) =>
    clients.forEach((c) => c.release()),
  );
  const cpu0 = cpuSnapshot(null, dbName);
  pool.on('error', () => undefined); // an idle connection ended from outside (a shared server): the pool replaces it
  let count = 0;
  const latencies = [];
  const until = Date.now() + DURATION * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const now = new Date();
      const t0 = process.hrtime.bigint();
      await pool.query(
        `INSERT INTO checkout_sessions (id, workspace_id, source, product_id, invoice_id, status, reference, metadata,
           reference_origin, amount, pinned_chain, network, locale, success_url, pending_url, cancel_url, expired_url,
           failed_url, return_url, idempotency_key, payment_id, late, completed_at, expires_at, redeemed_at, livemode,
           created_at, updated_at)
         VALUES ($1, $2, 'product', $3, NULL, 'open', $4, NULL, 'server', NULL, NULL, 'mainnet', NULL, NULL, NULL, NULL,
           NULL, NULL, NULL, NULL, NULL, false, NULL, $5, NULL, true, $6, $6)`,
        [
          `cs_${randomBytes(16).toString('hex')}`,
          workspaceId,
          productId,
          'bench-ref',
          new Date(now.getTime() + 1800e3),
          now,
        ],
      );
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      count++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const cpu = cpuPerRequest(cpu0, cpuSnapshot(null, dbName), count);
  await pool.end();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    name: 'bare pg INSERT (same row, same pool)',
    rps: count / DURATION,
    p50: pct(50),
    p99: pct(99),
    errors: 0,
    cpu,
  };
}

/**
 * Issue 19's figure: CPU per deposit address as the API makes it now (public derivation from the
 * account xpub the signer published) and as it made it before issue 19 (from the seed on the
 * request path: BIP-32 CKDpriv of the child key, then its public key; that code left the API with
 * commit 374ed97, so its function is copied here as it was). Same addresses, same process.
 */
function derivationFigures() {
  const { createHmac } = require('node:crypto');
  const { HDNodeWallet, SigningKey, computeAddress, getBytes, toBeHex } = require('ethers');
  const { xpubChildAddress, xpubChildAddresses, wideWindowBase, secp256k1Implementation } = require(
    path.join(DIST, 'libs/chains/src/derivation'),
  );
  // libsecp256k1 (N-API) where its binding loads, else @noble/curves: which one this process (and
  // the API's worker) runs is printed; @noble/curves' worker figure is printed beside it to compare
  const implementation = secp256k1Implementation ? secp256k1Implementation() : '@noble/curves';
  const native = implementation === 'libsecp256k1';
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const account = HDNodeWallet.fromPhrase(MNEMONIC, undefined, 'm').derivePath("m/44'/60'/0'/0");
  const xpub = account.neuter().extendedKey;
  const parent = {
    key: BigInt(account.privateKey),
    chainCode: Buffer.from(getBytes(account.chainCode)),
    publicKey: Buffer.from(getBytes(account.publicKey)),
  };
  const fromSeed = (index) => {
    const data = Buffer.alloc(37);
    parent.publicKey.copy(data);
    data.writeUInt32BE(index, 33);
    const I = createHmac('sha512', parent.chainCode).update(data).digest();
    const key = (BigInt('0x' + I.subarray(0, 32).toString('hex')) + parent.key) % N;
    return computeAddress(SigningKey.computePublicKey(toBeHex(key, 32)));
  };
  const cpuMs = (fn, n) => {
    for (let i = 0; i < 50; i++) fn(i);
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn(1000 + i);
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / 1000 / n;
  };
  for (let i = 0; i < 20; i++)
    if (xpubChildAddress(xpub, i) !== fromSeed(i)) throw new Error(`address ${i} differs between the two ways`);
  // the derivation worker's way (address-worker.ts): a block of 256 a message, G with a 12-bit window table
  const wide = xpubChildAddresses && wideWindowBase();
  const batchOf = (noble) => (i) =>
    i % 256 === 0
      ? xpubChildAddresses(
          xpub,
          Array.from({ length: 256 }, (_, k) => i + k),
          wide,
          ...(noble ? [null] : []),
        )
      : null;
  const batch = batchOf(false);
  const nobleBatch = batchOf(true);
  const expected = Array.from({ length: 256 }, (_, k) => fromSeed(k)).join();
  if (wide && batch(0).join() !== expected) throw new Error('the batch addresses differ from the seed');
  if (wide && native && nobleBatch(0).join() !== expected)
    throw new Error('the @noble/curves batch differs from the seed');
  const rounds = [0, 1].map(() => [
    cpuMs((i) => xpubChildAddress(xpub, i), 1000),
    cpuMs(fromSeed, 1000),
    wide ? cpuMs(batch, 1024) : NaN,
    wide && native ? cpuMs(nobleBatch, 1024) : NaN,
  ]);
  const [pub, seed, worker, nobleWorker] = [0, 1, 2, 3].map((k) => Math.min(...rounds.map((r) => r[k])));
  const workerFigure = !wide
    ? ''
    : native
      ? `; in the API's derivation worker (blocks of 256) ${worker.toFixed(3)}, with @noble/curves and its wide table instead ${nobleWorker.toFixed(3)}`
      : `; in the API's derivation worker (blocks of 256, wide table) ${worker.toFixed(3)}`;
  return `deposit address (EVM, ${implementation}), CPU ms each (best of 2 × 1,000): public derivation from the xpub (the API's request path) ${pub.toFixed(3)}${workerFigure}; from the seed as before issue 19 ${seed.toFixed(3)} (load ${loadavg()})`;
}

async function main() {
  const startLoad = loadavg();
  const derivation = derivationFigures();
  let logLines = 0;
  const dbName = `svc_bench_${Date.now()}`;
  const dbUrl = `${PG}/${dbName}`;
  await admin(`CREATE DATABASE "${dbName}"`);
  let api;
  let apiExited;
  let stopping = false;
  try {
    const { createDataSource } = require(path.join(DIST, 'libs/db/src'));
    const { WorkspacesService } = require(path.join(DIST, 'libs/workspaces/src/workspaces.service'));
    const ds = createDataSource(dbUrl, 2);
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const { merchantId, apiKey } = await new WorkspacesService(ds).createWorkspace('bench');
    // What the signer does at start (apps/signer): publish the account xpubs the API derives
    // deposit addresses from; the API itself gets no seed (issue 19 › Keys).
    const chains = require(path.join(DIST, 'libs/chains/src'));
    await chains.provisionDepositKeys(ds.manager, new chains.DepositAddressDeriver(MNEMONIC));
    await ds.destroy();

    const env = {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: String(PORT),
      SVC_ENV: 'production',
      SVC_DATA_KEY: DATA_KEY,
      SVC_DESTINATION_KEY: DESTINATION_KEY,
    };
    const preload = [
      ...(COUNT_QUERIES ? ['-r', path.join(__dirname, 'support/count-queries.js')] : []),
      ...(SLOW_EVENTS ? ['-r', path.join(__dirname, 'support/slow-events.js')] : []),
    ];
    // the API's own flags as `npm start` gives them (scripts/svc.js), then the bench's
    api = spawn(
      process.execPath,
      [...API_NODE_FLAGS, ...NODE_ARGS, ...preload, path.join(DIST, 'apps/api/src/main.js')],
      {
        env: COUNT_QUERIES ? { ...env, BENCH_QUERY_COUNTS: COUNTS_FILE } : env,
        // stdout is a pipe read by this process, as a log collector reads it in production
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    api.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) logLines++;
    });
    let apiErrors = '';
    api.stderr.on('data', (chunk) => (apiErrors += chunk));
    // A benchmark prints only real failures: the API stopping on its own, or not exiting 0 once
    // asked to stop (it answers SIGTERM with a clean shutdown and exit code 0).
    apiExited = new Promise((resolve) =>
      api.on('exit', (code, signal) => {
        const clean = stopping && code === 0;
        if (!clean) console.error(`the API exited (${code ?? signal}):\n${apiErrors.slice(-4000)}`);
        resolve();
      }),
    );
    const base = `http://127.0.0.1:${PORT}`;
    await waitHealthy(`${base}/healthz`);
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const product = await (
      await fetch(`${base}/v1/products`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Bench lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37' }),
      })
    ).json();
    const payment = await (
      await fetch(`${base}/v1/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' }),
      })
    ).json();

    const warm = { duration: 2 };
    await cannon({
      ...warm,
      url: `${base}/v1/checkout/sessions`,
      method: 'POST',
      headers,
      body: JSON.stringify({ productId: product.id, reference: 'warm' }),
    });
    const results = [];
    const counted = async (name, opts) => {
      const before = await queryCounts(api);
      const gc0 = await gcTotals(base);
      const lines0 = logLines;
      const cpu0 = cpuSnapshot(api, dbName);
      const res = await cannon(opts);
      const cpu = cpuPerRequest(cpu0, cpuSnapshot(api, dbName), res.requests.total);
      const gc = gcText(gc0, await gcTotals(base), res.requests.total);
      await new Promise((r) => setTimeout(r, 100)); // the last lines reach the pipe
      const n = res.requests.total;
      console.log(`\n${name}: ${((logLines - lines0) / n).toFixed(3)} log lines per request on the API's stdout`);
      console.log(`${name}: ${gc}`);
      perRequest(name, before, await queryCounts(api), n);
      return row(name, res, cpu);
    };
    if (!PAYMENTS_ONLY) {
      results.push(
        await counted('POST /v1/checkout/sessions', {
          url: `${base}/v1/checkout/sessions`,
          method: 'POST',
          headers,
          body: JSON.stringify({ productId: product.id, reference: 'bench-ref' }),
        }),
      );
      results.push(await bareInserts(dbUrl, dbName, merchantId, product.id));
    }
    if (!SESSIONS_ONLY) {
      results.push(
        await counted('POST /v1/payments', {
          url: `${base}/v1/payments`,
          method: 'POST',
          headers,
          body: JSON.stringify({ chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' }),
        }),
      );
      results.push(
        await counted('GET /v1/payments/:id', {
          url: `${base}/v1/payments/${payment.id}`,
          headers: { 'x-api-key': apiKey },
        }),
      );
    }

    console.log(
      `\nbench:api — ${CONNECTIONS} connections, ${DURATION} s each, API pool ${POOL}, ${os.cpus().length} cores, load average ${startLoad} → ${loadavg()}\n`,
    );
    console.log(
      '| what | requests/s | p50 ms | p99 ms | errors | CPU ms per request: API (its main thread) / this process / PostgreSQL |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${cpuText(r.cpu)} |`,
      );
    console.log(
      `\n(this process: ${RATE ? 'the paced undici client' : 'autocannon'} for the API rows, the INSERT loop for the bare row; PostgreSQL: the backends of the bench database)`,
    );
    console.log(`\nrequests sent to the API in all, warm-up included: ${requestsInAll}`);
    console.log(`\n${derivation}`);
    if (SLOW_EVENTS) fs.writeFileSync(`${SLOW_EVENTS}.client.json`, JSON.stringify(slowRequests));
    if (PAYMENTS_ONLY) {
      console.log(`\nPOST /v1/payments p99 = ${results[0].p99} ms (goal < 50 ms)`);
    } else {
      const ratio = results[0].rps / results[1].rps;
      console.log(
        `\nsession create / bare INSERT = ${(ratio * 100).toFixed(1)}% (goal >= 50%, issue 23); session create p99 = ${results[0].p99} ms (goal < 50 ms)` +
          (results[2] ? `; POST /v1/payments p99 = ${results[2].p99} ms (goal < 50 ms)` : ''),
      );
    }
  } finally {
    if (api) {
      stopping = true;
      api.kill('SIGTERM');
      await Promise.race([apiExited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
