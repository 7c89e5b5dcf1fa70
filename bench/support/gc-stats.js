// Preloaded into the worker by `npm run bench:webhooks` (`node -r`): counts the garbage
// collections of the process's main thread by kind (scavenge, mark-compact, incremental marking,
// weak callbacks) with the sum of their pauses (perf_hooks' `gc` entries: the main thread's time
// in each, not the helper threads'). On SIGUSR2 it writes what it has so far to BENCH_GC_STATS
// (JSON); the benchmark takes one snapshot before and one after a phase and prints the difference
// per 1,000 deliveries. Measurement only: the service never loads it.
'use strict';
const fs = require('node:fs');
const { constants, PerformanceObserver } = require('node:perf_hooks');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
/** kind → [count, total pause ms] */
const stats = {};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind ?? entry.kind] ?? 'other';
    const s = (stats[kind] ??= [0, 0]);
    s[0]++;
    s[1] += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  const file = process.env.BENCH_GC_STATS;
  if (!file) return;
  // the entries of the collections just made are delivered on the next turn of the loop
  setImmediate(() => {
    fs.writeFileSync(file, JSON.stringify(stats));
    // a mark between the phases in the output of --trace-gc-nvp (BENCH_WORKER_STDOUT keeps it)
    process.stdout.write(`[gc-stats] snapshot\n`);
  });
});
