// After the whole run. On 2 cores Jest runs every test file in this one process (in band), so a
// server, socket, child or timer a test forgot keeps the process alive and CI waits for its time
// limit. If the process is still held open GRACE_MS after the run, name what holds it and fail.
const GRACE_MS = Number(process.env.JEST_OPEN_HANDLES_GRACE_MS ?? 30_000);

function describe(handle) {
  const name = handle?.constructor?.name ?? typeof handle;
  try {
    if (typeof handle.address === 'function' && handle.address())
      return `${name} listening on ${JSON.stringify(handle.address())}`;
    if (handle.remoteAddress) return `${name} to ${handle.remoteAddress}:${handle.remotePort}`;
    if (Array.isArray(handle.spawnargs))
      return `${name} pid ${handle.pid}: ${handle.spawnargs.join(' ').slice(0, 200)}`;
  } catch {
    // describe what can be described
  }
  return name;
}

module.exports = async () => {
  const timer = setTimeout(() => {
    const std = new Set([process.stdin, process.stdout, process.stderr]);
    const held = process
      ._getActiveHandles()
      .filter((h) => !std.has(h) && (typeof h.hasRef !== 'function' || h.hasRef()));
    process.stderr.write(
      `\njest.teardown.js: the test process was still held open ${GRACE_MS} ms after the run by ` +
        `${held.length} handle(s) a test did not close:\n${held.map((h) => `  - ${describe(h)}`).join('\n')}\n`,
    );
    process.exit(1);
  }, GRACE_MS);
  timer.unref();
};
