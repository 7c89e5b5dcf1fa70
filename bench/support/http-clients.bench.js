// HTTP client micro-benchmark for the webhook sender (issue 23 › Webhooks): N POSTs of a ~1.3 kB
// body, C at once, to a node:http server in another process, each client in a process of its own;
// prints the client process's CPU per request, read from /proc/self/stat (utime + stime, clock
// ticks) and from process.cpuUsage(). Runs the clients interleaved, ROUNDS times.
//
//   node bench/support/http-clients.bench.js [client…]
//   clients: node-http, undici-pool, undici-client, undici-dispatch, undici-pipelined (PIPELINING, 8), sender (dist's WebhookSender: `npm run build`;
//            sender@<checkout> for another build's),
//            own (OWN_CLIENT=path of a compiled http1-client.js, the client the sender used before undici)
//   env: N (20000), C (32), ROUNDS (3), PIPELINING (8)
'use strict';
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const N = Number(process.env.N ?? 20_000);
const C = Number(process.env.C ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = 1_000;
const BODY = JSON.stringify({
  id: 'evt_01JD7Q7W3X9YV2K5M8N4P6R0ST',
  type: 'payment.succeeded',
  data: { id: 'pay_01JD7Q7W3X9YV2K5M8N4P6R0SU', amountAtomic: '125000000', pad: 'x'.repeat(1_100) },
});
const HEADERS = {
  'content-type': 'application/json',
  'user-agent': 'svc-webhooks/1',
  'x-svc-event-id': 'evt_01JD7Q7W3X9YV2K5M8N4P6R0ST',
  'x-svc-attempt': '1',
  'x-svc-signature': `t=1764150000,v1=${'a'.repeat(64)}`,
};
const TICK_MS = 10; // USER_HZ 100 on Linux

function procCpuMs() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS; // fields 14 and 15 (utime, stime)
}

function server() {
  const s = http.createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  s.listen(0, '127.0.0.1', () => process.send(s.address().port));
  process.on('disconnect', () => process.exit(0));
}

/** A function that POSTs once and resolves with the status, and a close. */
async function makeClient(kind, base) {
  const url = `${base}/hooks`;
  switch (kind.split('@')[0]) {
    case 'node-http': {
      const agent = new http.Agent({ keepAlive: true, maxSockets: C });
      const post = () =>
        new Promise((resolve, reject) => {
          const req = http.request(url, { method: 'POST', agent, headers: HEADERS }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          });
          req.on('error', reject);
          req.end(BODY);
        });
      return { post, close: () => agent.destroy() };
    }
    case 'undici-pool':
    case 'undici-client': {
      const { Pool, Client } = require('undici');
      const opts = { pipelining: 1, keepAliveTimeout: 4_000 };
      const d = kind === 'undici-pool' ? new Pool(base, { ...opts, connections: C }) : new Client(base, opts);
      const post = async () => {
        const res = await d.request({ method: 'POST', path: '/hooks', headers: HEADERS, body: BODY });
        await res.body.dump();
        return res.statusCode;
      };
      return { post, close: () => d.close() };
    }
    case 'undici-dispatch': {
      // the same Pool through dispatch() with a handler that keeps only the status (no body stream)
      const { Pool } = require('undici');
      const d = new Pool(base, { pipelining: 1, keepAliveTimeout: 4_000, connections: C });
      const post = () =>
        new Promise((resolve, reject) => {
          let status = 0;
          d.dispatch(
            { method: 'POST', path: '/hooks', headers: HEADERS, body: BODY },
            {
              onRequestStart() {},
              onResponseStart(_controller, statusCode) {
                status = statusCode;
              },
              onResponseData() {},
              onResponseEnd() {
                resolve(status);
              },
              onResponseError(_controller, err) {
                reject(err);
              },
            },
          );
        });
      return { post, close: () => d.close() };
    }
    case 'undici-pipelined': {
      // the same dispatch() on fewer connections, PIPELINING (8) requests each (undici pipelines a POST only
      // when it is marked idempotent): what HTTP/1.1 pipelining to one endpoint would save the client
      const { Pool } = require('undici');
      const depth = Number(process.env.PIPELINING ?? 8);
      const d = new Pool(base, { pipelining: depth, keepAliveTimeout: 4_000, connections: Math.ceil(C / depth) });
      const post = () =>
        new Promise((resolve, reject) => {
          let status = 0;
          d.dispatch(
            { method: 'POST', path: '/hooks', headers: HEADERS, body: BODY, idempotent: true },
            {
              onRequestStart() {},
              onResponseStart(_controller, statusCode) {
                status = statusCode;
              },
              onResponseData() {},
              onResponseEnd() {
                resolve(status);
              },
              onResponseError(_controller, err) {
                reject(err);
              },
            },
          );
        });
      return { post, close: () => d.close() };
    }
    case 'undici-legacy': {
      // dispatch() with undici's older handler methods (no response header object made)
      const { Pool } = require('undici');
      const d = new Pool(base, { pipelining: 1, keepAliveTimeout: 4_000, connections: C });
      const post = () =>
        new Promise((resolve, reject) => {
          let status = 0;
          d.dispatch(
            { method: 'POST', path: '/hooks', headers: HEADERS, body: BODY },
            {
              onConnect() {},
              onHeaders(statusCode) {
                status = statusCode;
                return true;
              },
              onData() {
                return true;
              },
              onComplete() {
                resolve(status);
              },
              onError: reject,
            },
          );
        });
      return { post, close: () => d.close() };
    }
    case 'sender': {
      // `sender@<checkout>`: another build's sender (a "before" built beside this one)
      const root = kind.includes('@') ? kind.slice(kind.indexOf('@') + 1) : path.join(__dirname, '../..');
      const dist = path.join(root, 'dist/apps/worker/src/webhooks/webhook-sender.js');
      const { WebhookSender } = require(dist);
      const s = new WebhookSender({ timeoutMs: 10_000, production: false });
      const post = async () => {
        const r = await s.send(url, BODY, HEADERS);
        if (!r.ok) throw new Error(r.error);
        return r.status;
      };
      return { post, close: () => s.close() };
    }
    case 'own': {
      const { Http1Client } = require(path.resolve(process.env.OWN_CLIENT));
      const client = new Http1Client({ maxFree: 256, idleMs: 4_000 });
      const u = new URL(url);
      const origin = { key: base, isHttps: false, host: u.hostname, port: Number(u.port) };
      let head = `POST /hooks HTTP/1.1\r\nHost: ${u.host}\r\n`;
      for (const [k, v] of Object.entries(HEADERS)) head += `${k}: ${v}\r\n`;
      const request = `${head}Content-Length: ${Buffer.byteLength(BODY)}\r\nConnection: keep-alive\r\n\r\n${BODY}`;
      const post = async () => {
        const r = await client.request(origin, request, 10_000).answer;
        if ('error' in r) throw r.error;
        return r.status;
      };
      return { post, close: () => client.close() };
    }
    default:
      throw new Error(`unknown client ${kind}`);
  }
}

async function run(post, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const status = await post();
      if (status !== 200) throw new Error(`status ${status}`);
    }
  };
  await Promise.all(Array.from({ length: C }, worker));
}

async function client(kind, base) {
  const c = await makeClient(kind, base);
  await run(c.post, WARMUP);
  const proc0 = procCpuMs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(c.post, N);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const proc = procCpuMs() - proc0;
  await c.close();
  process.send({
    kind,
    procMsPerReq: proc / N,
    cpuMsPerReq: (cpu.user + cpu.system) / 1000 / N,
    perSec: N / (wall / 1000),
  });
}

async function main() {
  const kinds = process.argv.slice(2).length
    ? process.argv.slice(2)
    : ['node-http', 'undici-pool', 'undici-client', 'undici-dispatch', ...(process.env.OWN_CLIENT ? ['own'] : [])];
  const srv = fork(__filename, ['--server']);
  const port = await new Promise((r) => srv.once('message', r));
  const base = `http://127.0.0.1:${port}`;
  console.log(
    `N=${N} C=${C} body=${Buffer.byteLength(BODY)} B; load at start ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  const results = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of kinds) {
      const child = fork(__filename, ['--client', kind, base]);
      const r = await new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => code && reject(new Error(`${kind} exited ${code}`)));
      });
      await new Promise((res) => (child.exitCode === null ? child.once('exit', res) : res()));
      (results[kind] ??= []).push(r);
      console.log(
        `round ${round} ${kind.padEnd(13)} CPU ${r.procMsPerReq.toFixed(4)} ms/req (/proc), ${r.cpuMsPerReq.toFixed(4)} (cpuUsage); ${Math.round(r.perSec)}/s`,
      );
    }
  }
  srv.disconnect();
  console.log(`load at end ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

if (process.argv[2] === '--server') server();
else if (process.argv[2] === '--client')
  client(process.argv[3], process.argv[4]).then(
    () => process.disconnect(),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
