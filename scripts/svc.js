#!/usr/bin/env node
// `npm run svc -- <command>`: the operator CLI (runtime contract › Operator CLI). Runs the built
// CLI when the build is current, else the TypeScript sources through swc, so the CLI works before
// a build too. It runs in this process: arguments, stdout and the exit code are the CLI's own.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = (app) => path.join(root, 'dist', 'apps', app, 'src', 'main.js');
/**
 * Node flags of the API process (npm start, npm run start:api, the benches): a young generation
 * of up to 64 MB per semi-space instead of V8's 16 MB, so the garbage of 64 requests in flight is
 * swept about four times less often (issue 23 › API: docs/performance.md › Issue 23, third pass).
 */
const API_NODE_FLAGS = ['--max-semi-space-size=64'];
const SOURCE_DIRS = ['apps', 'libs', 'migrations'].map((d) => path.join(root, d));
const SKIP = new Set(['node_modules', 'pay', '.next']); // apps/pay is built by Next.js, not tsc

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when every given dist entry point exists, is fully built and is newer than every source file. */
function isBuildCurrent(files) {
  const sources = Math.max(0, ...SOURCE_DIRS.filter((d) => fs.existsSync(d)).map(newestSourceMtime));
  return files.every((file) => {
    if (!fs.existsSync(file)) return false;
    // tsc emits even when it reports errors; tsc-alias then never runs and @svc/* stays unresolved.
    if (/require\("@svc\//.test(fs.readFileSync(file, 'utf8'))) return false;
    return fs.statSync(file).mtimeMs >= sources;
  });
}

module.exports = { root, dist, isBuildCurrent, API_NODE_FLAGS };

if (require.main === module) {
  if (isBuildCurrent([dist('cli')])) {
    require(dist('cli'));
  } else {
    try {
      require.resolve('@swc/core');
    } catch {
      process.stderr.write(
        'svc: no current build (dist/) and no dev dependencies to run the sources: run `npm run build`.\n',
      );
      process.exit(1);
    }
    require('./swc-register.js');
    require(path.join(root, 'apps', 'cli', 'src', 'main.ts'));
  }
}
