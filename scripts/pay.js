// The hosted pages (apps/pay, Next.js) as one process of the service: how `npm start`, `npm run
// dev`, the e2e suite and bench:pay run and build it. The app reads BASE_URL itself; it listens on
// PAY_PORT (runtime contract › Configuration, default 3001). Telemetry is off: builds and runs
// never reach the network.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const PAY_DIR = path.join(root, 'apps', 'pay');
/** Where a build lives: `.next`, or the e2e suite's own `.next-e2e` (PAY_DIST_DIR, read by next.config.mjs). */
const buildId = (distDir = '.next') => path.join(PAY_DIR, distDir, 'BUILD_ID');
const BUILD_ID = buildId();
const NEXT_BIN = require.resolve('next/dist/bin/next', { paths: [root] });
/** Appends the peer's address to X-Forwarded-For before Next.js sees a request (see the file). */
const FORWARDED_FOR_HOOK = path.join(__dirname, 'pay-forwarded-for.js');
/** `node` arguments that run `next start` on the build in apps/pay with the X-Forwarded-For hook. */
const nextStartArgs = (port) => ['-r', FORWARDED_FOR_HOOK, NEXT_BIN, 'start', PAY_DIR, '-p', String(port)];
// builds, and next-env.d.ts (rewritten by every build) are not sources
const skipped = (name) => name === 'node_modules' || name.startsWith('.next') || name === 'next-env.d.ts';

const nextEnv = (env = process.env, distDir = '.next') => ({
  ...env,
  NEXT_TELEMETRY_DISABLED: '1',
  PAY_DIST_DIR: distDir,
});
// start.js and dev.js spawn their processes with this process's environment.
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

/** The `start.js` process entry: `next start apps/pay -p $PAY_PORT` (with the X-Forwarded-For hook). */
function payProcess(port = process.env.PAY_PORT || '3001') {
  return {
    name: 'pay',
    command: process.execPath,
    args: nextStartArgs(port),
    script: BUILD_ID,
  };
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skipped(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.spec.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when `next build` has run since the last change to apps/pay (tests excluded). */
function isPayBuildCurrent(distDir = '.next') {
  const id = buildId(distDir);
  return fs.existsSync(id) && fs.statSync(id).mtimeMs >= newestMtime(PAY_DIR);
}

/** `next build apps/pay` (into `distDir`); resolves with its exit code and, when quiet, its output. */
function buildPay({ quiet = false, distDir = '.next' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [NEXT_BIN, 'build', PAY_DIR], {
      cwd: root,
      env: nextEnv(process.env, distDir),
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    if (quiet) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (output += d));
    child.on('error', (err) => {
      output += err.message;
      resolve({ code: 1, output });
    });
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

module.exports = { PAY_DIR, BUILD_ID, NEXT_BIN, nextEnv, nextStartArgs, payProcess, isPayBuildCurrent, buildPay };
