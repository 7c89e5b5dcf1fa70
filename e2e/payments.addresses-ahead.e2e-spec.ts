// Issue 23 › API: EVM deposit addresses are derived ahead in a worker thread. What stays: each
// address is the seed's for its index (the signer's keyring), no index is used twice, a create
// never waits on a dead worker (it derives inline, and says so once), and the worker is closed
// with the app (jest fails a run with a handle left open).
import { DepositAddressDeriver, XpubAddressWorker } from '@svc/chains';
import { AddressAllocator } from '../apps/api/src/modules/payments/address-allocator.service';
import { Merchant, merchant, paymentBody } from './factories/merchant.factory';
import { startTestApp, TestApp, TEST_MNEMONIC } from './support/test-app';

let t: TestApp;
let m: Merchant;
const seed = new DepositAddressDeriver(TEST_MNEMONIC);

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
});
afterAll(() => t.close());

async function createPayments(n: number, concurrency = 8): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < n; done += concurrency) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(concurrency, n - done) }, () => m.post('/v1/payments', paymentBody())),
    );
    for (const r of answers) {
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
  }
  return ids;
}

async function expectSeedAddresses(): Promise<number> {
  const rows: Array<{ address_index: string; payment_address: string }> = await t.db.query(
    `SELECT address_index::text, payment_address FROM payments WHERE address_kind = 'evm'`,
  );
  for (const r of rows) expect(r.payment_address).toBe(seed.derive('evm', BigInt(r.address_index)));
  expect(new Set(rows.map((r) => r.address_index)).size).toBe(rows.length);
  expect(new Set(rows.map((r) => r.payment_address)).size).toBe(rows.length);
  return rows.length;
}

test('payments take addresses derived ahead: each the seed’s for its index, no index twice', async () => {
  const allocator = t.app.get(AddressAllocator, { strict: false });
  const derive = jest.spyOn(XpubAddressWorker.prototype, 'derive');
  await createPayments(4);
  // the first creates started a block in the background; wait until it is ready
  for (let i = 0; i < 100 && !((allocator as any).ready.get('evm')?.length > 0); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((allocator as any).ready.get('evm').length).toBeGreaterThan(0);
  await createPayments(150);
  expect(await expectSeedAddresses()).toBe(154);
  // each block reserved ahead goes to the worker in one message (the main thread pays per message)
  expect(derive.mock.calls.length).toBeGreaterThan(0);
  for (const [, indexes] of derive.mock.calls) expect(indexes).toHaveLength(256);
  derive.mockRestore();
});

test('a dead worker: creates go on, derived inline, and it is said once', async () => {
  const allocator = t.app.get(AddressAllocator, { strict: false });
  // its warnings go through the logger of the request that started the block (request-log.ts)
  const logger = (allocator as any).logger;
  const during = logger.during.bind(logger);
  const warned: string[] = [];
  jest.spyOn(logger, 'during').mockImplementation((req: any) => {
    expect(typeof req?.log?.warn).toBe('function');
    const log = during(req);
    return { ...log, warn: (text: string) => (warned.push(text), log.warn(text)) };
  });
  await (allocator as any).worker.close(); // as if it had died
  (allocator as any).ready.clear();
  await createPayments(80);
  const stopped = warned.filter((text) => /ahead stopped/.test(text));
  expect(stopped).toHaveLength(1);
  expect(await expectSeedAddresses()).toBe(234);
});
