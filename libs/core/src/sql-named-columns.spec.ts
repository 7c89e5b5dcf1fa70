// Prepared statements name their columns (libs/core SqlService.columns): a `SELECT *` or
// `RETURNING *` (or `alias.*`) in a named statement fixes the row shape when it is first prepared,
// so a migration that adds a column breaks every process still running the old code ("cached plan
// must not change result type"). This scan fails on one in non-test source.
// Covers every app and library (apps/pay has no SQL, and the scan skips its build folders).
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SCANNED = ['apps/api', 'apps/cli', 'apps/listener', 'apps/worker', 'apps/pay', 'libs'];
const STAR = /\b(?:SELECT|RETURNING)\s+(?:DISTINCT\s+)?(?:[a-z_][a-z0-9_]*\.)?\*|,\s*[a-z_][a-z0-9_]*\.\*/i;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.(ts|js)$/.test(entry.name) && !/\.(spec|e2e-spec)\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** `file:line: text` for every line that selects or returns `*`, comments left out. */
function starsIn(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && STAR.test(line))
    .map(({ line, n }) => `${path.relative(ROOT, file)}:${n}: ${line.trim()}`);
}

describe('statements name their columns (no SELECT * / RETURNING *)', () => {
  test('the pattern catches what it must and nothing else', () => {
    for (const bad of ['SELECT * FROM payments', 'returning *', 'SELECT t.*, 1 FROM x t', 'SELECT id, t.* FROM x t'])
      expect(STAR.test(bad)).toBe(true);
    for (const ok of ['SELECT count(*)::int FROM events', 'SELECT id FROM x', 'RETURNING id', 'a * b'])
      expect(STAR.test(ok)).toBe(false);
  });

  test.each(SCANNED)('%s', (dir) => {
    expect(sources(path.join(ROOT, dir)).flatMap(starsIn)).toEqual([]);
  });
});
