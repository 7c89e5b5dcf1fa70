// The key guard's cache under load (issue 23): a key in use is re-read once in the background
// after half its 30 s cache life, so its entry never expires under the requests in flight (which
// would each read the key on the pool at once); a revocation still answers 401 at once.
import { SqlService } from '@svc/core';
import { hashApiKey, WorkspacesService } from '@svc/workspaces';
import { ApiKeyRevocations } from '../apps/api/src/modules/auth/api-key-revocations.service';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a busy key is re-read once in the background, not by every request when its entry expires; revocation is still at once', async () => {
  const { apiKey } = await t.workspace('key-cache');
  const [{ id }] = await t.db.query(`SELECT id FROM api_keys WHERE key_hash = $1`, [hashApiKey(apiKey)]);
  const reads = jest.spyOn(t.app.get(SqlService), 'rows'); // calls through: counts the guard's key reads
  const keyReads = () => reads.mock.calls.filter(([name]) => name === 'api_key_by_hash').length;
  const realNow = Date.now.bind(Date);
  let offset = 0;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
  // moving the clock also ages the LISTEN heartbeat: one round trip vouches for the connection again
  const advance = async (ms: number) => {
    offset = ms;
    expect(await t.app.get(ApiKeyRevocations).confirm()).toBe(true);
  };
  const get = () => t.http().get('/v1/products').set('x-api-key', apiKey);
  const burst = async () => (await Promise.all(Array.from({ length: 10 }, get))).map((r) => r.status);
  try {
    expect((await get()).status).toBe(200);
    expect(keyReads()).toBe(1);
    expect(await burst()).toEqual(Array(10).fill(200));
    expect(keyReads()).toBe(1); // served from the cache

    await advance(16_000); // past half the entry's 30 s life
    expect(await burst()).toEqual(Array(10).fill(200));
    await until('the background re-read', () => keyReads() >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(keyReads()).toBe(2); // ten requests, one re-read

    await advance(35_000); // the first entry would have expired: the re-read's entry serves (and is past half its life)
    expect(await burst()).toEqual(Array(10).fill(200));
    await until('the second background re-read', () => keyReads() >= 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(keyReads()).toBe(3); // ten more requests, again one re-read

    await new WorkspacesService(t.db).revokeApiKey(id);
    expect((await get()).status).toBe(401);
  } finally {
    clock.mockRestore();
    reads.mockRestore();
  }
});
