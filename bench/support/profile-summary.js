#!/usr/bin/env node
// Self time of a V8 .cpuprofile (node --cpu-prof) by package and by function, over the busiest
// stretch of the profile (the measured phase of a bench run) or a window given in seconds.
//
//   node bench/support/profile-summary.js <file.cpuprofile> [--from S --to S | --during NAME] [--top N] [--requests N]
//
// --during NAME: the window runs from the first to the last second with a sample whose stack has a
// function named NAME (e.g. createFromProduct: the session creates). Without a window the window
// is the longest run of seconds in which the thread was at least half busy. With
// --requests N (the requests served in the window) the figures are also given in µs per request.
// "package" is node_modules/<name> (or @scope/name), "node:" for Node.js's own JavaScript, "svc"
// for this repository's built code, and V8's own entries ((garbage collector), (program), (idle)).
'use strict';
const fs = require('node:fs');

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
const opt = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
if (!file) {
  console.error('usage: profile-summary.js <file.cpuprofile> [--from S --to S] [--top N] [--requests N]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

function packageOf(node) {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (m) return m[m.length - 1].slice('node_modules/'.length);
  if (url.includes('/dist/')) return 'svc';
  return url;
}
function functionOf(node) {
  const { url, functionName, lineNumber } = node.callFrame;
  const short = url ? url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/') : '';
  return `${functionName || '(anonymous)'} ${short}${url ? `:${lineNumber + 1}` : ''}`;
}

// sample times (µs from the profile's start)
const times = [];
let t = 0;
for (const d of profile.timeDeltas) times.push((t += d));
const idleId = profile.nodes.find((n) => n.callFrame.functionName === '(idle)')?.id;

// busy share per second, to find the measured phase
const seconds = [];
profile.samples.forEach((id, i) => {
  const s = Math.floor(times[i] / 1e6);
  seconds[s] ??= { busy: 0, all: 0 };
  seconds[s].all++;
  if (id !== idleId) seconds[s].busy++;
});
let from = opt('from');
let to = opt('to');
const during = args.includes('--during') ? args[args.indexOf('--during') + 1] : undefined;
if (during) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const has = new Map();
  const inStack = (id) => {
    if (has.has(id)) return has.get(id);
    const n = nodes.get(id);
    const v = n.callFrame.functionName === during || (parent.has(id) && inStack(parent.get(id)));
    has.set(id, v);
    return v;
  };
  const hits = profile.samples.map((id, i) => (inStack(id) ? times[i] / 1e6 : null)).filter((x) => x !== null);
  from = Math.floor(Math.min(...hits));
  to = Math.ceil(Math.max(...hits));
} else if (from === undefined || to === undefined) {
  let best = [0, 0];
  let start = null;
  for (let s = 0; s <= seconds.length; s++) {
    const busy = seconds[s] && seconds[s].busy / seconds[s].all >= 0.5;
    if (busy && start === null) start = s;
    if (!busy && start !== null) {
      if (s - start > best[1] - best[0]) best = [start, s];
      start = null;
    }
  }
  [from, to] = best;
}

const parentOf = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
/** total (inclusive) time: each function counted once per sample whose stack holds it */
const inclusive = new Map();
const byPackage = new Map();
const byFunction = new Map();
let total = 0;
let busy = 0;
profile.samples.forEach((id, i) => {
  const tt = times[i] / 1e6;
  if (tt < from || tt >= to) return;
  const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000; // ms this sample stands for
  total += dt;
  if (id === idleId) return;
  busy += dt;
  const node = nodes.get(id);
  const p = packageOf(node);
  byPackage.set(p, (byPackage.get(p) ?? 0) + dt);
  const f = functionOf(node);
  byFunction.set(f, (byFunction.get(f) ?? 0) + dt);
  const seen = new Set();
  for (let n = id; n !== undefined; n = parentOf.get(n)) {
    const name = functionOf(nodes.get(n));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  }
});

const top = opt('top') ?? 40;
const requests = opt('requests');
const row = ([name, ms]) =>
  `| ${name.replace(/\|/g, '\\|')} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)} %` +
  (requests ? ` | ${((1000 * ms) / requests).toFixed(1)}` : '') +
  ' |';
const head = (what) =>
  `| ${what} | ms | of busy |${requests ? ' µs per request |' : ''}\n|---|---:|---:|${requests ? '---:|' : ''}`;

console.log(
  `window ${from}–${to} s of ${seconds.length} s; busy ${busy.toFixed(0)} ms of ${total.toFixed(0)} ms` +
    ` (${((100 * busy) / total).toFixed(1)} %)` +
    (requests ? `; ${((1000 * busy) / requests).toFixed(1)} µs busy per request` : ''),
);
console.log(`\n${head('package')}`);
for (const r of [...byPackage].sort((a, b) => b[1] - a[1])) console.log(row(r));
console.log(`\n${head('function (self time)')}`);
for (const r of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(row(r));
console.log(`\n${head('function (total time, callees included)')}`);
for (const r of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(row(r));
