#!/usr/bin/env node
// npm run bench:pay — the figures of the hosted pages (issues 5 and 24):
//   1. first-load JavaScript of /c/[id], gzip: every script the server-rendered page makes the
//      browser load (module scripts only; the noModule polyfills are skipped by modern browsers),
//      fetched from the running app and gzipped here (level 9, like Next's build table);
//   2. time to first byte of a server-rendered /c/<id> (a session with its payment shown):
//      median of 20 sequential requests on fresh connections after a warm-up, with the API's own
//      public session read beside it (the pay page makes that one call);
//   3. the QR code painted, ms after navigation start, in Debian's Chromium with the CPU throttled
//      4× (DevTools protocol: Emulation.setCPUThrottlingRate), read from the Element Timing API
//      (the QR <img> carries elementtiming="qr"): median of 10 loads, each in a fresh context.
// Runs the BUILT api (dist/) and pay app (apps/pay/.next) on a fresh database.
'use strict';
require('reflect-metadata');
const { spawn } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');
const { Client } = require('pg');
const { nextEnv, nextStartArgs } = require('../scripts/pay.js');
const { API_NODE_FLAGS } = require('../scripts/svc.js');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const API_PORT = Number(process.env.BENCH_PORT ?? 3960);
const PAY_PORT = Number(process.env.BENCH_PAY_PORT ?? 3961);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const WARMUP = 5;
// Production refuses the well-known test mnemonics (docs/configuration.md › SVC_ENV): a fresh seed each run.
const MNEMONIC = require('ethers').Mnemonic.fromEntropy(require('node:crypto').randomBytes(16)).phrase;
const DATA_KEY = require('node:crypto').randomBytes(32).toString('hex');
const QR_RUNS = Number(process.env.BENCH_QR_RUNS ?? 10);
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

async function admin(sql) {
  const c = new Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function waitUp(url, ms = 30000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer`);
}

/** ms from sending the request to its first byte, on a fresh connection (like curl's time_starttransfer). */
function ttfb(url) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(url, { agent: false }, (res) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
      res.resume();
      res.on('end', () => resolve(ms));
    });
    req.on('error', reject);
  });
}

async function series(url) {
  for (let i = 0; i < WARMUP; i++) await ttfb(url);
  const times = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await ttfb(url));
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return {
    median: (times[Math.floor((times.length - 1) / 2)] + times[Math.ceil((times.length - 1) / 2)]) / 2,
    p90: at(0.9),
    min: times[0],
    max: times[times.length - 1],
  };
}

/** The module scripts a server-rendered page loads, and their gzip sizes. */
async function firstLoadJs(pageUrl) {
  const html = await (await fetch(pageUrl)).text();
  const srcs = new Set();
  for (const m of html.matchAll(/<script\b([^>]*)>/g)) {
    const attrs = m[1];
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
    if (src && !/\bnoModule\b/i.test(attrs)) srcs.add(src);
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="preload"[^>]*as="script"[^>]*href="([^"]+)"/g)) srcs.add(m[1]);
  const files = [];
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, pageUrl))).arrayBuffer());
    files.push({ src, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  const css = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
  let cssGzip = 0;
  for (const href of css)
    cssGzip += zlib.gzipSync(Buffer.from(await (await fetch(new URL(href, pageUrl))).arrayBuffer()), {
      level: 9,
    }).length;
  return {
    files,
    gzip: files.reduce((n, f) => n + f.gzip, 0),
    raw: files.reduce((n, f) => n + f.raw, 0),
    cssGzip,
    htmlGzip: zlib.gzipSync(html, { level: 9 }).length,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2;
};

/** ms from navigation start until the QR code was painted, CPU throttled `rate`×, `runs` fresh loads. */
async function qrPaint(pageUrl, runs, rate = 4) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const times = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      await page.addInitScript(() => {
        // renderTime is relative to the navigation start (performance.timeOrigin)
        window.__qrPainted = new Promise((resolve) =>
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (e.identifier === 'qr') resolve(e.renderTime || e.loadTime);
          }).observe({ type: 'element', buffered: true }),
        );
      });
      await page.goto(pageUrl, { waitUntil: 'commit' });
      times.push(await page.evaluate(() => window.__qrPainted));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), runs: times.length };
}

async function main() {
  const dbName = `svc_bench_pay_${Date.now()}`;
  const dbUrl = `${PG}/${dbName}`;
  await admin(`CREATE DATABASE "${dbName}"`);
  const children = [];
  try {
    const { createDataSource } = require(path.join(DIST, 'libs/db/src'));
    const { WorkspacesService } = require(path.join(DIST, 'libs/workspaces/src/workspaces.service'));
    const ds = createDataSource(dbUrl, 2);
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const { apiKey } = await new WorkspacesService(ds).createWorkspace('bench');
    await ds.destroy();

    const api = `http://127.0.0.1:${API_PORT}`;
    const pay = `http://127.0.0.1:${PAY_PORT}`;
    const quiet = { stdio: ['ignore', 'ignore', 'inherit'] };
    children.push(
      spawn(process.execPath, [...API_NODE_FLAGS, path.join(DIST, 'apps/api/src/main.js')], {
        ...quiet,
        env: {
          ...process.env,
          DATABASE_URL: dbUrl,
          PORT: String(API_PORT),
          SVC_ENV: 'production',
          SVC_MNEMONIC: MNEMONIC,
          SVC_DATA_KEY: DATA_KEY,
          PAY_URL: pay,
          // the benchmark measures latency, not the buyer limits (docs/configuration.md › Rate limits)
          SVC_RATE_LIMIT_READS_PER_CLIENT: '1000000',
          SVC_RATE_LIMIT_READS_PER_TARGET: '1000000',
        },
      }),
    );
    children.push(
      spawn(process.execPath, nextStartArgs(PAY_PORT), {
        ...quiet,
        env: nextEnv({ ...process.env, BASE_URL: api }),
      }),
    );
    await waitUp(`${api}/healthz`);
    await waitUp(`${pay}/icon.svg`);

    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const post = async (route, body) =>
      (await fetch(`${api}${route}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
    const product = await post('/v1/products', {
      name: 'Bench lamp',
      description: 'A lamp to measure pages with.',
      kind: 'one_off',
      chain: 'bnb',
      token: 'USDC',
      price: '37',
      networks: [
        { chain: 'bnb', token: 'USDC', price: '37' },
        { chain: 'sui', token: 'USDC', price: '36.5' },
      ],
    });
    await fetch(`${api}/v1/checkout/settings`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ returnOrigins: ['https://shop.example.com'] }),
    });
    const session = await post('/v1/checkout/sessions', {
      productId: product.id,
      successUrl: 'https://shop.example.com/thanks',
    });
    await fetch(`${api}/v1/public/checkout/sessions/${session.id}/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'bnb' }),
    });

    const page = `${pay}/c/${session.id}`;
    const js = await firstLoadJs(page);
    const pageTtfb = await series(page);
    const apiTtfb = await series(`${api}/v1/public/checkout/sessions/${session.id}`);
    const qr = await qrPaint(page, QR_RUNS);

    const kb = (n) => (n / 1000).toFixed(1); // kB = 1000 bytes, as in Next's build table
    console.log(`\nbench:pay — ${require('node:os').cpus().length} cores, node ${process.version}\n`);
    console.log(
      `First-load JS of /c/[id]: ${kb(js.gzip)} kB gzip (${kb(js.raw)} kB raw) in ${js.files.length} scripts (goal < 105 kB gzip)`,
    );
    for (const f of js.files) console.log(`  ${f.src}  ${kb(f.gzip)} kB gzip`);
    console.log(`  + CSS ${kb(js.cssGzip)} kB gzip, HTML ${kb(js.htmlGzip)} kB gzip\n`);
    console.log(
      `TTFB of a server-rendered /c/<id> (payment shown), ${REQUESTS} requests after ${WARMUP} warm-up, fresh connection each:`,
    );
    console.log('| what | median ms | p90 ms | min ms | max ms |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, r] of [
      ['GET /c/<id> (pay app, SSR)', pageTtfb],
      ['GET /v1/public/checkout/sessions/<id> (API alone)', apiTtfb],
    ]) {
      console.log(
        `| ${name} | ${r.median.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.min.toFixed(1)} | ${r.max.toFixed(1)} |`,
      );
    }
    console.log(
      `\nQR code painted after navigation start, Chromium CPU throttled 4×, ${qr.runs} loads: median ${qr.median.toFixed(0)} ms (min ${qr.min.toFixed(0)}, max ${qr.max.toFixed(0)}; goal < 1000 ms)`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
