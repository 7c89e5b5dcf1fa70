// Preloaded into the API under `npm run bench:api` when BENCH_COUNT_QUERIES=1, or the worker under
// `npm run bench:webhooks` with the same (`node -r`): counts
// every statement sent through `pg` (pool and single clients alike) by its text, with the time from
// the call to its answer, and times the waits of a request: taking a pool connection (pg-pool
// connect), the revocation round trip (ApiKeyRevocations.confirm) and the key guard in all; and
// counts the writes to stdout (the logs) and the Redis commands by name. On
// SIGUSR2 it writes what it has so far to BENCH_QUERY_COUNTS (JSON); the benchmark takes one
// snapshot before and one after a phase and prints the difference per request. Measurement only:
// the service never loads it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const Pool = require('pg-pool');

/** text → [count, total ms] */
const stats = new Map();
const note = (key, ms) => {
  const s = stats.get(key) ?? [0, 0];
  s[0]++;
  s[1] += ms;
  stats.set(key, s);
};
const since = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

function timed(key, promise) {
  const t0 = process.hrtime.bigint();
  return promise.then(
    (v) => (note(key, since(t0)), v),
    (e) => {
      note(key, since(t0));
      throw e;
    },
  );
}

const query = Client.prototype.query;
Client.prototype.query = function countedQuery(config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.text ?? config?.name ?? '?');
  // a named prepared statement by its name first: statements sharing a long column list stay apart
  const named = typeof config === 'object' && config?.name ? `[${config.name}] ` : '';
  const key = (named + String(text).replace(/\s+/g, ' ').trim()).slice(0, 110);
  const cb = typeof values === 'function' ? values : callback;
  if (cb || typeof config?.submit === 'function') {
    note(key, 0); // callback or Submittable form: counted, not timed
    return query.apply(this, arguments);
  }
  return timed(key, query.apply(this, arguments));
};

const connect = Pool.prototype.connect;
Pool.prototype.connect = function timedConnect(cb) {
  if (cb) return connect.call(this, cb);
  return timed('(wait) pool connect', connect.call(this));
};

// Redis commands too (the worker's Bull queue), by command name (a Lua script by its name or sha)
try {
  const Redis = require('ioredis');
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedCommand(command, ...rest) {
    note(`(redis) ${command?.name ?? '?'}`, 0);
    return sendCommand.call(this, command, ...rest);
  };
} catch {
  /* no ioredis here */
}

const isApi = /apps[/\\]api[/\\]/.test(process.argv[1] ?? '');
const revocations = path.join(__dirname, '../../dist/apps/api/src/modules/auth/api-key-revocations.service.js');
if (isApi && fs.existsSync(revocations)) {
  const { ApiKeyRevocations } = require(revocations);
  const confirm = ApiKeyRevocations.prototype.confirm;
  ApiKeyRevocations.prototype.confirm = function timedConfirm() {
    return timed('(wait) revocation confirm', confirm.call(this));
  };
}

// the stages of an API request (issue 23 › the tail): from the server's 'request' event to the
// response's 'finish' in all; from that event to the key guard (middleware, body, router); the key
// guard; from the guard's answer to the 'finish' (pipe, handler, grouped write, response); the
// grouped write from the call to its answer (the wait for a slot and the statement); and the event
// loop's delay (perf_hooks, mean ms over each phase's samples): what a request that arrived waits
// before its first callback runs at all
const ARRIVED = Symbol('arrived');
const GUARDED = Symbol('guarded');
if (isApi) {
  const http = require('node:http');
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function stagedEmit(event, req, res) {
    if (event === 'request' && req && res) {
      const t0 = process.hrtime.bigint();
      req[ARRIVED] = t0;
      res.once('finish', () => {
        note('(stage) request, arrival to response', since(t0));
        if (req[GUARDED]) note('(stage) after the key guard to response', since(req[GUARDED]));
      });
    }
    return emit.apply(this, arguments);
  };
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const sum = [0, 0]; // samples and ms so far, cumulative like every other key (the bench takes differences)
  process.on('SIGUSR2', () => {
    if (delay.count) {
      sum[0] += delay.count;
      sum[1] += (delay.count * delay.mean) / 1e6;
    }
    stats.set('(loop) event loop delay (samples, mean ms)', [...sum]);
    delay.reset();
  });
}

const guard = path.join(__dirname, '../../dist/apps/api/src/modules/auth/api-key.guard.js');
if (isApi && fs.existsSync(guard)) {
  const { ApiKeyGuard } = require(guard);
  const canActivate = ApiKeyGuard.prototype.canActivate;
  ApiKeyGuard.prototype.canActivate = function timedGuard(ctx) {
    const req = ctx.switchToHttp().getRequest();
    if (req?.[ARRIVED]) note('(stage) arrival to the key guard', since(req[ARRIVED]));
    return timed('(wait) key guard, in all', canActivate.call(this, ctx)).then((v) => {
      if (req) req[GUARDED] = process.hrtime.bigint();
      return v;
    });
  };
}

const grouped = path.join(__dirname, '../../dist/libs/core/src/grouped-statements.js');
if (isApi && fs.existsSync(grouped)) {
  const { GroupedStatements } = require(grouped);
  const write = GroupedStatements.prototype.write;
  GroupedStatements.prototype.write = function timedWrite(item) {
    return timed('(wait) grouped write, in all (slot + statement)', write.call(this, item));
  };
}

// the worker's stages of one delivery, timed from call to answer (bench:webhooks): a relayed
// delivery in all, the wait for one of the process's slots, the wait for the endpoint's gate, the
// HTTP attempt, the wait for its record to commit (batched), and the relay's dispatch statement
const isWorker = /apps[/\\]worker[/\\]/.test(process.argv[1] ?? '');
const webhooks = path.join(__dirname, '../../dist/apps/worker/src/webhooks');
function timeMethod(file, cls, method, key) {
  const full = path.join(webhooks, file);
  if (!isWorker || !fs.existsSync(full)) return;
  const C = require(full)[cls];
  const original = C?.prototype?.[method];
  if (!original) return;
  C.prototype[method] = function timedStage(...args) {
    return timed(key, Promise.resolve(original.apply(this, args)));
  };
}
timeMethod('delivery.service.js', 'DeliveryService', 'attemptClaimed', '(stage) relayed delivery, in all');
timeMethod(
  'delivery.repository.js',
  'DeliveryRepository',
  'dispatch',
  '(stage) relay dispatch statement (claim, stamp, fan out)',
);
timeMethod('delivery.repository.js', 'DeliveryRepository', 'recordMany', '(stage) record batch statement');
timeMethod('slots.js', 'Slots', 'acquire', '(stage) wait for a delivery slot');
timeMethod('endpoint-gate.js', 'EndpointGate', 'acquire', '(stage) wait for the endpoint gate');
timeMethod('webhook-sender.js', 'WebhookSender', 'send', '(stage) HTTP attempt (sign excluded)');
timeMethod('delivery.repository.js', 'DeliveryRepository', 'recordAttempt', '(stage) record the attempt (batched)');

// where the worker's wall time goes (bench:webhooks): the time with 0, 1–31 or 32+ HTTP attempts in
// flight, with a relay dispatch or a record batch running, and the event loop's busy time; each
// '(span)' key holds total ms, printed per phase
const inFlight = { send: 0, dispatch: 0, recordMany: 0 };
let lastMark = performance.now();
function mark() {
  const t = performance.now();
  const dt = t - lastMark;
  lastMark = t;
  const add = (key) => {
    const s = stats.get(key) ?? [0, 0];
    s[1] += dt;
    stats.set(key, s);
  };
  add(
    inFlight.send === 0
      ? '(span) 0 HTTP attempts in flight'
      : inFlight.send < 32
        ? '(span) 1-31 HTTP attempts in flight'
        : '(span) 32+ HTTP attempts in flight',
  );
  if (inFlight.dispatch) add('(span) a relay dispatch statement running');
  if (inFlight.dispatch && !inFlight.send) add('(span) a dispatch running, no HTTP attempt in flight');
  if (inFlight.recordMany) add('(span) a record batch running');
}
function spanMethod(file, cls, method) {
  const full = path.join(webhooks, file);
  if (!isWorker || !fs.existsSync(full)) return;
  const C = require(full)[cls];
  const original = C?.prototype?.[method];
  if (!original) return;
  C.prototype[method] = function spanned(...args) {
    mark();
    inFlight[method]++;
    const end = () => {
      mark();
      inFlight[method]--;
    };
    return Promise.resolve(original.apply(this, args)).finally(end);
  };
}
spanMethod('webhook-sender.js', 'WebhookSender', 'send');
spanMethod('delivery.repository.js', 'DeliveryRepository', 'dispatch');
spanMethod('delivery.repository.js', 'DeliveryRepository', 'recordMany');

// how many writes the logs make (a line each, or one per turn of the event loop when buffered)
const write = process.stdout.write;
process.stdout.write = function countedWrite(...args) {
  note('(log) stdout writes', 0);
  return write.apply(this, args);
};

const dump = () => {
  const file = process.env.BENCH_QUERY_COUNTS;
  mark();
  stats.set('(span) event loop busy', [0, performance.eventLoopUtilization().active]);
  if (file) fs.writeFileSync(file, JSON.stringify(Object.fromEntries(stats)));
};
process.on('SIGUSR2', dump);
process.on('exit', dump);
