// The signer pays only destinations the API authorised (issue 19 › Keys; docs/money-out.md ›
// Destinations). Called at one point, just before a leg is signed (every attempt, replacements
// too), by every rail: EVM here, Sui sponsored sweeps next. It trusts neither the planner nor
// the rows it reads: each destination must carry the MAC the API computed with
// SVC_DESTINATION_KEY when it created it, and a gas leg may only fund the sender of a sweep or
// refund leg that passes the same check.
//   sweep  → the sweep's settlement address: of the payment's workspace, on the leg's rail,
//            `active`, its cool-down passed on the database clock, its MAC verifies, the leg's `to`
//            is its address, the leg's `from` the payment's deposit address.
//   refund → the refund's recorded toAddress (and token) with a MAC that verifies.
//   gas    → the sender of the transaction it funds, itself a sweep or refund leg that passes.
// Anything else is refused with a reason; the engine then signs nothing.
import type { EntityManager } from 'typeorm';
import { CHAIN_KINDS, family, type ChainKind, type FamilyCodec } from '@svc/chains';
import {
  destinationMacVerifies,
  refundDestination,
  settlementDestination,
  type OutboundPurpose,
  type RefundStatus,
} from '@svc/domain';
import { preparedStatement } from '@svc/core';

/** The leg about to be signed, as the signer holds it. */
export interface LegToVerify {
  /** the outbound transaction (sweeps.transfer_id / refunds.transfer_id point at it) */
  transactionId: string;
  purpose: OutboundPurpose;
  /** the sweep's or refund's id; a gas leg: the id of the transaction it funds */
  purposeId: string;
  /** the family of the leg's rail: its codec says when two spellings are the same address or token */
  kind: ChainKind;
  chain: string;
  network: string;
  fromAddress: string;
  toAddress: string;
  /** the token contract; null for the native coin */
  tokenAddress: string | null;
  /** a gas leg: the transaction whose fee it pays */
  fundsTransactionId: string | null;
}

export type DestinationVerdict = { ok: true } | { ok: false; reason: string };

/** A sweep and its settlement address as the database holds them, with the database clock's judgement. */
export interface SweepFacts {
  sweepWorkspaceId: string;
  transferId: string | null;
  paymentWorkspaceId: string;
  paymentAddress: string;
  address: {
    id: string;
    workspaceId: string;
    chain: string;
    network: string;
    address: string;
    status: string;
    activatesAt: Date;
    destinationMac: string | null;
    /** activates_at <= the database's now (plus the dev clock's offset outside production) */
    cooledDown: boolean;
  } | null;
}

export interface RefundFacts {
  workspaceId: string;
  paymentWorkspaceId: string;
  transferId: string | null;
  status: RefundStatus;
  chain: string;
  network: string;
  tokenAddress: string | null;
  toAddress: string;
  destinationMac: string | null;
}

/** The transaction a gas leg funds, with its (single) sweep or refund leg. */
export interface FundedFacts {
  leg: LegToVerify;
  senderKeyKind: string;
}

export type DestinationFacts =
  | { purpose: 'sweep'; sweep: SweepFacts | null }
  | { purpose: 'refund'; refund: RefundFacts | null }
  | { purpose: 'gas'; funded: FundedFacts | null; fundedVerdict: DestinationVerdict | null };

export interface DestinationCheckOptions {
  /** SVC_DESTINATION_KEY */
  key: Buffer;
  /** SVC_DEV_CLOCK=1 (never in production): the database clock includes the dev clock's offset */
  devClock: boolean;
}

/**
 * The check, in the caller's database transaction (the engine's, which holds the transaction row's
 * lock): reads what the leg claims to pay, then judges it. The one function every rail calls.
 */
export async function verifyLegDestination(
  m: EntityManager,
  leg: LegToVerify,
  o: DestinationCheckOptions,
): Promise<DestinationVerdict> {
  return judgeDestination(leg, await destinationFacts(m, leg, o), o.key);
}

async function destinationFacts(m: EntityManager, leg: LegToVerify, o: DestinationCheckOptions) {
  switch (leg.purpose) {
    case 'sweep':
      return { purpose: 'sweep' as const, sweep: await sweepFacts(m, leg.purposeId, o.devClock) };
    case 'refund':
      return { purpose: 'refund' as const, refund: await refundFacts(m, leg.purposeId) };
    case 'gas': {
      // the funded leg is on the gas leg's rail, or judgeGas refuses it
      const funded = leg.fundsTransactionId ? await fundedFacts(m, leg.fundsTransactionId, leg.kind) : null;
      const fundedVerdict =
        funded && funded.leg.purpose !== 'gas' ? await verifyLegDestination(m, funded.leg, o) : null;
      return { purpose: 'gas' as const, funded, fundedVerdict };
    }
    default:
      throw new Error(`unknown leg purpose ${String(leg.purpose)}`);
  }
}

/** The judgement on facts already read (pure: the unit tests feed it each case). */
export function judgeDestination(leg: LegToVerify, facts: DestinationFacts, key: Buffer): DestinationVerdict {
  const codec = codecOf(leg.kind);
  if (!codec) return no(`${String(leg.kind)} is not a chain family`);
  if (facts.purpose !== leg.purpose)
    return no(`the facts read are of a ${facts.purpose} leg, not a ${leg.purpose} leg`);
  switch (facts.purpose) {
    case 'sweep':
      return judgeSweep(codec, leg, facts.sweep, key);
    case 'refund':
      return judgeRefund(codec, leg, facts.refund, key);
    case 'gas':
      return judgeGas(codec, leg, facts.funded, facts.fundedVerdict);
    default:
      return no('unknown leg purpose');
  }
}

function judgeSweep(c: FamilyCodec, leg: LegToVerify, s: SweepFacts | null, key: Buffer): DestinationVerdict {
  if (!s) return no(`no sweep ${leg.purposeId}`);
  if (s.transferId !== leg.transactionId) return no(`sweep ${leg.purposeId} is not carried by this transaction`);
  if (s.sweepWorkspaceId !== s.paymentWorkspaceId)
    return no(`sweep ${leg.purposeId} is not of its payment's workspace`);
  if (!c.sameAddress(leg.fromAddress, s.paymentAddress))
    return no(`the leg does not send from the payment's deposit address`);
  const a = s.address;
  if (!a) return no(`sweep ${leg.purposeId} names no settlement address`);
  if (a.workspaceId !== s.paymentWorkspaceId) return no(`settlement address ${a.id} is of another workspace`);
  if (a.chain !== leg.chain || a.network !== leg.network) {
    return no(`settlement address ${a.id} is on ${a.chain}/${a.network}, not ${leg.chain}/${leg.network}`);
  }
  if (a.status !== 'active') return no(`settlement address ${a.id} is ${a.status}, not active`);
  if (!a.cooledDown) {
    return no(`settlement address ${a.id} is in its cool-down until ${a.activatesAt.toISOString()} (database clock)`);
  }
  if (!c.sameAddress(leg.toAddress, a.address))
    return no(`the leg pays ${leg.toAddress}, not settlement address ${a.id}`);
  if (!a.destinationMac)
    return no(`settlement address ${a.id} carries no destination MAC (not created through the API)`);
  if (!destinationMacVerifies(key, settlementDestination(a), a.destinationMac)) {
    return no(`the destination MAC of settlement address ${a.id} does not verify (written or changed outside the API)`);
  }
  return { ok: true };
}

function judgeRefund(c: FamilyCodec, leg: LegToVerify, r: RefundFacts | null, key: Buffer): DestinationVerdict {
  if (!r) return no(`no refund ${leg.purposeId}`);
  if (r.transferId !== leg.transactionId) return no(`refund ${leg.purposeId} is not carried by this transaction`);
  if (r.workspaceId !== r.paymentWorkspaceId) return no(`refund ${leg.purposeId} is not of its payment's workspace`);
  if (!['pending', 'awaiting_funds', 'submitted'].includes(r.status))
    return no(`refund ${leg.purposeId} is ${r.status}`);
  if (r.chain !== leg.chain || r.network !== leg.network) {
    return no(`refund ${leg.purposeId} is on ${r.chain}/${r.network}, not ${leg.chain}/${leg.network}`);
  }
  if (!sameToken(c, leg.tokenAddress, r.tokenAddress))
    return no(`the leg sends another token than refund ${leg.purposeId}`);
  if (!c.sameAddress(leg.toAddress, r.toAddress))
    return no(`the leg pays ${leg.toAddress}, not refund ${leg.purposeId}'s toAddress`);
  if (!r.destinationMac) return no(`refund ${leg.purposeId} carries no destination MAC (not created through the API)`);
  if (!destinationMacVerifies(key, refundDestination({ ...r, id: leg.purposeId }), r.destinationMac)) {
    return no(`the destination MAC of refund ${leg.purposeId} does not verify (written or changed outside the API)`);
  }
  return { ok: true };
}

function judgeGas(
  c: FamilyCodec,
  leg: LegToVerify,
  f: FundedFacts | null,
  fundedVerdict: DestinationVerdict | null,
): DestinationVerdict {
  if (!leg.fundsTransactionId || !f) return no('the gas leg funds no transaction');
  if (f.leg.purpose !== 'sweep' && f.leg.purpose !== 'refund') return no(`the gas leg funds a ${f.leg.purpose} leg`);
  if (f.leg.chain !== leg.chain || f.leg.network !== leg.network)
    return no('the gas leg is on another rail than the leg it funds');
  if (f.senderKeyKind !== 'deposit' && f.senderKeyKind !== 'refund_wallet') {
    return no(`the gas leg funds a ${f.senderKeyKind} sender, not a deposit address or a refund wallet`);
  }
  if (!c.sameAddress(leg.toAddress, f.leg.fromAddress))
    return no(`the gas leg pays ${leg.toAddress}, not the sender it funds`);
  if (!fundedVerdict?.ok) {
    return no(
      `the ${f.leg.purpose} it funds is refused: ${fundedVerdict && !fundedVerdict.ok ? fundedVerdict.reason : 'unchecked'}`,
    );
  }
  return { ok: true };
}

// ---- reading ---------------------------------------------------------------------------------
// Named prepared statements (OutboundRepository's pattern): each sweep's sign runs the sweep read
// twice (its own leg and its gas leg's) and the funded read once.

/** The database's clock: its now(), moved by the dev clock's offset only where SVC_DEV_CLOCK=1 (never in production). */
const DB_NOW = `(now() + CASE WHEN $2::boolean THEN COALESCE((SELECT offset_ms FROM service_clock WHERE id = 1), 0) ELSE 0 END * interval '1 millisecond')`;

async function sweepFacts(m: EntityManager, sweepId: string, devClock: boolean): Promise<SweepFacts | null> {
  const rows = await preparedStatement(
    m,
    'destination_sweep_facts',
    `SELECT s.workspace_id AS sweep_workspace_id, s.transfer_id, p.workspace_id AS payment_workspace_id,
            p.payment_address, a.id, a.workspace_id, a.chain, a.network, a.address, a.status, a.activates_at,
            a.destination_mac, (a.activates_at <= ${DB_NOW}) AS cooled_down
     FROM sweeps s JOIN payments p ON p.id = s.payment_id
     LEFT JOIN settlement_addresses a ON a.id = s.settlement_address_id
     WHERE s.id = $1`,
    [sweepId, devClock],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    sweepWorkspaceId: r.sweep_workspace_id as string,
    transferId: (r.transfer_id as string | null) ?? null,
    paymentWorkspaceId: r.payment_workspace_id as string,
    paymentAddress: r.payment_address as string,
    address:
      r.id === null
        ? null
        : {
            id: r.id as string,
            workspaceId: r.workspace_id as string,
            chain: r.chain as string,
            network: r.network as string,
            address: r.address as string,
            status: r.status as string,
            activatesAt: new Date(r.activates_at as Date),
            destinationMac: (r.destination_mac as string | null) ?? null,
            cooledDown: r.cooled_down === true,
          },
  };
}

async function refundFacts(m: EntityManager, refundId: string): Promise<RefundFacts | null> {
  const rows = await preparedStatement(
    m,
    'destination_refund_facts',
    `SELECT r.workspace_id, p.workspace_id AS payment_workspace_id, r.transfer_id, r.status, r.chain, r.network,
            r.token_address, r.to_address, r.destination_mac
     FROM refunds r JOIN payments p ON p.id = r.payment_id
     WHERE r.id = $1`,
    [refundId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    workspaceId: r.workspace_id as string,
    paymentWorkspaceId: r.payment_workspace_id as string,
    transferId: (r.transfer_id as string | null) ?? null,
    status: r.status as RefundStatus,
    chain: r.chain as string,
    network: r.network as string,
    tokenAddress: (r.token_address as string | null) ?? null,
    toAddress: r.to_address as string,
    destinationMac: (r.destination_mac as string | null) ?? null,
  };
}

async function fundedFacts(m: EntityManager, transactionId: string, kind: ChainKind): Promise<FundedFacts | null> {
  const rows = await preparedStatement(
    m,
    'destination_funded_facts',
    `SELECT t.id, t.chain, t.network, t.sender_key_kind, t.funds_transaction_id, l.purpose, l.purpose_id,
            l.from_address, l.to_address, l.token
     FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
     WHERE t.id = $1 ORDER BY l.ordinal`,
    [transactionId],
  );
  // one leg per EVM transaction; a transaction of several legs is not a sender a gas leg funds
  if (rows.length !== 1) return null;
  const r = rows[0];
  return {
    senderKeyKind: r.sender_key_kind as string,
    leg: {
      transactionId: r.id as string,
      purpose: r.purpose as OutboundPurpose,
      purposeId: r.purpose_id as string,
      kind,
      chain: r.chain as string,
      network: r.network as string,
      fromAddress: r.from_address as string,
      toAddress: r.to_address as string,
      tokenAddress: (r.token as string | null) ?? null,
      fundsTransactionId: (r.funds_transaction_id as string | null) ?? null,
    },
  };
}

// ---- helpers ---------------------------------------------------------------------------------

function no(reason: string): DestinationVerdict {
  return { ok: false, reason };
}

/** The family's codec; null for a kind that is not in the family table (refused). */
function codecOf(kind: ChainKind): FamilyCodec | null {
  return CHAIN_KINDS.includes(kind) ? family(kind).codec : null;
}

/** Both the native coin, or the same token by the family's codec (EVM contract case, Sui coin-type padding). */
function sameToken(c: FamilyCodec, a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return c.sameToken(a, b);
}
