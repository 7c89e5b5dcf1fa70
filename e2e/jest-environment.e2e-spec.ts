// jest.environment.js, the environment of both projects, fails a test during which pg prints
// "Calling client.query() when the client is already executing a query is deprecated" (issue 20 › 3):
// a child Jest runs e2e/fixtures/pg-overlap.fixture.js in it and reports that test failed, with the
// warning's stack, and the other test passed.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PG_ADMIN_URL } from './support/test-app';

const ROOT = path.resolve(__dirname, '..');

test('a test that makes pg warn about overlapping queries fails; the others pass', async () => {
  const config = {
    rootDir: ROOT,
    testEnvironment: '<rootDir>/jest.environment.js',
    testMatch: ['<rootDir>/e2e/fixtures/pg-overlap.fixture.js'],
    transform: {},
  };
  const jest = path.join(ROOT, 'node_modules/jest/bin/jest.js');
  const run = await promisify(execFile)(process.execPath, [jest, '--config', JSON.stringify(config), '--json'], {
    cwd: ROOT,
    env: { ...process.env, FIXTURE_PG_URL: PG_ADMIN_URL },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout: string; code: number }) => ({ stdout: err.stdout, code: err.code }));
  const report = JSON.parse(run.stdout) as {
    success: boolean;
    testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
  };
  expect(report.success).toBe(false);
  const [first, second] = report.testResults[0].assertionResults;
  expect([first.title, first.status]).toEqual(['three queries at once on one client', 'failed']);
  expect(first.failureMessages.join('\n')).toMatch(/two queries at once on one client[\s\S]*pg-overlap\.fixture\.js:9/);
  expect([second.title, second.status]).toEqual(['one query at a time', 'passed']);
}, 60_000);
