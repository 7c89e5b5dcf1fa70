// Direct payments end to end (spec: Resources › Payment, Blockchain transaction, Public payment
// projection; Endpoints › Payments; Limits › chains and tokens; Errors).
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress, HDNodeWallet } from 'ethers';
import { merchant, Merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp, TEST_MNEMONIC } from './support/test-app';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const SUI_ADDRESS_RE = /^0x[0-9a-f]{64}$/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const BNB_USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';
const SUI_USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

// spec: Resources › Payment, the table's fields.
const PAYMENT_FIELDS = [
  'id',
  'merchantId',
  'chain',
  'network',
  'token',
  'amount',
  'currency',
  'expectedAmount',
  'receivedAmount',
  'feeBps',
  'feeAmount',
  'paymentAddress',
  'status',
  'idempotencyKey',
  'metadata',
  'productId',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'confirmedAt',
  'checkoutSession',
  'blockchainTransactions',
].sort();
const CREATE_FIELDS = PAYMENT_FIELDS.filter((f) => f !== 'checkoutSession' && f !== 'blockchainTransactions');
// spec: Resources › Blockchain transaction.
const TRANSFER_FIELDS = [
  'id',
  'paymentId',
  'merchantId',
  'chain',
  'network',
  'txHash',
  'logIndex',
  'fromAddress',
  'toAddress',
  'tokenAddress',
  'amount',
  'blockNumber',
  'confirmations',
  'status',
  'createdAt',
  'updatedAt',
].sort();
// spec: Resources › Public payment projection.
const PUBLIC_FIELDS = [
  'id',
  'chain',
  'network',
  'token',
  'currency',
  'expectedAmount',
  'receivedAmount',
  'paymentAddress',
  'status',
  'expiresAt',
  'createdAt',
  'confirmedAt',
  'transactions',
].sort();
const PUBLIC_TRANSFER_FIELDS = ['id', 'txHash', 'amount', 'confirmations', 'status', 'createdAt'].sort();

// spec: Limits › chains accepted by POST /v1/payments that never confirm, and chains rejected with 400.
const ACCEPTED_NEVER_CONFIRMING = [
  'ethereum',
  'polygon',
  'arbitrum',
  'optimism',
  'avalanche',
  'fantom',
  'gnosis',
  'linea',
  'scroll',
  'zksync',
  'mantle',
  'celo',
  'blast',
  'bsc',
];
const REJECTED = ['aptos', 'bitcoin', 'litecoin', 'dogecoin', 'xrp', 'ton', 'near', 'cosmos', 'polkadot', 'cardano'];

type Row = Record<string, any>;

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t, []);
});
afterAll(() => t.close());

const keysOf = (o: object) => Object.keys(o).sort();

async function createOk(who: Merchant, body: Record<string, unknown>): Promise<Row> {
  const res = await who.post('/v1/payments', body);
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  return res.body as Row;
}

async function advanceClock(seconds: number): Promise<void> {
  const res = await t.http().post('/v1/dev/clock').send({ advanceSeconds: seconds });
  expect(res.status).toBe(200);
}

/** A matched transfer written the way the listener would write it. */
async function insertTransfer(
  p: Row,
  o: { amountAtomic?: string; createdAt?: Date; logIndex?: number; blockNumber?: string; confirmations?: number } = {},
) {
  const row = {
    id: randomUUID(),
    txHash: '0x' + randomBytes(32).toString('hex'),
    logIndex: o.logIndex ?? 0,
    fromAddress: getAddress('0x' + randomBytes(20).toString('hex')),
    amountAtomic: o.amountAtomic ?? '1000000000000000000',
    blockNumber: o.blockNumber ?? '41234567',
    confirmations: o.confirmations ?? 15,
    createdAt: o.createdAt ?? new Date(),
  };
  await t.db.query(
    `INSERT INTO blockchain_transactions (id, payment_id, workspace_id, chain, network, tx_hash, log_index, from_address,
       to_address, token_address, amount_atomic, block_number, confirmations, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'confirmed', $14, $14)`,
    [
      row.id,
      p.id,
      p.merchantId,
      p.chain,
      p.network,
      row.txHash,
      row.logIndex,
      row.fromAddress,
      p.paymentAddress,
      BNB_USDC,
      row.amountAtomic,
      row.blockNumber,
      row.confirmations,
      row.createdAt,
    ],
  );
  return row;
}

function expectBadRequest(res: { status: number; body: Row }): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
}

/** The `message` of an error body as one list, whether the service sent a string or an array. */
const messages = (body: Row): string[] => (Array.isArray(body.message) ? body.message : [body.message]);

describe('POST /v1/payments: request fields', () => {
  test.each(['chain', 'token', 'amount', 'currency'])(
    '"%s" is required: a body without it → 400 naming the field',
    async (field) => {
      const body: Record<string, unknown> = paymentBody();
      delete body[field];
      const res = await m.post('/v1/payments', body);
      expectBadRequest(res);
      expect(messages(res.body)).toContain(`${field} must be a string`);
    },
  );

  test.each([
    ['reference', 'order-1'],
    ['description', 'a lamp'],
    ['customer', { email: 'buyer@example.com' }],
    ['expiresAt', '2030-01-01T00:00:00.000Z'],
  ])('"Any other field (for example %s) returns 400": property %s should not exist', async (field, value) => {
    const res = await m.post('/v1/payments', paymentBody({ [field]: value }));
    expectBadRequest(res);
    expect(messages(res.body)).toContain(`property ${field} should not exist`);
  });

  test('"Response: the payment object": exactly the Payment fields, without checkoutSession and blockchainTransactions', async () => {
    const p = await createOk(m, paymentBody());
    expect(keysOf(p)).toEqual(CREATE_FIELDS);
  });

  test('a created payment is waiting_for_payment, receivedAmount "0", feeBps 0, feeAmount "0", confirmedAt null', async () => {
    const p = await createOk(m, paymentBody({ amount: '12.5', metadata: { orderId: 'A-1' } }));
    expect(p).toMatchObject({
      merchantId: m.merchantId,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      amount: '12.5',
      currency: 'USDC',
      expectedAmount: '12.5',
      receivedAmount: '0',
      feeBps: 0,
      feeAmount: '0',
      status: 'waiting_for_payment',
      idempotencyKey: null,
      metadata: { orderId: 'A-1' },
      productId: null,
      confirmedAt: null,
    });
    expect(p.id).toMatch(UUID_RE);
    for (const f of ['expiresAt', 'createdAt', 'updatedAt']) expect(p[f]).toMatch(ISO_RE);
  });

  test('"Expiry is fixed at 30 minutes": expiresAt is createdAt + 30 min exactly', async () => {
    const p = await createOk(m, paymentBody());
    expect(Date.parse(p.expiresAt) - Date.parse(p.createdAt)).toBe(30 * 60 * 1000);
  });

  test('"fresh single-use address": on bnb paymentAddress is an EIP-55 checksummed EVM address', async () => {
    const p = await createOk(m, paymentBody());
    expect(p.paymentAddress).toMatch(EVM_ADDRESS_RE);
    expect(getAddress(p.paymentAddress)).toBe(p.paymentAddress);
  });

  test('"fresh single-use address": on sui paymentAddress is a Sui address, 0x and 64 hex characters', async () => {
    const p = await createOk(m, paymentBody({ chain: 'sui', token: 'USDC' }));
    expect(p.paymentAddress).toMatch(SUI_ADDRESS_RE);
    expect(p.token).toBe('USDC');
  });
});

describe('POST /v1/payments: chains (spec: Limits)', () => {
  test.each(ACCEPTED_NEVER_CONFIRMING)(
    '"Chains accepted by POST /v1/payments (201) that never confirm": %s → 201 with an EVM address',
    async (chain) => {
      const p = await createOk(m, paymentBody({ chain, token: 'USDC' }));
      expect(p).toMatchObject({ chain, status: 'waiting_for_payment', receivedAmount: '0' });
      expect(getAddress(p.paymentAddress)).toBe(p.paymentAddress);
    },
  );

  test.each(REJECTED)('"Chains rejected with 400": %s → 400', async (chain) => {
    const res = await m.post('/v1/payments', paymentBody({ chain, token: 'USDC' }));
    expectBadRequest(res);
  });

  test('a chain that is neither registered nor listed (e.g. "moonchain") → 400', async () => {
    expectBadRequest(await m.post('/v1/payments', paymentBody({ chain: 'moonchain' })));
  });

  test('a rejected chain creates no payment', async () => {
    const who = await merchant(t, []);
    await who.post('/v1/payments', paymentBody({ chain: 'bitcoin', token: 'BTC' }));
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE workspace_id = $1`, [
      who.merchantId,
    ]);
    expect(n).toBe(0);
  });
});

describe('POST /v1/payments: network, token, currency, amount', () => {
  test('"network … default is the server default (mainnet)"', async () => {
    expect((await createOk(m, paymentBody())).network).toBe('mainnet');
  });

  test('"network: mainnet or testnet": testnet is accepted (arc testnet USDC)', async () => {
    const p = await createOk(m, paymentBody({ chain: 'arc', network: 'testnet', token: 'USDC', amount: '1' }));
    expect(p).toMatchObject({ chain: 'arc', network: 'testnet', token: 'USDC' });
  });

  test.each(['devnet', 'Mainnet', ''])('network "%s" → 400', async (network) => {
    const res = await m.post('/v1/payments', paymentBody({ network }));
    expectBadRequest(res);
    expect(messages(res.body).join(' ')).toMatch(/network/);
  });

  test('"token: symbol …; stored as the registered symbol": "usdc" is stored as USDC', async () => {
    expect((await createOk(m, paymentBody({ token: 'usdc' }))).token).toBe('USDC');
  });

  test.each([
    ['checksummed', BNB_USDC],
    ['lower-case', BNB_USDC.toLowerCase()],
  ])('"token: … contract address": the bnb USDC contract (%s) is stored as USDC', async (_case, address) => {
    const p = await createOk(m, paymentBody({ token: address }));
    expect(p.token).toBe('USDC');
  });

  test('"token: … coin type": the sui USDC coin type is stored as USDC', async () => {
    expect((await createOk(m, paymentBody({ chain: 'sui', token: SUI_USDC }))).token).toBe('USDC');
  });

  test('"an unregistered token is accepted and never confirms": DAI on bnb → 201 waiting_for_payment', async () => {
    const p = await createOk(m, paymentBody({ token: 'DAI', amount: '5.123456789012345678901' }));
    expect(p).toMatchObject({ token: 'DAI', status: 'waiting_for_payment', receivedAmount: '0' });
  });

  test('"currency … stored uppercase"', async () => {
    const p = await createOk(m, paymentBody({ currency: 'usdc' }));
    expect(p.currency).toBe('USDC');
    expect((await createOk(m, paymentBody({ currency: 'Eur' }))).currency).toBe('EUR');
  });

  test('"currency up to 24 characters": 24 → 201, 25 → 400', async () => {
    expect((await createOk(m, paymentBody({ currency: 'a'.repeat(24) }))).currency).toBe('A'.repeat(24));
    const res = await m.post('/v1/payments', paymentBody({ currency: 'a'.repeat(25) }));
    expectBadRequest(res);
    expect(messages(res.body)).toContain('currency must be shorter than or equal to 24 characters');
  });

  test('"token … up to 512 characters": 512 → 201 (unregistered, kept as sent), 513 → 400', async () => {
    const token = 'T'.repeat(512);
    expect((await createOk(m, paymentBody({ token }))).token).toBe(token);
    const res = await m.post('/v1/payments', paymentBody({ token: 'T'.repeat(513) }));
    expectBadRequest(res);
    expect(messages(res.body)).toContain('token must be shorter than or equal to 512 characters');
  });

  test('"no minimum enforced; zero and negative values are not rejected": 0 and -5 → 201', async () => {
    expect((await createOk(m, paymentBody({ amount: '0' }))).amount).toBe('0');
    const negative = await createOk(m, paymentBody({ amount: '-5' }));
    expect(negative.amount).toBe('-5');
    expect(negative.status).toBe('waiting_for_payment');
  });

  test.each(['abc', '1e5', '1,5', '10 ', '0x10', '1.2.3', '+5', '.5'])(
    '"amount: decimal string": %p → 400',
    async (amount) => {
      expectBadRequest(await m.post('/v1/payments', paymentBody({ amount })));
    },
  );

  test('amount as a JSON number → 400 "amount must be a string"', async () => {
    const res = await m.post('/v1/payments', paymentBody({ amount: 10 }));
    expectBadRequest(res);
    expect(messages(res.body)).toContain('amount must be a string');
  });

  test('"amount … in token units": more decimals than the token has → 400 (sui USDC 6, bnb USDC 18)', async () => {
    expect((await createOk(m, paymentBody({ chain: 'sui', token: 'USDC', amount: '1.123456' }))).expectedAmount).toBe(
      '1.123456',
    );
    expectBadRequest(await m.post('/v1/payments', paymentBody({ chain: 'sui', token: 'USDC', amount: '1.1234567' })));
    expectBadRequest(
      await m.post('/v1/payments', paymentBody({ chain: 'bnb', token: 'USDC', amount: '0.' + '1'.repeat(19) })),
    );
  });
});

describe('POST /v1/payments: idempotencyKey', () => {
  const key = () => `order-${randomBytes(6).toString('hex')}`;

  test('"the same key with the same chain and network returns the original payment unchanged (amount not compared)"', async () => {
    const k = key();
    const first = await createOk(m, paymentBody({ idempotencyKey: k, amount: '10' }));
    const again = await m.post('/v1/payments', paymentBody({ idempotencyKey: k, amount: '99', currency: 'EUR' }));
    expect([200, 201]).toContain(again.status);
    expect(again.body).toEqual(first);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE idempotency_key = $1`, [k]);
    expect(n).toBe(1);
  });

  test('"the same key with a different chain … returns 409"', async () => {
    const k = key();
    await createOk(m, paymentBody({ idempotencyKey: k }));
    const res = await m.post('/v1/payments', paymentBody({ idempotencyKey: k, chain: 'brokerchain', token: 'USDG' }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
  });

  test('"the same key with a different … network returns 409"', async () => {
    const k = key();
    await createOk(m, paymentBody({ idempotencyKey: k }));
    const res = await m.post('/v1/payments', paymentBody({ idempotencyKey: k, network: 'testnet' }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
  });

  test('concurrent creates with one key give one payment', async () => {
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => m.post('/v1/payments', paymentBody({ idempotencyKey: k }))),
    );
    for (const r of results) expect([200, 201]).toContain(r.status);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  test('"idempotencyKey up to 120 characters": 120 → 201, 121 → 400', async () => {
    const k120 = 'k'.repeat(119) + randomBytes(1).toString('hex').slice(0, 1);
    expect((await createOk(m, paymentBody({ idempotencyKey: k120 }))).idempotencyKey).toBe(k120);
    const res = await m.post('/v1/payments', paymentBody({ idempotencyKey: 'k'.repeat(121) }));
    expectBadRequest(res);
    expect(messages(res.body)).toContain('idempotencyKey must be shorter than or equal to 120 characters');
  });

  test('"unique within the workspace": the same key in two workspaces gives two payments', async () => {
    const k = key();
    const other = await merchant(t, []);
    const a = await createOk(m, paymentBody({ idempotencyKey: k }));
    const b = await createOk(other, paymentBody({ idempotencyKey: k, chain: 'sui' }));
    expect(b.id).not.toBe(a.id);
    expect(b.merchantId).toBe(other.merchantId);
  });
});

describe('fresh single-use addresses (spec: What the service does 1)', () => {
  test("50 payments get 50 distinct addresses, each the BIP-44 derivation m/44'/60'/0'/0/<address_index> of the mnemonic", async () => {
    const who = await merchant(t, []);
    const created = await Promise.all(Array.from({ length: 50 }, () => createOk(who, paymentBody())));
    expect(new Set(created.map((p) => p.paymentAddress)).size).toBe(50);
    const rows: Array<{ id: string; address_index: string; payment_address: string }> = await t.db.query(
      `SELECT id, address_index::text, payment_address FROM payments WHERE workspace_id = $1`,
      [who.merchantId],
    );
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.address_index)).size).toBe(50);
    const byId = new Map(created.map((p) => [p.id, p.paymentAddress]));
    for (const r of rows) {
      const derived = HDNodeWallet.fromPhrase(TEST_MNEMONIC, undefined, `m/44'/60'/0'/0/${r.address_index}`).address;
      expect({ id: r.id, address: byId.get(r.id) }).toEqual({ id: r.id, address: derived });
    }
  });
});

describe('GET /v1/payments/:id', () => {
  test('a direct payment: blockchainTransactions [] and checkoutSession null, the other fields as created', async () => {
    const p = await createOk(m, paymentBody());
    const res = await m.get(`/v1/payments/${p.id}`);
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(PAYMENT_FIELDS);
    expect(res.body).toEqual({ ...p, checkoutSession: null, blockchainTransactions: [] });
  });

  test('"blockchainTransactions: every matched transfer", each with the Blockchain transaction fields (amount in token units, blockNumber string, logIndex integer)', async () => {
    const p = await createOk(m, paymentBody({ amount: '10' }));
    const older = await insertTransfer(p, {
      amountAtomic: '2500000000000000000',
      logIndex: 7,
      blockNumber: '41234567',
      createdAt: new Date(Date.now() - 5000),
    });
    const newer = await insertTransfer(p, { amountAtomic: '1000000000000000', logIndex: 0, blockNumber: '41234999' });
    const res = await m.get(`/v1/payments/${p.id}`);
    expect(res.status).toBe(200);
    const txs: Row[] = res.body.blockchainTransactions;
    expect(txs).toHaveLength(2);
    for (const tx of txs) expect(keysOf(tx)).toEqual(TRANSFER_FIELDS);
    const tx = txs.find((x) => x.id === older.id) as Row;
    expect(tx).toEqual({
      id: older.id,
      paymentId: p.id,
      merchantId: m.merchantId,
      chain: 'bnb',
      network: 'mainnet',
      txHash: older.txHash,
      logIndex: 7,
      fromAddress: older.fromAddress,
      toAddress: p.paymentAddress,
      tokenAddress: BNB_USDC,
      amount: '2.5',
      blockNumber: '41234567',
      confirmations: 15,
      status: 'confirmed',
      createdAt: older.createdAt.toISOString(),
      updatedAt: older.createdAt.toISOString(),
    });
    expect(txs.find((x) => x.id === newer.id)?.amount).toBe('0.001');
  });

  test('an unknown id → 404; a malformed id → 404', async () => {
    expect((await m.get(`/v1/payments/${NO_SUCH_ID}`)).status).toBe(404);
    expect((await m.get('/v1/payments/not-a-uuid')).status).toBe(404);
  });

  test("another workspace's payment → 404", async () => {
    const p = await createOk(m, paymentBody());
    const other = await merchant(t, []);
    const res = await other.get(`/v1/payments/${p.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe('GET /v1/payments without walk parameters', () => {
  let crowd: Merchant;
  let created: Row[];
  let fourTransfers: Array<{ id: string }>;

  beforeAll(async () => {
    crowd = await merchant(t, []);
    created = [];
    for (let i = 0; i < 105; i++) created.push(await createOk(crowd, paymentBody({ amount: String(i + 1) })));
    const target = created[created.length - 1];
    const base = Date.now() - 60_000;
    fourTransfers = [];
    for (let i = 0; i < 4; i++)
      fourTransfers.push(await insertTransfer(target, { logIndex: i, createdAt: new Date(base + i * 1000) }));
  });

  test('"a bare array of the newest 100 payments": 105 created → an array of 100, newest first', async () => {
    const res = await crowd.get('/v1/payments');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(100);
    // newest first: createdAt descending (id breaks a tie within one millisecond)
    const newestFirst = [...created].sort(
      (x, y) => Date.parse(y.createdAt) - Date.parse(x.createdAt) || (y.id > x.id ? 1 : y.id < x.id ? -1 : 0),
    );
    const expected = newestFirst.slice(0, 100).map((p) => p.id);
    expect(res.body.map((p: Row) => p.id)).toEqual(expected);
  });

  test('"each with latest 3 transfers and checkoutSession": every row carries both; 4 transfers → the latest 3', async () => {
    const res = await crowd.get('/v1/payments');
    for (const row of res.body as Row[]) {
      expect(keysOf(row)).toEqual(PAYMENT_FIELDS);
      expect(row.checkoutSession).toBeNull();
    }
    const target = (res.body as Row[]).find((r) => r.id === created[created.length - 1].id) as Row;
    expect(target.blockchainTransactions.map((x: Row) => x.id).sort()).toEqual(
      fourTransfers
        .slice(1)
        .map((x) => x.id)
        .sort(),
    );
    for (const tx of target.blockchainTransactions) expect(keysOf(tx)).toEqual(TRANSFER_FIELDS);
    const others = (res.body as Row[]).filter((r) => r.id !== target.id);
    for (const row of others) expect(row.blockchainTransactions).toEqual([]);
  });

  test('GET /v1/payments/:id still returns all 4 transfers', async () => {
    const res = await crowd.get(`/v1/payments/${created[created.length - 1].id}`);
    expect(res.body.blockchainTransactions).toHaveLength(4);
  });

  test('"network" filter on the bare list', async () => {
    const who = await merchant(t, []);
    const main = await createOk(who, paymentBody());
    const onTestnet = await createOk(who, paymentBody({ chain: 'arc', network: 'testnet', token: 'USDC' }));
    const onlyTest = await who.get('/v1/payments?network=testnet');
    expect(onlyTest.body.map((p: Row) => p.id)).toEqual([onTestnet.id]);
    const onlyMain = await who.get('/v1/payments?network=mainnet');
    expect(onlyMain.body.map((p: Row) => p.id)).toEqual([main.id]);
  });

  test("another workspace's payments are never listed", async () => {
    const res = await m.get('/v1/payments');
    const crowdIds = new Set(created.map((p) => p.id));
    expect((res.body as Row[]).some((p) => crowdIds.has(p.id))).toBe(false);
    for (const p of res.body as Row[]) expect(p.merchantId).toBe(m.merchantId);
  });
});

describe('GET /v1/payments: reconciliation walk', () => {
  let w: Merchant; // 30 mainnet payments
  let big: Merchant; // 101 payments
  let mixed: Merchant; // 3 mainnet + 2 testnet
  let walked: Row[];
  let mixedTestnet: Row[];

  const walk = (who: Merchant, query: string) => who.get(`/v1/payments?${query}`);

  beforeAll(async () => {
    [w, big, mixed] = [await merchant(t, []), await merchant(t, []), await merchant(t, [])];
    walked = [];
    for (let i = 0; i < 30; i++) walked.push(await createOk(w, paymentBody({ amount: String(i + 1) })));
    for (let i = 0; i < 101; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, 101 - i) }, () => createOk(big, paymentBody())));
    }
    for (let i = 0; i < 3; i++) await createOk(mixed, paymentBody());
    mixedTestnet = [];
    for (let i = 0; i < 2; i++)
      mixedTestnet.push(await createOk(mixed, paymentBody({ chain: 'arc', network: 'testnet', token: 'USDC' })));
  });

  test('"A page withholds rows updated in the last 60 seconds": fresh payments appear only once the dev clock passes 60 s', async () => {
    const fresh = await walk(w, 'limit=100');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ data: [], hasMore: false, nextCursor: null });
    await advanceClock(30);
    expect((await walk(w, 'limit=100')).body.data).toEqual([]);
    await advanceClock(31);
    const released = await walk(w, 'limit=100');
    expect(released.body.data.map((p: Row) => p.id).sort()).toEqual(walked.map((p) => p.id).sort());
    // a payment made now is withheld again while the older ones are walked
    const late = await createOk(w, paymentBody());
    expect((await walk(w, 'limit=100')).body.data.map((p: Row) => p.id)).not.toContain(late.id);
    await t.db.query(`DELETE FROM payments WHERE id = $1`, [late.id]);
  });

  test('"otherwise {data, hasMore, nextCursor}": with limit the answer is that object, rows with checkoutSession and blockchainTransactions', async () => {
    const res = await walk(w, 'limit=5');
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.hasMore).toBe(true);
    expect(typeof res.body.nextCursor).toBe('string');
    for (const row of res.body.data) expect(keysOf(row)).toEqual(PAYMENT_FIELDS);
  });

  test('"Rows come oldest-changed first, ordered by (updatedAt, id)"', async () => {
    const rows: Row[] = (await walk(w, 'limit=100')).body.data;
    expect(rows).toHaveLength(30);
    const sorted = [...rows].sort(
      (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(rows.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
  });

  test('"ordered by (updatedAt, id)": rows with the same updatedAt come by id, and a cursor walk through them returns each once', async () => {
    const ties = await merchant(t, []);
    const made: Row[] = [];
    for (let i = 0; i < 6; i++) made.push(await createOk(ties, paymentBody()));
    const { now } = (await t.http().get('/v1/dev/clock')).body as { now: string };
    const sameInstant = new Date(Date.parse(now) - 120_000);
    await t.db.query(`UPDATE payments SET updated_at = $2 WHERE workspace_id = $1`, [ties.merchantId, sameInstant]);
    const byId = made.map((p) => p.id).sort();
    expect((await walk(ties, 'limit=100')).body.data.map((p: Row) => p.id)).toEqual(byId);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Row = (await walk(ties, `limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
      seen.push(...page.data.map((p: Row) => p.id));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 20);
    expect(seen).toEqual(byId);
  });

  test('"cursor: the nextCursor of the previous page": limit 7 over 30 payments returns each exactly once, then nextCursor null', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await walk(w, `limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((p: Row) => p.id));
      sizes.push(res.body.data.length);
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
      if (cursor === null) break;
      expect(cursor).toMatch(/^\d{4}-\d{2}-\d{2}T[^|]+\|[0-9a-f-]{36}$/);
    }
    expect(sizes).toEqual([7, 7, 7, 7, 2]);
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(new Set(walked.map((p) => p.id)));
  });

  test('"updatedAfter: ISO 8601, exclusive, millisecond precision"', async () => {
    const rows: Row[] = (await walk(w, 'limit=100')).body.data;
    const pivot = rows[10];
    const after = (await walk(w, `limit=100&updatedAfter=${encodeURIComponent(pivot.updatedAt)}`)).body.data as Row[];
    expect(after.map((r) => r.id)).not.toContain(pivot.id);
    expect(after.map((r) => r.id)).toEqual(
      rows.filter((r) => Date.parse(r.updatedAt) > Date.parse(pivot.updatedAt)).map((r) => r.id),
    );
    const oneMsEarlier = new Date(Date.parse(pivot.updatedAt) - 1).toISOString();
    const incl = (await walk(w, `limit=100&updatedAfter=${encodeURIComponent(oneMsEarlier)}`)).body.data as Row[];
    expect(incl.map((r) => r.id)).toContain(pivot.id);
  });

  test('"updatedAfter" alone starts the walk with the default limit 25', async () => {
    const res = await walk(w, `updatedAfter=${encodeURIComponent('2000-01-01T00:00:00.000Z')}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.hasMore).toBe(true);
  });

  test.each([['0'], ['-3']])('"limit 1 to 100 … out-of-range clamped": limit=%s → 1 row', async (limit) => {
    const res = await walk(w, `limit=${limit}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.hasMore).toBe(true);
  });

  test('"limit 1 to 100 … out-of-range clamped": limit=1000 over 101 payments → 100 rows, hasMore', async () => {
    const res = await walk(big, 'limit=1000');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.hasMore).toBe(true);
    const rest = await walk(big, `limit=1000&cursor=${encodeURIComponent(res.body.nextCursor)}`);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.nextCursor).toBeNull();
  });

  test.each([
    ['garbage'],
    ['2026-09-20T12:00:00.000Z'],
    ['2026-09-20T12:00:00.000Z|not-a-uuid'],
    [`yesterday|${NO_SUCH_ID}`],
    [`2026-09-20T12:00:00.000Z|${NO_SUCH_ID}|extra`],
  ])('"cursor … malformed gives 400": %p', async (cursor) => {
    const res = await walk(w, `limit=5&cursor=${encodeURIComponent(cursor)}`);
    expectBadRequest(res);
  });

  test.each([['yesterday'], ['2026-13-45T00:00:00Z'], ['1700000000000'], ['2026-09-20 12:00']])(
    '"updatedAfter … malformed gives 400": %p',
    async (value) => {
      const res = await walk(w, `updatedAfter=${encodeURIComponent(value)}`);
      expectBadRequest(res);
    },
  );

  test('"an unrecognised status is ignored rather than rejected"', async () => {
    const all = (await walk(w, 'limit=100')).body.data.map((p: Row) => p.id);
    const res = await walk(w, 'limit=100&status=paid');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: Row) => p.id)).toEqual(all);
    // a recognised status does filter
    expect((await walk(w, 'limit=100&status=expired')).body.data).toEqual([]);
  });

  test('"network never changes and is safe": network=testnet walks only the testnet payments', async () => {
    const res = await walk(mixed, 'limit=100&network=testnet');
    expect(res.body.data.map((p: Row) => p.id).sort()).toEqual(mixedTestnet.map((p) => p.id).sort());
    expect((await walk(mixed, 'limit=100&network=mainnet')).body.data).toHaveLength(3);
  });

  test("another workspace's payments are never walked", async () => {
    const ids = new Set(walked.map((p) => p.id));
    for (const who of [big, mixed, m]) {
      const rows: Row[] = (await walk(who, 'limit=100')).body.data;
      expect(rows.some((r) => ids.has(r.id))).toBe(false);
      for (const r of rows) expect(r.merchantId).toBe(who.merchantId);
    }
  });

  test('"A row that changes during the walk is returned again; every matching row is returned at least once"', async () => {
    const first = (await walk(mixed, 'limit=2')).body;
    const changed = first.data[0] as Row;
    // the row changes after page 1 was read (still older than the 60-second lag)
    const { now } = (await t.http().get('/v1/dev/clock')).body as { now: string };
    await t.db.query(`UPDATE payments SET updated_at = $2 WHERE id = $1`, [
      changed.id,
      new Date(Date.parse(now) - 61_000),
    ]);
    const seen: string[] = first.data.map((p: Row) => p.id);
    let cursor: string | null = first.nextCursor;
    while (cursor) {
      const page = (await walk(mixed, `limit=2&cursor=${encodeURIComponent(cursor)}`)).body;
      seen.push(...page.data.map((p: Row) => p.id));
      cursor = page.nextCursor;
    }
    expect(seen.filter((id) => id === changed.id)).toHaveLength(2);
    expect(new Set(seen).size).toBe(5);
  });
});

describe('GET /v1/public/payments/:id (public payment projection)', () => {
  test('needs no key and shows exactly the documented fields, equal to the merchant view', async () => {
    const p = await createOk(
      m,
      paymentBody({ amount: '37', currency: 'usd', metadata: { secret: 'x' }, idempotencyKey: `pub-${randomUUID()}` }),
    );
    const res = await publicApi(t).get(`/v1/public/payments/${p.id}`);
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(PUBLIC_FIELDS);
    expect(res.body).toEqual({
      id: p.id,
      chain: p.chain,
      network: p.network,
      token: p.token,
      currency: 'USD',
      expectedAmount: '37',
      receivedAmount: '0',
      paymentAddress: p.paymentAddress,
      status: 'waiting_for_payment',
      expiresAt: p.expiresAt,
      createdAt: p.createdAt,
      confirmedAt: null,
      transactions: [],
    });
  });

  test('"transactions (latest 5, each {id, txHash, amount, confirmations, status, createdAt})": 6 transfers → the latest 5', async () => {
    const p = await createOk(m, paymentBody({ amount: '10' }));
    const base = Date.now() - 60_000;
    const txs = [];
    for (let i = 0; i < 6; i++)
      txs.push(
        await insertTransfer(p, {
          logIndex: i,
          amountAtomic: `${i + 1}000000000000000000`,
          createdAt: new Date(base + i * 1000),
        }),
      );
    const res = await publicApi(t).get(`/v1/public/payments/${p.id}`);
    expect(res.status).toBe(200);
    const shown: Row[] = res.body.transactions;
    expect(shown).toHaveLength(5);
    for (const tx of shown) expect(keysOf(tx)).toEqual(PUBLIC_TRANSFER_FIELDS);
    expect(shown.map((x) => x.id).sort()).toEqual(
      txs
        .slice(1)
        .map((x) => x.id)
        .sort(),
    );
    const newest = txs[5];
    expect(shown.find((x) => x.id === newest.id)).toEqual({
      id: newest.id,
      txHash: newest.txHash,
      amount: '6',
      confirmations: 15,
      status: 'confirmed',
      createdAt: newest.createdAt.toISOString(),
    });
  });

  test('GET /v1/public/payments/:id/rail: the chain id, family, token contract, decimals and atomic amount a wallet link needs', async () => {
    const p = await createOk(m, paymentBody({ amount: '37.5' }));
    const res = await publicApi(t).get(`/v1/public/payments/${p.id}/rail`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: p.id,
      chain: 'bnb',
      network: 'mainnet',
      chainId: 56,
      chainKind: 'evm',
      token: 'USDC',
      tokenAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      decimals: 18,
      expectedAmountAtomic: '37500000000000000000',
    });
    const native = await createOk(m, paymentBody({ token: 'BNB', amount: '0.25', currency: 'BNB' }));
    expect((await publicApi(t).get(`/v1/public/payments/${native.id}/rail`)).body).toMatchObject({
      chainId: 56,
      tokenAddress: null,
      decimals: 18,
      expectedAmountAtomic: '250000000000000000',
    });
    const sui = await createOk(m, paymentBody({ chain: 'sui', amount: '2', currency: 'USDC' }));
    expect((await publicApi(t).get(`/v1/public/payments/${sui.id}/rail`)).body).toMatchObject({
      chain: 'sui',
      chainId: null,
      chainKind: 'sui',
      decimals: 6,
      expectedAmountAtomic: '2000000',
    });
    expect((await publicApi(t).get(`/v1/public/payments/${NO_SUCH_ID}/rail`)).status).toBe(404);
    expect((await publicApi(t).get('/v1/public/payments/12345/rail')).status).toBe(404);
  });

  test('an unknown id → 404; a malformed id → 404', async () => {
    const unknown = await publicApi(t).get(`/v1/public/payments/${NO_SUCH_ID}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await publicApi(t).get('/v1/public/payments/12345')).status).toBe(404);
  });
});
