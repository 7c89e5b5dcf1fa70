// The Sui devnet executes signed transactions like a full node: transfers built with
// @mysten/sui's Transaction, signed with real keys, executed through the SDK's GraphQL client,
// and read back by the service's own Sui reader (the listener's SuiGraphQLReader). Refusals come
// back with the node's messages; execution failures are final with status FAILURE and charge gas.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { SuiGraphQLReader } from '../libs/chains/src/sui/sui-graphql-reader';
import { MAINNET_USDC, MIN_COMPUTATION_UNITS, SUI, SuiDevPayer, SuiDevnet, suiAddress } from '@svc/devnet';

let devnet: SuiDevnet;
let payer: SuiDevPayer;
let reader: SuiGraphQLReader;

const USDC = suiAddress(MAINNET_USDC.split('::')[0]) + '::usdc::USDC';
const fresh = () => new Ed25519Keypair();

beforeAll(async () => {
  devnet = await SuiDevnet.start();
  payer = new SuiDevPayer(devnet.url, fresh());
  devnet.chain.mint(payer.address, SUI, 10_000_000_000n); // 10 SUI
  devnet.chain.mint(payer.address, USDC, 700_000_000n); // 700 USDC, two coins
  devnet.chain.mint(payer.address, USDC, 300_000_000n);
  reader = new SuiGraphQLReader(devnet.url);
});

afterAll(async () => {
  await devnet?.stop();
});

/** The transaction as the service's reader sees it, found in its checkpoint. */
async function readBack(digest: string) {
  const tx = devnet.chain.transaction(digest);
  if (!tx) throw new Error(`no transaction ${digest}`);
  const cp = BigInt(tx.checkpoint);
  const seen = await reader.transactions(cp, cp);
  return seen.find((t) => t.digest === digest);
}

const balance = (owner: string, type: string) => devnet.chain.balanceOf(owner, type);

describe('a signed USDC transfer', () => {
  it('executes, merges the coins it needs, charges gas and is read back by the service', async () => {
    const to = fresh().toSuiAddress();
    const suiBefore = balance(payer.address, SUI);
    const sent = await payer.pay(to, USDC, 850_000_000n); // needs both USDC coins
    expect(sent).toEqual({ digest: expect.any(String), success: true, error: null });
    expect(balance(to, USDC)).toBe(850_000_000n);
    expect(balance(payer.address, USDC)).toBe(150_000_000n);
    expect(devnet.chain.coinsOf(payer.address, USDC)).toHaveLength(1); // the second coin was merged away
    // gas: 1,000 units at the reference price, 3 objects written (gas coin, merged coin, new coin),
    // 3 inputs rebated at 99%
    const gas = MIN_COMPUTATION_UNITS * 1_000n + 3n * 988_000n - 3n * 978_120n;
    expect(suiBefore - balance(payer.address, SUI)).toBe(gas);

    const seen = await readBack(sent.digest);
    expect(seen).toMatchObject({ sender: payer.address, success: true });
    expect(seen?.balanceChanges).toEqual(
      expect.arrayContaining([
        { owner: to, coinType: USDC, amount: '850000000' },
        { owner: payer.address, coinType: USDC, amount: '-850000000' },
        { owner: payer.address, coinType: SUI, amount: String(-gas) },
      ]),
    );
    expect(seen?.balanceChanges).toHaveLength(3);

    // The SDK reads the executed transaction back in full (BCS transaction and effects).
    const { transaction } = await payer.client.core.getTransaction({ digest: sent.digest });
    expect(transaction.effects.status).toEqual({ success: true, error: null });
    expect(transaction.transaction.sender).toBe(payer.address);
    expect(transaction.signatures).toHaveLength(1);
  });

  it('sends SUI out of the gas coin', async () => {
    const to = fresh().toSuiAddress();
    const sent = await payer.pay(to, SUI, 1_500_000_000n);
    expect(sent.success).toBe(true);
    expect(balance(to, SUI)).toBe(1_500_000_000n);
    const seen = await readBack(sent.digest);
    expect(seen?.balanceChanges).toContainEqual({ owner: to, coinType: SUI, amount: '1500000000' });
  });

  it('a dry run (simulateTransaction) predicts the effects and gas without signatures or changes', async () => {
    const to = fresh().toSuiAddress();
    const bytes = await payer.build(to, USDC, 2_000_000n);
    const usdc = balance(payer.address, USDC);
    const head = devnet.chain.latest.sequenceNumber;
    const predicted = await payer.dryRun(bytes);
    expect(predicted.status).toEqual({ success: true, error: null });
    expect(balance(payer.address, USDC)).toBe(usdc);
    expect(devnet.chain.latest.sequenceNumber).toBe(head);
    await payer.execute(bytes, [(await payer.keypair.signTransaction(bytes)).signature]);
    const { transaction } = await payer.client.core.getTransaction({
      digest: devnet.chain.latest.transactions[0].digest,
    });
    expect(transaction.effects.gasUsed).toEqual(predicted.gasUsed);
    expect(balance(to, USDC)).toBe(2_000_000n);
  });

  it('answers a repeated submission of the same bytes with the same effects', async () => {
    const bytes = await payer.build(fresh().toSuiAddress(), USDC, 1n);
    const sig = (await payer.keypair.signTransaction(bytes)).signature;
    const first = await payer.execute(bytes, [sig]);
    const again = await payer.execute(bytes, [sig]);
    expect(again).toEqual(first);
  });
});

describe('refusals a node gives before execution', () => {
  it('a signature by another key', async () => {
    const bytes = await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n);
    const forged = (await fresh().signTransaction(bytes)).signature;
    await expect(payer.execute(bytes, [forged])).rejects.toThrow(
      `Invalid user signature: Required Signature from ${payer.address} is absent`,
    );
  });

  it('a signature over other bytes', async () => {
    const bytes = await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n);
    const other = await payer.build(fresh().toSuiAddress(), USDC, 2_000_000n);
    const sig = (await payer.keypair.signTransaction(other)).signature;
    await expect(payer.execute(bytes, [sig])).rejects.toThrow(/^Invalid user signature: Signature is not valid/);
  });

  it('a stale object version (the coins were spent since it was signed)', async () => {
    const a = await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n);
    const b = await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n);
    expect((await payer.execute(a, [(await payer.keypair.signTransaction(a)).signature])).success).toBe(true);
    await expect(payer.execute(b, [(await payer.keypair.signTransaction(b)).signature])).rejects.toThrow(
      /^Object ID 0x[0-9a-f]{64} Version 0x[0-9a-f]+ Digest \w+ is not available for consumption, current version: 0x[0-9a-f]+$/,
    );
  });

  it('two transactions on the same coin versions sent at once: one executes, the other is refused', async () => {
    const [a, b] = [
      await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n),
      await payer.build(fresh().toSuiAddress(), USDC, 1_000_000n),
    ];
    const sign = async (bytes: Uint8Array) => [(await payer.keypair.signTransaction(bytes)).signature];
    const results = await Promise.allSettled([payer.execute(a, await sign(a)), payer.execute(b, await sign(b))]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/is not available for consumption/);
  });

  it('a gas budget under the minimum', async () => {
    const before = balance(payer.address, SUI);
    await expect(payer.pay(fresh().toSuiAddress(), USDC, 1_000_000n, { gasBudget: 999_999n })).rejects.toThrow(
      'Gas budget: 999999 is lower than min: 1000000.',
    );
    expect(balance(payer.address, SUI)).toBe(before);
  });

  it('a gas price under the reference gas price', async () => {
    const [gas] = await payer.coins(payer.address, SUI);
    const tx = new Transaction();
    tx.setSender(payer.address);
    tx.setGasPrice(999n);
    tx.setGasBudget(10_000_000n);
    tx.setGasPayment([gas]);
    const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(1n)]);
    tx.transferObjects([coin], tx.pure.address(payer.address));
    const bytes = await tx.build();
    await expect(payer.execute(bytes, [(await payer.keypair.signTransaction(bytes)).signature])).rejects.toThrow(
      'Gas price 999 under reference gas price (RGP) 1000',
    );
  });

  it('a coin the sender does not own', async () => {
    const other = new SuiDevPayer(devnet.url, fresh());
    devnet.chain.mint(other.address, USDC, 5_000_000n);
    const [theirs] = await payer.coins(other.address, USDC);
    const [gas] = await payer.coins(payer.address, SUI);
    const tx = new Transaction();
    tx.setSender(payer.address);
    tx.setGasPrice(1_000n);
    tx.setGasBudget(10_000_000n);
    tx.setGasPayment([gas]);
    tx.transferObjects([tx.objectRef(theirs)], tx.pure.address(payer.address));
    const bytes = await tx.build();
    await expect(payer.execute(bytes, [(await payer.keypair.signTransaction(bytes)).signature])).rejects.toThrow(
      `Object ${theirs.objectId} is owned by account address ${other.address}, but given owner/signer address is ${payer.address}`,
    );
    expect(balance(other.address, USDC)).toBe(5_000_000n);
  });

  it('an object that does not exist', async () => {
    const [gas] = await payer.coins(payer.address, SUI);
    const tx = new Transaction();
    tx.setSender(payer.address);
    tx.setGasPrice(1_000n);
    tx.setGasBudget(10_000_000n);
    tx.setGasPayment([gas]);
    const missing = { objectId: `0x${'ab'.repeat(32)}`, version: '3', digest: gas.digest };
    tx.transferObjects([tx.objectRef(missing)], tx.pure.address(payer.address));
    const bytes = await tx.build();
    await expect(payer.execute(bytes, [(await payer.keypair.signTransaction(bytes)).signature])).rejects.toThrow(
      `Could not find the referenced object ${missing.objectId} at version 3`,
    );
  });
});

describe('execution failures (final, gas charged, nothing else moves)', () => {
  it('an amount above the balance: InsufficientCoinBalance', async () => {
    const usdc = balance(payer.address, USDC);
    const sui = balance(payer.address, SUI);
    const to = fresh().toSuiAddress();
    const sent = await payer.pay(to, USDC, usdc + 1n);
    expect(sent.success).toBe(false);
    expect(sent.error).toMatch(/InsufficientCoinBalance/);
    expect(balance(payer.address, USDC)).toBe(usdc);
    expect(balance(to, USDC)).toBe(0n);
    expect(balance(payer.address, SUI)).toBeLessThan(sui);
    const seen = await readBack(sent.digest);
    expect(seen?.success).toBe(false);
    expect(seen?.balanceChanges.map((c) => c.coinType)).toEqual([SUI]);
  });

  it('a budget under what the transaction costs: InsufficientGas, the budget is charged', async () => {
    const sui = balance(payer.address, SUI);
    const sent = await payer.pay(fresh().toSuiAddress(), USDC, 1_000_000n, { gasBudget: 1_000_000n });
    expect(sent.success).toBe(false);
    expect(sent.error).toMatch(/InsufficientGas/);
    expect(sui - balance(payer.address, SUI)).toBeLessThanOrEqual(1_000_000n);
  });
});

describe('a sponsored transaction (sender ≠ gas owner)', () => {
  it('needs both signatures; the sender keeps no SUI change, the sponsor pays the gas', async () => {
    const deposit = new SuiDevPayer(devnet.url, fresh());
    const tank = fresh();
    devnet.chain.mint(deposit.address, USDC, 25_000_000n);
    devnet.chain.mint(tank.toSuiAddress(), SUI, 1_000_000_000n);
    const to = fresh().toSuiAddress();

    const bytes = await deposit.build(to, USDC, 25_000_000n, { sponsor: tank });
    const senderSig = (await deposit.keypair.signTransaction(bytes)).signature;
    const tankSig = (await tank.signTransaction(bytes)).signature;
    await expect(deposit.execute(bytes, [senderSig])).rejects.toThrow('Expect 2 signer signatures but got 1');
    await expect(deposit.execute(bytes, [senderSig, (await fresh().signTransaction(bytes)).signature])).rejects.toThrow(
      `Required Signature from ${tank.toSuiAddress()} is absent`,
    );
    const sent = await deposit.execute(bytes, [senderSig, tankSig]);
    expect(sent.success).toBe(true);
    expect(balance(deposit.address, USDC)).toBe(0n);
    expect(balance(deposit.address, SUI)).toBe(0n);
    expect(balance(to, USDC)).toBe(25_000_000n);
    expect(balance(tank.toSuiAddress(), SUI)).toBeLessThan(1_000_000_000n);
    const seen = await readBack(sent.digest);
    expect(seen?.sender).toBe(deposit.address);
    expect(seen?.balanceChanges.filter((c) => c.owner === deposit.address)).toEqual([
      { owner: deposit.address, coinType: USDC, amount: '-25000000' },
    ]);
  });

  it('the sponsor cannot be made to pay with its gas coin as the sent value', async () => {
    const tank = fresh();
    devnet.chain.mint(tank.toSuiAddress(), SUI, 1_000_000_000n);
    const [gas] = await payer.coins(tank.toSuiAddress(), SUI);
    const tx = new Transaction();
    tx.setSender(payer.address);
    tx.setGasOwner(tank.toSuiAddress());
    tx.setGasPrice(1_000n);
    tx.setGasBudget(10_000_000n);
    tx.setGasPayment([gas]);
    const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(500_000_000n)]);
    tx.transferObjects([coin], tx.pure.address(payer.address));
    const bytes = await tx.build();
    const sent = await payer.execute(bytes, [
      (await payer.keypair.signTransaction(bytes)).signature,
      (await tank.signTransaction(bytes)).signature,
    ]);
    expect(sent.success).toBe(false);
    expect(sent.error).toMatch(/CommandArgumentError/);
    expect(balance(tank.toSuiAddress(), SUI)).toBeGreaterThan(500_000_000n);
  });
});

describe("SuiNode.coins (the signer's and the planner's listing)", () => {
  it("lists what the SDK's core.getCoins lists, over pages, in the same order", async () => {
    const { SuiNode } = await import('@svc/chains');
    const owner = fresh().toSuiAddress();
    // 130 coins (three pages of 50), balances with ties, so the sort's tie-break by object id counts
    for (let i = 0; i < 130; i++) devnet.chain.mint(owner, USDC, BigInt(1 + (i % 7)) * 1_000_000n);
    const node = new SuiNode(devnet.url);
    const sdk: Array<{ objectId: string; version: string; digest: string; balance: bigint }> = [];
    for (let cursor: string | null = null; ;) {
      const page = await node.client.core.getCoins({ address: owner, coinType: USDC, cursor, limit: 50 });
      for (const c of page.objects) {
        sdk.push({ objectId: c.id, version: c.version, digest: c.digest, balance: BigInt(c.balance) });
      }
      if (!page.hasNextPage || !page.cursor) break;
      cursor = page.cursor;
    }
    sdk.sort((a, b) => (a.balance !== b.balance ? (a.balance > b.balance ? -1 : 1) : a.objectId < b.objectId ? -1 : 1));
    const listed = await node.coins(owner, USDC);
    expect(listed).toHaveLength(130);
    expect(listed).toEqual(sdk);
    expect(await node.coins(fresh().toSuiAddress(), USDC)).toEqual([]);
  });
});
