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

/**
 * `verifyLegDestination` of several legs (a batch's sign decisions, in the caller's transaction),
 * in the order given: the same facts, read for all in one statement per purpose, the same judgement.
 */
export async function verifyLegDestinations(
  m: EntityManager,
  legs: LegToVerify[],
  o: DestinationCheckOptions,
): Promise<DestinationVerdict[]> {
  const idsOf = (purpose: OutboundPurpose) => legs.filter((l) => l.purpose === purpose).map((l) => l.purposeId);
  const sweeps = await sweepFactsMany(m, idsOf('sweep'), o.devClock);
  const refunds = await refundFactsMany(m, idsOf('refund'));
  const funded = await fundedFactsMany(
    m,
    legs.flatMap((l) => (l.purpose === 'gas' && l.fundsTransactionId ? [l.fundsTransactionId] : [])),
    o.devClock,
  );
  return legs.map((leg) => {
    switch (leg.purpose) {
      case 'sweep':
        return judgeDestination(leg, { purpose: 'sweep', sweep: sweeps.get(leg.purposeId) ?? null }, o.key);
      case 'refund':
        return judgeDestination(leg, { purpose: 'refund', refund: refunds.get(leg.purposeId) ?? null }, o.key);
      case 'gas': {
        const rows = leg.fundsTransactionId ? funded.get(leg.fundsTransactionId) : undefined;
        const read = rows ? fundedOf(rows, leg.kind) : null;
        return judgeDestination(leg, gasFacts(read, o.key), o.key);
      }
      default:
        throw new Error(`unknown leg purpose ${String(leg.purpose)}`);
    }
  });
}

async function destinationFacts(m: EntityManager, leg: LegToVerify, o: DestinationCheckOptions) {
  switch (leg.purpose) {
    case 'sweep':
      return { purpose: 'sweep' as const, sweep: await sweepFacts(m, leg.purposeId, o.devClock) };
    case 'refund':
      return { purpose: 'refund' as const, refund: await refundFacts(m, leg.purposeId) };
    case 'gas': {
      // the funded leg is on the gas leg's rail, or judgeGas refuses it; its own facts come in the same read
      const read = leg.fundsTransactionId ? await fundedFacts(m, leg.fundsTransactionId, leg.kind, o.devClock) : null;
      return gasFacts(read, o.key);
    }
    default:
      throw new Error(`unknown leg purpose ${String(leg.purpose)}`);
  }
}

/** A gas leg's facts: the transaction it funds, and the judgement on that transaction's own leg. */
function gasFacts(read: { funded: FundedFacts; facts: DestinationFacts | null } | null, key: Buffer): DestinationFacts {
  const fundedVerdict = read?.facts ? judgeDestination(read.funded.leg, read.facts, key) : null;
  return { purpose: 'gas', funded: read?.funded ?? null, fundedVerdict };
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
// Named prepared statements (OutboundRepository's pattern): a sweep's sign reads its own leg's
// facts in one statement, and its gas leg's (the funded transaction with that sweep's facts) in one.

/** The database's clock: its now(), moved by the dev clock's offset only where SVC_DEV_CLOCK=1 (never in production). */
const DB_NOW = `(now() + CASE WHEN $2::boolean THEN COALESCE((SELECT offset_ms FROM service_clock WHERE id = 1), 0) ELSE 0 END * interval '1 millisecond')`;

/** A sweep (`s`) with its payment (`sp`) and settlement address (`a`): the joins and the columns sweepFactsOf reads. */
const SWEEP_JOINS = `sweeps s JOIN payments sp ON sp.id = s.payment_id
     LEFT JOIN settlement_addresses a ON a.id = s.settlement_address_id`;
const SWEEP_COLUMNS = `s.id AS sweep_id, s.workspace_id AS sweep_workspace_id, s.transfer_id AS sweep_transfer_id,
            sp.workspace_id AS sweep_payment_workspace_id, sp.payment_address AS sweep_payment_address,
            a.id AS address_id, a.workspace_id AS address_workspace_id, a.chain AS address_chain,
            a.network AS address_network, a.address AS address_address, a.status AS address_status,
            a.activates_at AS address_activates_at, a.destination_mac AS address_destination_mac,
            (a.activates_at <= ${DB_NOW}) AS address_cooled_down`;

/** A refund (`r`) with its payment (`rp`): the joins and the columns refundFactsOf reads. */
const REFUND_JOINS = `refunds r JOIN payments rp ON rp.id = r.payment_id`;
const REFUND_COLUMNS = `r.id AS refund_id, r.workspace_id AS refund_workspace_id, rp.workspace_id AS refund_payment_workspace_id,
            r.transfer_id AS refund_transfer_id, r.status AS refund_status, r.chain AS refund_chain,
            r.network AS refund_network, r.token_address AS refund_token_address, r.to_address AS refund_to_address,
            r.destination_mac AS refund_destination_mac`;

async function sweepFacts(m: EntityManager, sweepId: string, devClock: boolean): Promise<SweepFacts | null> {
  const rows = await preparedStatement(
    m,
    'destination_sweep_facts',
    `SELECT ${SWEEP_COLUMNS} FROM ${SWEEP_JOINS} WHERE s.id = $1`,
    [sweepId, devClock],
  );
  return rows[0] ? sweepFactsOf(rows[0]) : null;
}

/** `sweepFacts` of several sweeps in one statement, by sweep id (a sweep not found is absent). */
async function sweepFactsMany(m: EntityManager, ids: string[], devClock: boolean): Promise<Map<string, SweepFacts>> {
  const out = new Map<string, SweepFacts>();
  if (ids.length === 0) return out;
  const rows = await preparedStatement(
    m,
    'destination_sweep_facts_many',
    `SELECT ${SWEEP_COLUMNS} FROM ${SWEEP_JOINS} WHERE s.id = ANY($1::uuid[])`,
    [ids, devClock],
  );
  for (const r of rows) {
    const facts = sweepFactsOf(r);
    if (facts) out.set(r.sweep_id as string, facts);
  }
  return out;
}

function sweepFactsOf(r: Record<string, unknown>): SweepFacts | null {
  if (r.sweep_id === null) return null;
  return {
    sweepWorkspaceId: r.sweep_workspace_id as string,
    transferId: (r.sweep_transfer_id as string | null) ?? null,
    paymentWorkspaceId: r.sweep_payment_workspace_id as string,
    paymentAddress: r.sweep_payment_address as string,
    address:
      r.address_id === null
        ? null
        : {
            id: r.address_id as string,
            workspaceId: r.address_workspace_id as string,
            chain: r.address_chain as string,
            network: r.address_network as string,
            address: r.address_address as string,
            status: r.address_status as string,
            activatesAt: new Date(r.address_activates_at as Date),
            destinationMac: (r.address_destination_mac as string | null) ?? null,
            cooledDown: r.address_cooled_down === true,
          },
  };
}

async function refundFacts(m: EntityManager, refundId: string): Promise<RefundFacts | null> {
  const rows = await preparedStatement(
    m,
    'destination_refund_facts',
    `SELECT ${REFUND_COLUMNS} FROM ${REFUND_JOINS} WHERE r.id = $1`,
    [refundId],
  );
  return rows[0] ? refundFactsOf(rows[0]) : null;
}

/** `refundFacts` of several refunds in one statement, by refund id (a refund not found is absent). */
async function refundFactsMany(m: EntityManager, ids: string[]): Promise<Map<string, RefundFacts>> {
  const out = new Map<string, RefundFacts>();
  if (ids.length === 0) return out;
  const rows = await preparedStatement(
    m,
    'destination_refund_facts_many',
    `SELECT ${REFUND_COLUMNS} FROM ${REFUND_JOINS} WHERE r.id = ANY($1::uuid[])`,
    [ids],
  );
  for (const r of rows) {
    const facts = refundFactsOf(r);
    if (facts) out.set(r.refund_id as string, facts);
  }
  return out;
}

function refundFactsOf(r: Record<string, unknown>): RefundFacts | null {
  if (r.refund_id === null) return null;
  return {
    workspaceId: r.refund_workspace_id as string,
    paymentWorkspaceId: r.refund_payment_workspace_id as string,
    transferId: (r.refund_transfer_id as string | null) ?? null,
    status: r.refund_status as RefundStatus,
    chain: r.refund_chain as string,
    network: r.refund_network as string,
    tokenAddress: (r.refund_token_address as string | null) ?? null,
    toAddress: r.refund_to_address as string,
    destinationMac: (r.refund_destination_mac as string | null) ?? null,
  };
}

/** A funded transaction (`t`) with its legs (`l`) and their sweep or refund: fundedOf reads these. */
const FUNDED_COLUMNS = `t.id, t.chain, t.network, t.sender_key_kind, t.funds_transaction_id, l.purpose, l.purpose_id,
            l.from_address, l.to_address, l.token, ${SWEEP_COLUMNS}, ${REFUND_COLUMNS}`;
const FUNDED_JOINS = `outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
     LEFT JOIN (${SWEEP_JOINS}) ON l.purpose = 'sweep' AND s.id = l.purpose_id
     LEFT JOIN (${REFUND_JOINS}) ON l.purpose = 'refund' AND r.id = l.purpose_id`;

/**
 * The transaction a gas leg funds, with its leg, and in the same statement the facts of that leg's
 * sweep or refund (`facts`: null for a leg of another purpose, which judgeGas refuses).
 */
async function fundedFacts(
  m: EntityManager,
  transactionId: string,
  kind: ChainKind,
  devClock: boolean,
): Promise<{ funded: FundedFacts; facts: DestinationFacts | null } | null> {
  const rows = await preparedStatement(
    m,
    'destination_funded_facts',
    `SELECT ${FUNDED_COLUMNS} FROM ${FUNDED_JOINS} WHERE t.id = $1 ORDER BY l.ordinal`,
    [transactionId, devClock],
  );
  return fundedOf(rows, kind);
}

/** `fundedFacts` of several transactions in one statement: each one's rows (its legs), by transaction id. */
async function fundedFactsMany(
  m: EntityManager,
  transactionIds: string[],
  devClock: boolean,
): Promise<Map<string, Array<Record<string, unknown>>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  if (transactionIds.length === 0) return out;
  const rows = await preparedStatement(
    m,
    'destination_funded_facts_many',
    `SELECT ${FUNDED_COLUMNS} FROM ${FUNDED_JOINS} WHERE t.id = ANY($1::uuid[]) ORDER BY t.id, l.ordinal`,
    [transactionIds, devClock],
  );
  for (const r of rows) {
    const of = out.get(r.id as string) ?? [];
    of.push(r);
    out.set(r.id as string, of);
  }
  return out;
}

/** The funded transaction and its leg's facts from its rows (one per leg). */
function fundedOf(
  rows: Array<Record<string, unknown>>,
  kind: ChainKind,
): { funded: FundedFacts; facts: DestinationFacts | null } | null {
  // one leg per EVM transaction; a transaction of several legs is not a sender a gas leg funds
  if (rows.length !== 1) return null;
  const r = rows[0];
  const purpose = r.purpose as OutboundPurpose;
  const funded: FundedFacts = {
    senderKeyKind: r.sender_key_kind as string,
    leg: {
      transactionId: r.id as string,
      purpose,
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
  const facts: DestinationFacts | null =
    purpose === 'sweep'
      ? { purpose, sweep: sweepFactsOf(r) }
      : purpose === 'refund'
        ? { purpose, refund: refundFactsOf(r) }
        : null;
  return { funded, facts };
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
