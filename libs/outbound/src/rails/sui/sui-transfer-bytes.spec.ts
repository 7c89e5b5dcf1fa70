import { randomBytes, randomInt } from 'node:crypto';
import { Transaction } from '@mysten/sui/transactions';
import { toBase58, toHex } from '@mysten/sui/utils';
import { suiTransferBytes, type SuiRefInput, type SuiTransferBytesPlan } from './sui-transfer-bytes';

/** The bytes as sui-sponsored.ts built them with @mysten's Transaction before (the same calls, same order). */
async function builderBytes(plan: SuiTransferBytesPlan): Promise<Uint8Array> {
  const ref = (c: SuiRefInput) => ({ objectId: c.objectId, version: c.version, digest: c.digest });
  const tx = new Transaction();
  tx.setSender(plan.sender);
  tx.setGasOwner(plan.gasOwner);
  tx.setGasPrice(plan.gasPrice);
  tx.setGasBudget(plan.gasBudget);
  tx.setGasPayment([ref(plan.gasCoin)]);
  if (plan.expirationEpoch !== undefined) tx.setExpiration({ Epoch: Number(plan.expirationEpoch) });
  const [primary, ...rest] = plan.inputs.map((c) => tx.objectRef(ref(c)));
  if (rest.length > 0) tx.mergeCoins(primary, rest);
  if (plan.amount === 'all') {
    tx.transferObjects([primary], tx.pure.address(plan.to));
  } else {
    const [coin] = tx.splitCoins(primary, [tx.pure.u64(plan.amount)]);
    tx.transferObjects([coin], tx.pure.address(plan.to));
  }
  return tx.build();
}

const address = (short = true) => {
  const hex = toHex(randomBytes(32));
  // the forms callers pass: normalised, and now and then short (leading zeros) or upper case
  switch (randomInt(short ? 6 : 5) + (short ? 0 : 1)) {
    case 0:
      return `0x${hex.replace(/^0+/, '').slice(0, randomInt(1, 8))}`;
    case 1:
      return `0x${hex.toUpperCase()}`;
    default:
      return `0x${hex}`;
  }
};
const u64 = (): bigint => {
  switch (randomInt(4)) {
    case 0:
      return BigInt(randomInt(0, 1000));
    case 1:
      return (1n << 64n) - 1n - BigInt(randomInt(0, 3));
    default:
      return BigInt(`0x${toHex(randomBytes(randomInt(1, 9)))}`);
  }
};
const coin = (): SuiRefInput => ({
  objectId: address(false),
  version: u64().toString(),
  digest: toBase58(randomBytes(32)),
});

function randomPlan(): SuiTransferBytesPlan {
  const inputs = Array.from({ length: randomInt(1, randomInt(4) === 0 ? 24 : 4) }, coin);
  return {
    sender: address(),
    gasOwner: address(),
    to: address(),
    inputs,
    amount: randomInt(2) === 0 ? 'all' : u64(),
    gasCoin: coin(),
    gasPrice: u64(),
    gasBudget: u64(),
    expirationEpoch: randomInt(3) === 0 ? undefined : BigInt(randomInt(0, 2 ** 47)),
  };
}

describe('suiTransferBytes', () => {
  it('writes the very bytes of the Transaction builder over 1,000 random transfers', async () => {
    for (let i = 0; i < 1000; i++) {
      const plan = randomPlan();
      expect(Buffer.from(suiTransferBytes(plan)).toString('hex')).toBe(
        Buffer.from(await builderBytes(plan)).toString('hex'),
      );
    }
  });

  it('writes the bench-shaped sweep (one coin, all of it) and an exact refund from three coins as the builder', async () => {
    const base = { sender: address(), gasOwner: address(), to: address(), gasCoin: coin() };
    const fee = { gasPrice: 1000n, gasBudget: 20_000_000n, expirationEpoch: 1n };
    for (const plan of [
      { ...base, ...fee, inputs: [coin()], amount: 'all' as const },
      { ...base, ...fee, inputs: [coin(), coin(), coin()], amount: 12_345n },
      { ...base, ...fee, inputs: [coin()], amount: 1n, expirationEpoch: undefined },
    ]) {
      expect(suiTransferBytes(plan)).toEqual(await builderBytes(plan));
    }
  });

  it('refuses what the builder refuses: a bad address, a digest not of 32 bytes, a value beyond u64', async () => {
    const good = { ...randomPlan(), amount: 5n };
    const bad: SuiTransferBytesPlan[] = [
      { ...good, to: '0xnothex' },
      { ...good, sender: `0x${'1'.repeat(65)}` },
      { ...good, gasCoin: { ...good.gasCoin, digest: toBase58(randomBytes(31)) } },
      { ...good, gasBudget: 1n << 64n },
      { ...good, amount: -1n },
      { ...good, inputs: [{ ...good.inputs[0], version: (1n << 64n).toString() }] },
    ];
    for (const plan of bad) {
      expect(() => suiTransferBytes(plan)).toThrow();
      await expect(builderBytes(plan)).rejects.toThrow();
    }
  });

  it('refuses a coin listed twice (the builder would name it once)', () => {
    const c = coin();
    expect(() => suiTransferBytes({ ...randomPlan(), inputs: [c, coin(), { ...c }] })).toThrow('a coin listed twice');
  });
});
