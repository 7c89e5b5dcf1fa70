// Preloaded into the API under `npm run bench:api` when BENCH_SLOW_EVENTS=<file> (`node -r`): keeps
// every slow thing of the process with its wall-clock start (epoch ms), to lay beside the benchmark's
// own slow requests (written to <file>.client.json) and find what a slow response waited for:
// requests slower than BENCH_SLOW_MS (default 20) from the server's 'request' event to 'finish'
// with their stages (arrival to the key guard, its revocation round trip, the guard
// to `res.end`, `res.end` to 'finish'); garbage collections of 2 ms or more; the event loop late by
// 10 ms or more (a 2 ms timer); and statements, pool connection waits, revocation round trips and
// grouped writes slower than BENCH_SLOW_MS. Written to <file>.api.json at exit. Measurement only:
// the service never loads it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { PerformanceObserver, performance } = require('node:perf_hooks');

const FILE = process.env.BENCH_SLOW_EVENTS;
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 20);
const isApi = /apps[/\\]api[/\\]/.test(process.argv[1] ?? '');
const dist = path.join(__dirname, '../../dist');
const wall = () => performance.timeOrigin + performance.now();
/** [kind, start epoch ms, ms, detail] */
const events = [];
/** every request's arrival-to-finish ms, to set the slow ones against */
const requestMs = [];
const keep = (kind, start, ms, detail = '') => {
  if (ms >= SLOW_MS) events.push([kind, Math.round(start), Math.round(ms * 10) / 10, detail]);
};

function timed(kind, detail, promise, onDone) {
  const t0 = wall();
  const done = () => {
    const ms = wall() - t0;
    keep(kind, t0, ms, detail);
    onDone?.(ms);
  };
  return promise.then(
    (v) => (done(), v),
    (e) => {
      done();
      throw e;
    },
  );
}

if (FILE && isApi) {
  const STAGES = Symbol('stages');
  const stagesOf = (req) => (req[STAGES] ??= {});

  const http = require('node:http');
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function slowEmit(event, req, res) {
    if (event === 'request' && req && res) {
      const t0 = wall();
      const s = stagesOf(req);
      s.arrived = t0;
      res[STAGES] = s;
      res.once('finish', () => {
        const ms = wall() - t0;
        requestMs.push(ms);
        if (ms < SLOW_MS) return;
        const f = (x) => (x === undefined ? '-' : (Math.round(x * 10) / 10).toString());
        keep(
          'request',
          t0,
          ms,
          `${req.method} ${req.url} ${res.statusCode}: to guard ${f(s.guard0 - t0)}, guard ${f(s.guard1 - s.guard0)}` +
            ` (revocation trip ${f(s.confirm)}), guard to end() ${f(s.end - s.guard1)},` +
            ` end() to finish ${f(wall() - s.end)}`,
        );
      });
    }
    return emit.apply(this, arguments);
  };
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function slowEnd() {
    if (this[STAGES] && this[STAGES].end === undefined) this[STAGES].end = wall();
    return end.apply(this, arguments);
  };

  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration >= 2)
        events.push([
          'gc',
          Math.round(performance.timeOrigin + e.startTime),
          Math.round(e.duration * 10) / 10,
          `kind ${e.detail?.kind}`,
        ]);
  }).observe({ entryTypes: ['gc'] });

  let last = wall();
  setInterval(() => {
    const now = wall();
    if (now - last >= 12) events.push(['loop', Math.round(last), Math.round(now - last - 2), 'event loop late']);
    last = now;
  }, 2).unref();

  const { Client } = require('pg');
  const query = Client.prototype.query;
  Client.prototype.query = function slowQuery(config, values, callback) {
    const result = query.apply(this, arguments);
    if (typeof values === 'function' || callback || typeof config?.submit === 'function' || !result?.then)
      return result;
    const text = typeof config === 'string' ? config : (config?.name ?? config?.text ?? '?');
    const who = this.connectionParameters?.application_name === 'svc-api-key-revocations' ? 'listener: ' : '';
    return timed('statement', who + String(text).replace(/\s+/g, ' ').slice(0, 80), result);
  };
  const Pool = require('pg-pool');
  const connect = Pool.prototype.connect;
  Pool.prototype.connect = function slowConnect(cb) {
    if (cb) return connect.call(this, cb);
    return timed('pool wait', `${this.totalCount} open, ${this.waitingCount} waiting`, connect.call(this));
  };

  const revocations = path.join(dist, 'apps/api/src/modules/auth/api-key-revocations.service.js');
  if (fs.existsSync(revocations)) {
    const { ApiKeyRevocations } = require(revocations);
    const confirm = ApiKeyRevocations.prototype.confirm;
    ApiKeyRevocations.prototype.confirm = function slowConfirm(req) {
      return timed('revocation trip', '', confirm.call(this, req), (ms) => req && (stagesOf(req).confirm = ms));
    };
  }
  const guard = path.join(dist, 'apps/api/src/modules/auth/api-key.guard.js');
  if (fs.existsSync(guard)) {
    const { ApiKeyGuard } = require(guard);
    const canActivate = ApiKeyGuard.prototype.canActivate;
    ApiKeyGuard.prototype.canActivate = function slowGuard(ctx) {
      const req = ctx.switchToHttp().getRequest();
      const s = stagesOf(req);
      s.guard0 = wall();
      return Promise.resolve(canActivate.call(this, ctx)).finally(() => (s.guard1 = wall()));
    };
  }
  const grouped = path.join(dist, 'libs/core/src/grouped-statements.js');
  if (fs.existsSync(grouped)) {
    const { GroupedStatements } = require(grouped);
    const write = GroupedStatements.prototype.write;
    GroupedStatements.prototype.write = function slowWrite(item) {
      return timed(
        'grouped write',
        `${this.waiting.length} waiting, ${this.inFlight} in flight`,
        write.call(this, item),
      );
    };
  }

  process.on('exit', () => {
    requestMs.sort((a, b) => a - b);
    const pct = (p) => requestMs[Math.min(requestMs.length - 1, Math.floor((p / 100) * requestMs.length))];
    fs.writeFileSync(
      `${FILE}.api.json`,
      JSON.stringify({ requests: requestMs.length, p50: pct(50), p99: pct(99), max: pct(100), events }),
    );
  });
}
