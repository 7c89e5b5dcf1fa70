// docs/money-out.md › Destinations: one case a test, each against the judgement the signer makes
// just before it signs (the database reading is covered by e2e/destinations.e2e-spec.ts).
import { randomBytes } from 'node:crypto';
import { destinationMac } from '@svc/domain';
import { DestinationFacts, judgeDestination, LegToVerify, RefundFacts, SweepFacts } from './destination-check';

const KEY = randomBytes(32);
const OTHER_KEY = randomBytes(32);
const WS = '11111111-1111-4111-8111-111111111111';
const OTHER_WS = '22222222-2222-4222-8222-222222222222';
const SETTLEMENT = '0x5E5e5e5E5e5E5E5E5E5E5E5e5e5E5e5E5e5E5e5e';
const DEPOSIT = '0xD0D0d0D0d0D0D0D0d0d0D0D0d0d0D0d0D0D0D0D0';
const BUYER = '0xB0B0B0B0b0b0B0b0B0b0B0B0b0B0b0B0B0b0B0b0';
const USDC = '0x0000000000000000000000000000000000000Usdc'.replace('Usdc', 'abcd');
const ACTIVATES = new Date('2026-01-01T00:00:00.000Z');

const sweepLeg: LegToVerify = {
  transactionId: 'tx-sweep',
  purpose: 'sweep',
  purposeId: 'sweep-1',
  kind: 'evm',
  chain: 'bnb',
  network: 'mainnet',
  fromAddress: DEPOSIT,
  toAddress: SETTLEMENT,
  tokenAddress: USDC,
  fundsTransactionId: null,
};

function settlementMac(over: Partial<{ workspaceId: string; id: string; address: string; key: Buffer }> = {}) {
  return destinationMac(over.key ?? KEY, {
    kind: 'settlement_address',
    workspaceId: over.workspaceId ?? WS,
    id: over.id ?? 'sa-1',
    chain: 'bnb',
    network: 'mainnet',
    address: over.address ?? SETTLEMENT,
    activatesAt: ACTIVATES,
  });
}

function sweep(
  address: Partial<NonNullable<SweepFacts['address']>> = {},
  over: Partial<SweepFacts> = {},
): DestinationFacts {
  return {
    purpose: 'sweep',
    sweep: {
      sweepWorkspaceId: WS,
      transferId: 'tx-sweep',
      paymentWorkspaceId: WS,
      paymentAddress: DEPOSIT,
      address: {
        id: 'sa-1',
        workspaceId: WS,
        chain: 'bnb',
        network: 'mainnet',
        address: SETTLEMENT,
        status: 'active',
        activatesAt: ACTIVATES,
        destinationMac: settlementMac(),
        cooledDown: true,
        ...address,
      },
      ...over,
    },
  };
}

const refundLeg: LegToVerify = {
  ...sweepLeg,
  transactionId: 'tx-refund',
  purpose: 'refund',
  purposeId: 'refund-1',
  toAddress: BUYER,
};

function refundMac(over: Partial<{ workspaceId: string; address: string; tokenAddress: string | null }> = {}) {
  return destinationMac(KEY, {
    kind: 'refund',
    workspaceId: over.workspaceId ?? WS,
    id: 'refund-1',
    chain: 'bnb',
    network: 'mainnet',
    tokenAddress: over.tokenAddress === undefined ? USDC : over.tokenAddress,
    address: over.address ?? BUYER,
  });
}

function refund(over: Partial<RefundFacts> = {}): DestinationFacts {
  return {
    purpose: 'refund',
    refund: {
      workspaceId: WS,
      paymentWorkspaceId: WS,
      transferId: 'tx-refund',
      status: 'pending',
      chain: 'bnb',
      network: 'mainnet',
      tokenAddress: USDC,
      toAddress: BUYER,
      destinationMac: refundMac(),
      ...over,
    },
  };
}

const gasLeg: LegToVerify = {
  transactionId: 'tx-gas',
  purpose: 'gas',
  purposeId: 'tx-sweep',
  kind: 'evm',
  chain: 'bnb',
  network: 'mainnet',
  fromAddress: '0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a',
  toAddress: DEPOSIT,
  tokenAddress: null,
  fundsTransactionId: 'tx-sweep',
};

const gas = (over: Partial<LegToVerify> = {}, senderKeyKind = 'deposit', ok = true): DestinationFacts => ({
  purpose: 'gas',
  funded: { leg: { ...sweepLeg, ...over }, senderKeyKind },
  fundedVerdict: ok
    ? { ok: true }
    : { ok: false, reason: 'the destination MAC of settlement address sa-1 does not verify' },
});

const judged = (leg: LegToVerify, facts: DestinationFacts) => judgeDestination(leg, facts, KEY);
const refused = (leg: LegToVerify, facts: DestinationFacts, reason: RegExp) => {
  const verdict = judged(leg, facts);
  expect(verdict.ok).toBe(false);
  if (!verdict.ok) expect(verdict.reason).toMatch(reason);
};

describe('a sweep leg', () => {
  test('to an active settlement address of the payment workspace, cooled down, with its MAC: signed', () => {
    expect(judged(sweepLeg, sweep())).toEqual({ ok: true });
  });

  test('the same address in another spelling (EVM checksum) is the same address', () => {
    expect(judged({ ...sweepLeg, toAddress: SETTLEMENT.toLowerCase() }, sweep())).toEqual({ ok: true });
  });

  test("addresses are compared by the leg's family codec: Sui's short form is the address, a base58 case is not", () => {
    const sui = `0x${'0'.repeat(60)}5e5e`;
    const suiLeg: LegToVerify = { ...sweepLeg, kind: 'sui', chain: 'bnb', toAddress: '0x5E5E', fromAddress: DEPOSIT };
    expect(judged(suiLeg, sweep({ address: sui, destinationMac: settlementMac({ address: sui }) }))).toEqual({
      ok: true,
    });
    const base58 = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
    const mac = settlementMac({ address: base58 });
    const solanaLeg: LegToVerify = { ...sweepLeg, kind: 'solana', toAddress: base58 };
    expect(judged(solanaLeg, sweep({ address: base58, destinationMac: mac }))).toEqual({ ok: true });
    refused(
      { ...solanaLeg, toAddress: base58.toLowerCase() },
      sweep({ address: base58, destinationMac: mac }),
      /not settlement address/,
    );
    // an EVM leg to a Sui-length hex string is not the same address, whatever its digits
    refused(
      { ...sweepLeg, toAddress: sui },
      sweep({ address: sui, destinationMac: settlementMac({ address: sui }) }),
      /not settlement address/,
    );
  });

  test('a leg whose kind is not in the family table: refused', () => {
    refused({ ...sweepLeg, kind: 'bitcoin' as LegToVerify['kind'] }, sweep(), /bitcoin is not a chain family/);
  });

  test('an address written straight into the database (no MAC): refused', () => {
    refused(sweepLeg, sweep({ destinationMac: null }), /carries no destination MAC/);
  });

  test('a MAC that is not one (malformed or under another key): refused', () => {
    refused(sweepLeg, sweep({ destinationMac: 'ab'.repeat(31) }), /does not verify/);
    refused(sweepLeg, sweep({ destinationMac: settlementMac({ key: OTHER_KEY }) }), /does not verify/);
  });

  test('the MAC of another workspace or another address: refused', () => {
    refused(sweepLeg, sweep({ destinationMac: settlementMac({ workspaceId: OTHER_WS }) }), /does not verify/);
    refused(sweepLeg, sweep({ destinationMac: settlementMac({ id: 'sa-2' }) }), /does not verify/);
    const attacker = '0xAaAaaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';
    refused(
      { ...sweepLeg, toAddress: attacker },
      sweep({ address: attacker, destinationMac: settlementMac() }),
      /does not verify/,
    );
  });

  test('the address of a MACed row changed in the database: refused', () => {
    const attacker = '0xAaAaaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';
    refused({ ...sweepLeg, toAddress: attacker }, sweep({ address: attacker }), /does not verify/);
  });

  test('its cool-down moved earlier in the database: refused (activatesAt is under the MAC)', () => {
    refused(sweepLeg, sweep({ activatesAt: new Date('2025-01-01T00:00:00.000Z') }), /does not verify/);
  });

  test('still in its cool-down on the database clock: refused', () => {
    refused(sweepLeg, sweep({ cooledDown: false }), /cool-down until 2026-01-01T00:00:00.000Z \(database clock\)/);
  });

  test('pending or retired (not active): refused', () => {
    refused(sweepLeg, sweep({ status: 'retired' }), /is retired, not active/);
    refused(sweepLeg, sweep({ status: 'pending' }), /is pending, not active/);
  });

  test('a settlement address of another workspace (with its own valid MAC): refused', () => {
    const facts = sweep({ workspaceId: OTHER_WS, destinationMac: settlementMac({ workspaceId: OTHER_WS }) });
    refused(sweepLeg, facts, /of another workspace/);
  });

  test('on another rail: refused', () => {
    refused(sweepLeg, sweep({ network: 'testnet' }), /is on bnb\/testnet, not bnb\/mainnet/);
  });

  test('the leg pays another address than its settlement address: refused', () => {
    refused({ ...sweepLeg, toAddress: BUYER }, sweep(), /not settlement address sa-1/);
  });

  test('the leg does not send from the payment deposit address: refused', () => {
    refused({ ...sweepLeg, fromAddress: BUYER }, sweep(), /deposit address/);
  });

  test('no sweep, a sweep carried by another transaction, none named, or a sweep of another workspace: refused', () => {
    refused(sweepLeg, { purpose: 'sweep', sweep: null }, /no sweep sweep-1/);
    refused(sweepLeg, sweep({}, { transferId: 'tx-other' }), /not carried by this transaction/);
    refused(sweepLeg, sweep({}, { transferId: null }), /not carried by this transaction/);
    refused(sweepLeg, sweep({}, { paymentWorkspaceId: OTHER_WS }), /not of its payment's workspace/);
    refused(
      sweepLeg,
      { purpose: 'sweep', sweep: { ...(sweep() as { sweep: SweepFacts }).sweep, address: null } },
      /names no settlement address/,
    );
  });
});

describe('a refund leg', () => {
  test("to the refund's recorded toAddress with its MAC: signed", () => {
    expect(judged(refundLeg, refund())).toEqual({ ok: true });
  });

  test('a native refund (no token) with its MAC: signed', () => {
    const facts = refund({ tokenAddress: null, destinationMac: refundMac({ tokenAddress: null }) });
    expect(judged({ ...refundLeg, tokenAddress: null }, facts)).toEqual({ ok: true });
  });

  test('a refund written straight into the database (no MAC): refused', () => {
    refused(refundLeg, refund({ destinationMac: null }), /carries no destination MAC/);
  });

  test('its toAddress changed in the database after the API authorised it: refused', () => {
    const attacker = '0xAaAaaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';
    refused({ ...refundLeg, toAddress: attacker }, refund({ toAddress: attacker }), /does not verify/);
  });

  test('the MAC of another workspace: refused', () => {
    refused(refundLeg, refund({ destinationMac: refundMac({ workspaceId: OTHER_WS }) }), /does not verify/);
  });

  test('another token than the refund, or another address than its toAddress: refused', () => {
    refused({ ...refundLeg, tokenAddress: null }, refund(), /another token/);
    refused({ ...refundLeg, toAddress: SETTLEMENT }, refund(), /not refund refund-1's toAddress/);
  });

  test('a refund that is not open, or not carried by this transaction: refused', () => {
    refused(refundLeg, refund({ status: 'cancelled' }), /is cancelled/);
    refused(refundLeg, refund({ transferId: 'tx-other' }), /not carried by this transaction/);
    refused(refundLeg, { purpose: 'refund', refund: null }, /no refund refund-1/);
    refused(refundLeg, refund({ paymentWorkspaceId: OTHER_WS }), /not of its payment's workspace/);
  });
});

describe('a gas leg', () => {
  test('to the deposit address a verified sweep leg signs from: signed', () => {
    expect(judged(gasLeg, gas())).toEqual({ ok: true });
  });

  test('to a refund wallet whose verified refund leg it funds: signed', () => {
    const wallet = '0x9a9A9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a';
    const facts = gas({ ...refundLeg, fromAddress: wallet }, 'refund_wallet');
    expect(judged({ ...gasLeg, toAddress: wallet }, facts)).toEqual({ ok: true });
  });

  test('to anything but the sender of the leg it funds: refused', () => {
    refused({ ...gasLeg, toAddress: BUYER }, gas(), /not the sender it funds/);
  });

  test('funding a leg whose own destination is refused: refused', () => {
    refused(gasLeg, gas({}, 'deposit', false), /the sweep it funds is refused: .*does not verify/);
  });

  test('funding nothing, another gas leg, the gas tank, or a leg of another rail: refused', () => {
    refused({ ...gasLeg, fundsTransactionId: null }, gas(), /funds no transaction/);
    refused(gasLeg, { purpose: 'gas', funded: null, fundedVerdict: null }, /funds no transaction/);
    refused(gasLeg, gas({ purpose: 'gas' }), /funds a gas leg/);
    refused(gasLeg, gas({}, 'gas_tank'), /funds a gas_tank sender/);
    refused(gasLeg, gas({ chain: 'arc' }), /another rail/);
  });
});

test('facts of another purpose than the leg: refused', () => {
  refused(refundLeg, sweep(), /facts read are of a sweep leg, not a refund leg/);
});
