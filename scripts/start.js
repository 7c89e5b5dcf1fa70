#!/usr/bin/env node
// `npm start` (runtime contract › Commands): production mode. Migrates the database with the
// built CLI, then runs every process of the built service in the foreground; SIGINT/SIGTERM stop
// them all, and when one dies the others are stopped and this exits non-zero (let the
// supervisor above restart the whole service). No devnet, nothing seeded.
// Production unless SVC_ENV says otherwise (runtime contract › Configuration): the configuration
// is checked once before anything runs, so a refused one (no seed, a well-known test mnemonic,
// SVC_DEV_CLOCK, a zero settlement cool-down, no SVC_DATA_KEY) stops here with a one-line reason.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { isatty } = require('node:tty');
const { root, dist, API_NODE_FLAGS } = require('./svc.js');
const { payProcess } = require('./pay.js');

const node = (name, script, flags = []) => ({ name, command: process.execPath, args: [...flags, script], script });

/** Every process of the service, one line each. */
const PROCESSES = [
  node('api', dist('api'), API_NODE_FLAGS),
  node('listener', dist('listener')),
  node('worker', dist('worker')),
  node('payouts', dist('payouts')), // plans payouts and refunds; no seed
  node('signer', dist('signer')), // the only process that reads the seed: publishes the public keys, fills the pools, signs
  payProcess(), // the hosted pages: next start apps/pay on PAY_PORT (its build is apps/pay/.next)
];

const STOP_GRACE_MS = 15_000;
const say = (line) => process.stderr.write(`[svc] ${line}\n`);

/** Runs one command to completion with this process's stdio; resolves with its exit code. */
function runOnce(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', (err) => {
      say(`${command} ${args.join(' ')}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Starts the processes and keeps them in the foreground. `done` resolves with the exit code once
 * every child is gone: 0 after a requested stop, non-zero when a child died on its own.
 */
function supervise(processes) {
  const live = new Map();
  let stopping = false;
  let exitCode = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));

  /** `delivered`: the signal already reached the children (Ctrl-C in a terminal); only escalate. */
  function stop(signal = 'SIGTERM', delivered = false) {
    if (stopping) return;
    stopping = true;
    const kill = (sig) => {
      for (const child of live.values()) child.kill(sig);
    };
    if (delivered) setTimeout(() => kill('SIGTERM'), 5_000).unref();
    else kill(signal);
    setTimeout(() => {
      for (const name of live.keys()) say(`${name} still running ${STOP_GRACE_MS / 1000}s after ${signal}; killing it`);
      kill('SIGKILL');
    }, STOP_GRACE_MS).unref();
  }

  for (const { name, command, args } of processes) {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    live.set(name, child);
    child.on('error', (err) => say(`${name}: ${err.message}`));
    child.on('exit', (code, signal) => {
      live.delete(name);
      if (!stopping) {
        say(`${name} exited (${signal ?? `code ${code}`}); stopping the others`);
        exitCode = code || 1;
        stop();
      }
      if (live.size === 0) resolveDone(exitCode);
    });
  }

  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) {
        // A second Ctrl-C: do not wait for graceful shutdowns.
        for (const child of live.values()) child.kill('SIGKILL');
        return;
      }
      // Ctrl-C in a terminal already reached every process of the foreground group; sending it
      // again would cut their graceful shutdown short.
      stop(signal, signal === 'SIGINT' && isatty(0));
    });
  }
  return { done, stop };
}

/** The configuration every process of `npm start` will load, checked with the built config library: null when it is accepted, else the reason. */
function configProblem() {
  const { loadConfig, ConfigError } = require(path.join(root, 'dist', 'libs', 'config', 'src'));
  try {
    loadConfig(process.env, { seed: true, dataKey: true, destinationKey: true });
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}

async function main() {
  const migrated = await runOnce(process.execPath, [dist('cli'), 'migrate']);
  if (migrated !== 0) {
    say(`migrate failed (exit ${migrated}); not starting the service`);
    return migrated;
  }
  return supervise(PROCESSES).done;
}

module.exports = { PROCESSES, runOnce, supervise, say };

if (require.main === module) {
  process.env.SVC_ENV ||= 'production';
  const fs = require('node:fs');
  const absent = (files) => files.filter((f) => !fs.existsSync(f));
  const noBuild = (missing) => {
    say(`no build found (${missing.join(', ')}): run \`npm run build\` first`);
    process.exit(1);
  };
  const noConfigLib = absent([path.join(root, 'dist', 'libs', 'config', 'src', 'index.js')]);
  if (noConfigLib.length) noBuild(noConfigLib);
  const problem = configProblem();
  if (problem) {
    say(`configuration error: ${problem}`);
    process.exit(1);
  }
  const missing = absent([dist('cli'), ...PROCESSES.map((p) => p.script).filter(Boolean)]);
  if (missing.length) noBuild(missing);
  main().then((code) => process.exit(code));
}
