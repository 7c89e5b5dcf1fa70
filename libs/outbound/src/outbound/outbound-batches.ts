// The run's batches of outbound steps (docs/money-out.md › The signer › Why a crash never pays
// twice, rule 8): the sign steps of deposits' token transfers signed together (signTogether), the
// top-up decisions of those that cannot pay their fee made together with their top-ups signed
// (decideTopUpsTogether), the gas tank's new top-ups signed together (signTopUpsTogether), and
// the broadcasts and receipts the lanes reach together recorded in one database transaction
// (recordBroadcastsTogether, recordReceiptsTogether). Each member keeps rules 1-7 as if it were
// alone: it is decided by the engine's own one-at-a-time step functions (BatchSteps, handed in by
// OutboundEngine), every signature, nonce and signed_at of a batch commits before any member is
// sent, and a member a batch does not take goes the one-at-a-time way afterwards.
import type { EntityManager } from 'typeorm';
import { redactRpcText } from '@svc/chains';
import { isFinalOutboundState, type Network, type OutboundWaitReason } from '@svc/domain';
import type { SignerContext } from '../context';
import { feeColumns } from '../fees/fees';
import type { EvmRail } from '../rpc/evm-rail';
import type { SourceClaims } from './claims';
import { decideSign, type SignDecision } from './funds';
import { Gather, settle, type Settled } from './gather';
import type { OutboundAttempt, OutboundTransfer } from './outbound-transfer';
import { PLAIN_TRANSFER_GAS } from './pay-check';
import {
  destinationRefusals,
  firstOfEachSender,
  gasFromTank,
  markSigned,
  neverSignedDepositTransfer,
  openSignDecisions,
  refuseUnverifiedDestination,
  unchanged,
  type Mined,
  type Opened,
  type SignFacts,
  type SignOutcome,
} from './outbound-steps';

type Transfer = OutboundTransfer;
type Attempt = OutboundAttempt;

/**
 * The most members of one batch, whatever it batches (the tank's top-ups signed, deposits' sign
 * steps, top-up decisions): so many rows locked and signed in one database transaction, and sent
 * in one JSON-RPC batch.
 */
export const TOP_UP_BATCH = 32;

/** How many of a run's sign batches (signTogether) are in flight at once, beside its top-up decisions. */
export const SIGN_BATCHES_IN_FLIGHT = 2;

/** A broadcast to record: the node took the stored attempt (`refusal` null) or refused it only for its price. */
interface BroadcastRecord {
  id: string;
  attempt: Attempt;
  head: bigint;
  refusal: string | null;
}

/** A token transfer whose top-up is decided in the run's batch (decideTopUpsTogether). */
interface TopUpDecision {
  /** the token transfer, and the facts its sign step read */
  t: OutboundTransfer;
  facts: SignFacts;
  /** its gas top-up from the tank (a new row, not inserted yet), and the tank's facts for it */
  u: OutboundTransfer;
  uf: SignFacts;
}

/** A sign batch's member decided to sign, its nonce still to allocate (signDue). */
interface SignDue {
  row: Transfer;
  facts: SignFacts;
  decision: { valueAtomic: bigint; amountAtomic: bigint };
}

/** A receipt to record on its transaction. */
interface ReceiptRecord {
  id: string;
  mined: Mined;
  head: bigint;
  rail: EvmRail;
}

/**
 * What the batches need from the engine: its one-at-a-time steps (each member is decided, signed,
 * sent and recorded by the same functions as on its own) and its view of the run (top-ups read
 * ahead, receipts left to sign steps). OutboundEngine hands them in; the batches hold no engine.
 */
export interface BatchSteps {
  /** A transfer moved on the one-at-a-time way (OutboundEngine.advance). */
  advance(id: string, depth?: number, known?: { row: Transfer; attempts: Attempt[] }): Promise<Transfer>;
  signFacts(
    t: Transfer,
    attempts: Attempt[],
    rail: EvmRail,
    head: bigint,
  ): Promise<SignFacts | { wait: OutboundWaitReason; message: string }>;
  /** A sign step's decision under the row's lock, in `m` (`batch`: the row locked already, the attempts stored together). */
  decideAndSign(
    m: EntityManager,
    read: Transfer,
    attemptCount: number,
    facts: SignFacts,
    recorded: Transfer[],
    batch?: {
      locked: { row: Transfer; attempts: number };
      attempts: Attempt[];
      opened?: Opened | null;
      signLater?: boolean;
    },
  ): Promise<SignOutcome>;
  /** The sign decision of `t` (locked) on its facts, commitments and top-ups read under the lock. */
  decide(
    t: Transfer,
    facts: SignFacts,
    committed: Parameters<typeof decideSign>[0]['committed'],
    topUps: Transfer[],
  ): { decision: SignDecision; open: Transfer[] };
  signedAttempt(
    t: Transfer,
    n: number,
    nonce: bigint,
    facts: SignFacts,
    decision: { valueAtomic: bigint; amountAtomic: bigint },
    now: Date,
  ): Promise<Attempt>;
  /** A gas transaction from the gas tank paying exactly `amountAtomic` to the sender of `t`, for `t`. */
  topUpRow(t: Transfer, amountAtomic: bigint, now: Date): Transfer;
  broadcast(t: Transfer, attempt: Attempt, rail: EvmRail, head: bigint): Promise<Transfer>;
  note(id: string, reason: OutboundWaitReason | null, message: string): Promise<Transfer>;
  recordReceipt(id: string, mined: Mined, head: bigint, rail: EvmRail): Promise<Transfer>;
  applyReceipt(
    m: EntityManager,
    t: Transfer,
    mined: Mined,
    head: bigint,
    rail: EvmRail,
    plannedTopUps?: Transfer[],
  ): Promise<Transfer>;
  recordBroadcast(id: string, attempt: Attempt, head: bigint, refusal: string | null): Promise<Transfer>;
  keepSender(t: Transfer): void;
  /** A top-up as a step left it, in its transfer's run view. */
  keepTopUp(u: Transfer): void;
  /** Top-up receipts left to sign steps that a committed transaction recorded. */
  receiptsCommitted(recorded: Transfer[]): void;
  /** Whether a top-up receipt of `parentId` is left to its sign step. */
  hasLeftReceipt(parentId: string): boolean;
  /** The run's view of `id`'s top-ups, when the run read it ahead. */
  runTopUpsOf(id: string): Transfer[] | undefined;
}

export class OutboundBatches {
  /**
   * The gas tank's top-ups that sign steps of a run's lanes inserted, by rail (`chain/network`):
   * signed together when the lanes are done (signTopUpsTogether), up to TOP_UP_BATCH at a time.
   * Present only while a run of that rail is in progress; outside a run a top-up is signed at once.
   */
  private readonly runNewTopUps = new Map<string, Transfer[]>();

  /**
   * Token transfers of a run's lanes whose sign step found they cannot pay their own fee (a gas
   * top-up is due), by rail: decided, with their top-ups inserted already signed, together once
   * the lanes are done (decideTopUpsTogether), TOP_UP_BATCH at a time. Present only while a run
   * of that rail is in progress.
   */
  private readonly runTopUpDecisions = new Map<string, Array<{ t: Transfer; facts: SignFacts }>>();

  /**
   * Token transfers of a run's lanes whose sign step found they can pay their own fee (first
   * attempts from deposits), by rail: signed together once the lanes are done (signTogether),
   * TOP_UP_BATCH at a time. Present only while a run of that rail is in progress.
   */
  private readonly runSignBatches = new Map<string, Array<{ t: Transfer; facts: SignFacts }>>();

  /**
   * Broadcasts of the run's lanes recorded together: one database transaction for the ones that
   * reach this point together (recordBroadcastsTogether).
   */
  readonly broadcasts = new Gather<BroadcastRecord, Transfer>((items) => this.recordBroadcastsTogether(items));

  /** Receipts the run's lanes found, recorded together (recordReceiptsTogether). */
  readonly receipts = new Gather<ReceiptRecord, Transfer>((items) => this.recordReceiptsTogether(items));

  constructor(
    private readonly ctx: SignerContext,
    private readonly claims: SourceClaims,
    private readonly steps: BatchSteps,
  ) {}

  /**
   * A top-up a lane's sign step of `t` inserted, gathered for the run's top-up batches
   * (signTopUpsTogether): false when no run of `t`'s rail is in progress (it is signed at once).
   */
  gatherNewTopUp(t: Transfer, inserted: Transfer): boolean {
    const batch = this.runNewTopUps.get(`${t.chain}/${t.network}`);
    if (!batch) return false;
    batch.push({ ...inserted });
    return true;
  }

  /**
   * A run of the rail `chain/network` (EvmOutboundRail.run): the top-ups its lanes insert are
   * gathered, and signed together (TOP_UP_BATCH at a time, in the tank's serial lane) once `fn`
   * is done; a top-up not signed here (it waits, or an error) is planned and the next run's
   * top-ups step moves it on.
   */
  async withTopUpBatches<T>(chain: string, network: Network, fn: () => Promise<T>): Promise<T> {
    const key = `${chain}/${network}`;
    if (this.runNewTopUps.has(key)) return fn(); // already gathering for this rail (a nested call)
    const gathered: Transfer[] = [];
    const decisions: Array<{ t: Transfer; facts: SignFacts }> = [];
    const signs: Array<{ t: Transfer; facts: SignFacts }> = [];
    this.runNewTopUps.set(key, gathered);
    this.runTopUpDecisions.set(key, decisions);
    this.runSignBatches.set(key, signs);
    try {
      return await fn();
    } finally {
      // the lanes are done: the sign steps and top-up decisions they deferred are made in batches,
      // then the new top-ups any step inserted are signed in batches
      this.runSignBatches.delete(key);
      // SIGN_BATCHES_IN_FLIGHT of these loops share `nextSign`: each takes the next members left
      let nextSign = 0;
      const signBatches = async () => {
        while (nextSign < signs.length) {
          const members = signs.slice(nextSign, nextSign + TOP_UP_BATCH);
          nextSign += members.length;
          // an error after its commit (the signed rows are sent by the next run: rule 3) leaves none to redo
          const back = await this.signTogether(members).catch((err: Error) => {
            this.ctx.logger.warn(
              `a batch of ${members.length} signs stopped (${err.message}); the next run moves it on`,
            );
            return [];
          });
          // the one-at-a-time way: a busy row, a failed transaction (a top-up it decides joins the batches below)
          await this.aloneAfterBatch(chain, network, back);
        }
      };
      const tank = this.ctx.keyring.gasTankAddress;
      let nextDecision = 0;
      const decisionsBack: Array<{ t: Transfer; facts: SignFacts }> = [];
      const decisionBatches = async () => {
        while (nextDecision < decisions.length) {
          const parents = decisions.slice(nextDecision, nextDecision + TOP_UP_BATCH);
          nextDecision += parents.length;
          const back = await this.ctx
            .serial(chain, network, tank, () => this.decideTopUpsTogether(parents))
            .catch(() => parents);
          decisionsBack.push(...back);
        }
      };
      // SIGN_BATCHES_IN_FLIGHT sign batches side by side and the top-up decisions beside them: their
      // members are distinct transfers of distinct deposits (each locks its own row, its deposit's
      // source and its top-ups; only a top-up decided takes the tank's lock, after them), and each
      // batch commits every signature and nonce before it sends any (rule 8)
      await Promise.all([...Array.from({ length: SIGN_BATCHES_IN_FLIGHT }, signBatches), decisionBatches()]);
      // then the decisions the signs' one-at-a-time steps deferred meanwhile (the map still took
      // them; with it gone, none is added), and what the decisions left goes the one-at-a-time way
      // (its top-up, if any, is gathered below): a busy row, a failed transaction
      this.runTopUpDecisions.delete(key);
      await decisionBatches();
      await this.aloneAfterBatch(chain, network, decisionsBack);
      this.runNewTopUps.delete(key);
      for (let i = 0; i < gathered.length; i += TOP_UP_BATCH) {
        const rows = gathered.slice(i, i + TOP_UP_BATCH);
        const settled = await this.ctx
          .serial(chain, network, tank, () => this.signTopUpsTogether(rows))
          .catch((error: unknown) => rows.map(() => ({ ok: false as const, error })));
        for (const [j, r] of settled.entries()) {
          if (!r.ok) {
            this.ctx.logger.warn(
              `outbound ${rows[j].id}: the gas top-up was not sent (${(r.error as Error)?.message}); the next run moves it on`,
            );
          }
        }
      }
    }
  }

  /**
   * The gas tank's new top-ups of one rail signed together (docs/money-out.md › Why a crash never
   * pays twice, rule 2 per member): their facts read first (the tank's balance at the run's
   * pinned block, one pending nonce), then ONE database transaction locks the rows (SKIP LOCKED),
   * checks each one's destination, takes the tank's source lock once, reads the tank's
   * commitments once and decides each member in order with the earlier members of the batch
   * counted as committed, allocates the signed members' nonces in one statement, signs them and
   * stores every attempt (one statement) and row, and commits; only then is any of them sent, all
   * in one JSON-RPC batch, and their broadcasts recorded together (recordBroadcastsTogether).
   * A member that waits (the tank low, a destination refused) writes its reason and takes no
   * nonce; a member another transaction holds, or whose facts say wait, or every member when the
   * transaction fails, goes the one-at-a-time way (advance) afterwards. Runs in the tank's serial lane.
   */
  private async signTopUpsTogether(rows: Transfer[]): Promise<Array<Settled<Transfer>>> {
    const alone = (u: Transfer) => settle(this.steps.advance(u.id, 1, { row: { ...u }, attempts: [] }));
    const out = new Map<string, Settled<Transfer>>();
    // a batch of one is the one-at-a-time step; a row given twice is not batched
    const batchable = rows.length > 1 && new Set(rows.map((u) => u.id)).size === rows.length;
    const { chain, network } = rows[0];
    const rail = this.ctx.rail(chain, network);
    const members: Array<{ t: Transfer; facts: SignFacts }> = [];
    if (batchable) {
      try {
        const head = await rail.head();
        for (const u of rows) {
          this.steps.keepSender(u);
          const facts = await this.steps.signFacts(u, [], rail, head);
          // a top-up of the tank: exact, native, first attempt; the batch shares one block and pending nonce
          const fits =
            !('wait' in facts) &&
            u.state === 'planned' &&
            u.nonce === null &&
            u.purpose === 'gas' &&
            u.tokenAddress === null &&
            u.amountMode === 'exact' &&
            u.fromAddress === this.ctx.keyring.gasTankAddress &&
            facts.pendingNonce !== null &&
            (members.length === 0 ||
              (members[0].facts.block === facts.block && members[0].facts.pendingNonce === facts.pendingNonce));
          if (fits) members.push({ t: u, facts: facts as SignFacts });
        }
      } catch {
        members.length = 0; // every member on its own, below
      }
    }
    let signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    if (members.length > 1) {
      try {
        const done = await this.ctx.db.transaction((m) => this.decideAndSignTopUps(m, members));
        for (const [id, row] of done.left) out.set(id, { ok: true, value: row });
        signed = done.signed;
      } catch {
        out.clear();
        signed = [];
      }
    }
    if (signed.length > 0) {
      const sent = await this.sendTogether(rail, signed);
      signed.forEach(({ row }, i) => out.set(row.id, sent[i]));
    }
    const settled: Array<Settled<Transfer>> = [];
    for (const u of rows) {
      const r = out.get(u.id) ?? (await alone(u));
      if (r.ok && r.value.purpose === 'gas') this.steps.keepTopUp(r.value);
      settled.push(r);
    }
    return settled;
  }

  /** signTopUpsTogether's database transaction: the signed members, and the rows of those that wait or moved. */
  private async decideAndSignTopUps(
    m: EntityManager,
    members: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<{ signed: Array<{ row: Transfer; attempt: Attempt }>; left: Map<string, Transfer> }> {
    const left = new Map<string, Transfer>();
    const locked = await this.ctx.repo.lockCountingMany(
      m,
      members.map(({ t }) => t.id),
    );
    const now = this.ctx.now();
    const candidates: Array<{ t: Transfer; facts: SignFacts }> = [];
    for (const { t: read, facts } of members) {
      const l = locked.get(read.id);
      if (!l) continue; // held by another transaction: on its own afterwards
      if (!unchanged(l.row, read, l.attempts, 0)) {
        left.set(read.id, l.row); // another process moved it meanwhile
        continue;
      }
      // docs/money-out.md › Destinations: each member's gas leg is checked, under its row's lock
      if (await refuseUnverifiedDestination(this.ctx, m, l.row, now)) {
        left.set(read.id, l.row);
        continue;
      }
      candidates.push({ t: l.row, facts });
    }
    if (candidates.length === 0) return { signed: [], left };
    const first = candidates[0];
    const tank = { chain: first.t.chain, network: first.t.network, address: first.t.fromAddress };
    await this.claims.lock(m, tank, now);
    const base = await this.ctx.repo.commitments(m, first.t, null, first.facts.block);
    // the batch's earlier members count as committed, as their rows would once signed
    const committed = { ...base };
    const decided: Array<{ t: Transfer; facts: SignFacts; decision: { valueAtomic: bigint; amountAtomic: bigint } }> =
      [];
    for (const c of candidates) {
      const decision = decideSign({
        mode: c.t.amountMode,
        isToken: false,
        requested: c.t.amountAtomic,
        gasFromTank: false,
        fromGasTank: true,
        gasLimit: c.facts.gasLimit,
        price: c.facts.quote.price,
        funds: c.facts.funds,
        committed: { ...committed },
        openTopUps: 0,
      });
      if (decision.action === 'sign') {
        decided.push({ ...c, decision });
        committed.native += c.facts.gasLimit * c.facts.quote.price + decision.valueAtomic;
        committed.count += 1;
        continue;
      }
      const reason = decision.action === 'wait' ? decision.reason : 'gas_tank_low';
      const message = decision.action === 'wait' ? decision.message : 'the gas tank cannot top itself up';
      await this.ctx.write(m, Object.assign(c.t, { waitReason: reason, error: message, updatedAt: now }), null);
      left.set(c.t.id, c.t);
    }
    if (decided.length === 0) return { signed: [], left };
    const firstNonce = await this.ctx.repo.allocateNonce(
      m,
      tank,
      decided[0].facts.pendingNonce as bigint,
      now,
      decided.length,
    );
    const signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    for (const [i, { t, facts, decision }] of decided.entries()) {
      const nonce = firstNonce + BigInt(i);
      const attempt = await this.steps.signedAttempt(t, 1, nonce, facts, decision, now);
      markSigned(t, attempt, facts, now, now);
      signed.push({ row: t, attempt });
    }
    // every signed byte, nonce and signed_at of the batch commits together, before any is sent
    await this.ctx.repo.insertAttempts(
      m,
      signed.map((x) => x.attempt),
    );
    for (const { row, attempt } of signed) await this.ctx.write(m, row, attempt.txHash);
    return { signed, left };
  }

  /** Members a batch left (a busy row, a failed transaction), each moved on the one-at-a-time way. */
  private async aloneAfterBatch(
    chain: string,
    network: Network,
    back: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<void> {
    for (const p of back) {
      const r = await settle(this.ctx.serial(chain, network, p.t.fromAddress, () => this.steps.advance(p.t.id)));
      if (!r.ok) {
        this.ctx.logger.warn(
          `outbound ${p.t.id}: its sign step failed (${(r.error as Error)?.message}); the next run moves it on`,
        );
      }
    }
  }

  /**
   * Whether the lane's sign step of `t` leaves it to the run's sign batch (signTogether): a
   * deposit's token transfer, never signed, whose facts say it can pay its fee (its pending nonce
   * was read). Nothing is written for it here; the batch decides under its locks as the sign step
   * would, and a member it does not take goes the one-at-a-time way after it.
   */
  defersSign(t: Transfer, attempts: Attempt[], facts: SignFacts): boolean {
    const signs = this.runSignBatches.get(`${t.chain}/${t.network}`);
    if (!signs || !this.runNewTopUps.has(`${t.chain}/${t.network}`)) return false;
    if (!neverSignedDepositTransfer(t, attempts) || facts.pendingNonce === null) return false;
    signs.push({ t: { ...t }, facts });
    return true;
  }

  /**
   * The sign steps of several senders' token transfers in ONE database transaction
   * (docs/money-out.md › Why a crash never pays twice, rule 8): the rows locked in one statement
   * (SKIP LOCKED, id order), then each member decided exactly as its own sign step decides it
   * (decideAndSign: the row still where its facts were read, its destination, its deposit's source
   * lock, claims, commitments, its top-ups locked and the receipts left to it recorded, then sign,
   * top up or wait; the opening read for the members together, one statement per step:
   * openTogether), the signed members' nonces allocated in one statement (signDue), every signed
   * member's attempt stored in one statement, commit; only then is any sent (one JSON-RPC batch).
   * A member that waits or needs a top-up takes no nonce (its top-up joins the run's top-up batch). Answers the members left to the one-at-a-time way: held by
   * another transaction, or every one when the transaction fails (nothing of it is written).
   */
  private async signTogether(
    members: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<Array<{ t: Transfer; facts: SignFacts }>> {
    const { chain, network } = members[0].t;
    const rail = this.ctx.rail(chain, network);
    const back: Array<{ t: Transfer; facts: SignFacts }> = [];
    const recorded: Transfer[] = [];
    const outcomes: SignOutcome[] = [];
    try {
      await this.ctx.db.transaction(async (m) => {
        const locked = await this.ctx.repo.lockCountingMany(
          m,
          members.map(({ t }) => t.id),
        );
        const attempts: Attempt[] = [];
        const opened = await this.openTogether(m, members, locked);
        // the members opened together are decided first and those that sign get their nonces
        // together; then the others (moved, or a second member of one sender: its decision counts
        // the first one's signature), each in its turn
        const later: Array<{ t: Transfer; facts: SignFacts }> = [];
        const due: SignDue[] = [];
        for (const x of members) {
          const l = locked.get(x.t.id);
          if (!l) {
            back.push(x); // held by another transaction: on its own afterwards
            continue;
          }
          if (!opened.has(x)) {
            later.push(x);
            continue;
          }
          const batch = { locked: l, attempts, opened: opened.get(x), signLater: true };
          const o = await this.steps.decideAndSign(m, x.t, 0, x.facts, recorded, batch);
          if (o.kind === 'sign') due.push({ row: o.row, facts: x.facts, decision: o.decision });
          else outcomes.push(o);
        }
        outcomes.push(...(await this.signDue(m, due, attempts)));
        for (const x of later) {
          const batch = { locked: locked.get(x.t.id) as { row: Transfer; attempts: number }, attempts };
          outcomes.push(await this.steps.decideAndSign(m, x.t, 0, x.facts, recorded, batch));
        }
        // every signed byte, nonce and signed_at of the batch commits together, before any is sent
        if (attempts.length > 0) await this.ctx.repo.insertAttempts(m, attempts);
      });
    } catch {
      return members; // nothing written: every one on its own
    }
    // top-up receipts the batch recorded have committed with it
    this.steps.receiptsCommitted(recorded);
    const topUps = this.runNewTopUps.get(`${chain}/${network}`);
    for (const o of outcomes) {
      if (o.kind !== 'top_up') continue;
      this.steps.keepTopUp(o.inserted);
      topUps?.push({ ...o.inserted }); // signed with the run's other new top-ups
    }
    const signed = outcomes.flatMap((o) => (o.kind === 'signed' ? [o] : []));
    if (signed.length > 0) {
      await this.sendTogether(rail, signed);
    }
    return back;
  }

  /**
   * The members of a sign batch decided to sign (distinct senders, each source locked): their
   * nonces allocated in one statement, each signed, its attempt kept for the batch's one insert
   * and its row written with it, as its own sign step signs it (rule 2: all commit together).
   */
  private async signDue(m: EntityManager, due: SignDue[], attempts: Attempt[]): Promise<SignOutcome[]> {
    if (due.length === 0) return [];
    for (const { row, facts } of due) {
      if (facts.pendingNonce === null) {
        // unreachable: a member that can pay its fee had its pending nonce read (defersSign)
        throw new Error(`outbound ${row.id}: no pending nonce read for ${row.fromAddress}; not signing`);
      }
    }
    const now = this.ctx.now();
    const nonces = await this.ctx.repo.allocateNonces(
      m,
      due.map(({ row, facts }) => ({
        key: { chain: row.chain, network: row.network, address: row.fromAddress },
        pendingOnChain: facts.pendingNonce as bigint,
      })),
      now,
    );
    const out: SignOutcome[] = [];
    for (const [i, { row, facts, decision }] of due.entries()) {
      const attempt = await this.steps.signedAttempt(row, 1, nonces[i], facts, decision, now);
      attempts.push(attempt);
      markSigned(row, attempt, facts, row.signedAt ?? now, now);
      await this.ctx.write(m, row, attempt.txHash);
      out.push({ kind: 'signed', row, attempt });
    }
    return out;
  }

  /**
   * The sign decisions of a batch's locked members opened together (openSignDecisions: one
   * statement per step for all), those still where their facts were read whose sender no earlier
   * member has; their top-ups locked where the run left receipts of them (rule 7). The others
   * (moved, or a second member of one sender) open their own decision in turn, after the earlier
   * members' writes. Answers what each member's opening read (null: it waits, written).
   */
  private async openTogether(
    m: EntityManager,
    members: Array<{ t: Transfer; facts: SignFacts }>,
    locked: Map<string, { row: Transfer; attempts: number }>,
  ): Promise<Map<{ t: Transfer; facts: SignFacts }, Opened | null>> {
    const ready = members.filter((x) => {
      const l = locked.get(x.t.id);
      return l !== undefined && unchanged(l.row, x.t, l.attempts, 0);
    });
    const together = [...firstOfEachSender(ready)];
    const opened = await openSignDecisions(
      this.ctx,
      this.claims,
      m,
      together.map((x) => ({ t: (locked.get(x.t.id) as { row: Transfer }).row, block: x.facts.block, newest: null })),
      this.ctx.now(),
      (t) => this.steps.hasLeftReceipt(t.id),
    );
    return new Map(together.map((x, i) => [x, opened[i]]));
  }

  /**
   * Whether the lane's sign step of `t` leaves its decision to the run's top-up batch
   * (decideTopUpsTogether): a deposit's token transfer, never signed, that its facts say cannot
   * pay its own fee (so no pending nonce was read: it cannot sign now), with no top-up open in the
   * run's view and no top-up receipt left to it. Nothing is written for it here; the batch decides
   * again under its locks, and whatever it does not decide goes the one-at-a-time way after it.
   */
  defersTopUpDecision(t: Transfer, attempts: Attempt[], facts: SignFacts): boolean {
    const rail = `${t.chain}/${t.network}`;
    const decisions = this.runTopUpDecisions.get(rail);
    if (!decisions || !this.runNewTopUps.has(rail)) return false;
    if (!neverSignedDepositTransfer(t, attempts) || facts.pendingNonce !== null) return false;
    const view = this.steps.runTopUpsOf(t.id);
    if (!view || view.some((u) => u.state !== 'failed' && u.state !== 'cancelled')) return false;
    if (this.steps.hasLeftReceipt(t.id)) return false;
    decisions.push({ t: { ...t }, facts });
    return true;
  }

  /**
   * The top-up decisions of a run's token transfers made together, each with its top-up signed in
   * the same database transaction (docs/money-out.md › Why a crash never pays twice, rule 8): the
   * tank's facts first (its balance at the run's pinned block, one pending nonce: a plain transfer
   * to our own deposit key), then ONE database transaction locks the transfers (SKIP LOCKED),
   * checks each is where its facts were read, opens their decisions together (openSignDecisions:
   * their destinations, their deposits' source locks, claims, commitments and top-ups, one
   * statement per step) and decides each as its own sign step would; a transfer that waits is
   * written as such; one that needs a top-up is written waiting for it (its fee fixed). Then the
   * tank's source lock once, its commitments once, the top-ups' gas legs checked together and each
   * decided in order with the earlier ones counted as committed, the signed ones' nonces in one
   * statement, the top-ups inserted in one (signed, or planned with why it waits, no nonce), every
   * attempt in one statement, commit; only then is any sent (one JSON-RPC
   * batch). Answers the transfers left to the one-at-a-time way: held by another transaction, facts
   * that do not fit the batch, or every one when the transaction fails. Runs in the tank's serial lane.
   */
  private async decideTopUpsTogether(
    parents: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<Array<{ t: Transfer; facts: SignFacts }>> {
    const { chain, network } = parents[0].t;
    const rail = this.ctx.rail(chain, network);
    const head = await rail.head();
    const now = this.ctx.now();
    const back: Array<{ t: Transfer; facts: SignFacts }> = [];
    const members: TopUpDecision[] = [];
    for (const p of parents) {
      const u = this.steps.topUpRow(p.t, 0n, now); // its amount is decided under the locks
      const uf = await this.steps.signFacts(u, [], rail, head);
      const fits =
        !('wait' in uf) &&
        uf.pendingNonce !== null &&
        uf.gasLimit === PLAIN_TRANSFER_GAS &&
        (members.length === 0 || (members[0].uf.block === uf.block && members[0].uf.pendingNonce === uf.pendingNonce));
      if (fits) members.push({ ...p, u, uf: uf as SignFacts });
      else back.push(p);
    }
    if (members.length === 0) return back;
    let done: { signed: Array<{ row: Transfer; attempt: Attempt }>; inserted: Transfer[] };
    try {
      done = await this.ctx.db.transaction((m) => this.decideWithTopUps(m, members, back));
    } catch {
      return parents; // nothing written: every one on its own
    }
    for (const u of done.inserted) this.steps.keepTopUp(u);
    if (done.signed.length > 0) {
      await this.sendTogether(rail, done.signed);
    }
    return back;
  }

  /**
   * Top-up decisions' openings (outbound-steps.ts), their top-ups never locked (a member the run
   * left receipts to goes the one-at-a-time way), none signed yet (newest null): null when it waits.
   */
  private openTopUpDecisions(m: EntityManager, members: TopUpDecision[], now: Date): Promise<Array<Opened | null>> {
    const toOpen = members.map((x) => ({ t: x.t, block: x.facts.block, newest: null }));
    return openSignDecisions(this.ctx, this.claims, m, toOpen, now, () => false);
  }

  /** decideTopUpsTogether's database transaction; `back` gets the members left to the one-at-a-time way. */
  private async decideWithTopUps(
    m: EntityManager,
    members: TopUpDecision[],
    back: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<{ signed: Array<{ row: Transfer; attempt: Attempt }>; inserted: Transfer[] }> {
    const locked = await this.ctx.repo.lockCountingMany(
      m,
      members.map(({ t }) => t.id),
    );
    const now = this.ctx.now();
    const due: TopUpDecision[] = [];
    const ready: TopUpDecision[] = [];
    for (const x of members) {
      const l = locked.get(x.t.id);
      if (!l || this.steps.hasLeftReceipt(x.t.id)) {
        back.push(x); // held by another transaction (or a receipt to record first): on its own afterwards
        continue;
      }
      if (!unchanged(l.row, x.t, l.attempts, 0)) continue; // another process moved it meanwhile
      ready.push({ ...x, t: l.row });
    }
    // as their own sign steps open (outbound-steps.ts): nothing is topped up for a destination the
    // API did not authorise, nor for an `all` leg another live leg's claim blocks; opened together
    // (one statement per step), a second member of one sender after the first's write
    const together = [...firstOfEachSender(ready)];
    const opens = await this.openTopUpDecisions(m, together, now);
    const opened = new Map(together.map((x, i) => [x, opens[i]]));
    for (const x of ready) {
      const t = x.t;
      const o = opened.has(x) ? opened.get(x) : (await this.openTopUpDecisions(m, [x], now))[0];
      if (!o) continue;
      const { decision, open } = this.steps.decide(t, x.facts, o.committed, o.topUps);
      if (decision.action === 'wait') {
        const reason =
          decision.reason === 'waiting_for_top_up' ? (open[0]?.waitReason ?? decision.reason) : decision.reason;
        await this.ctx.write(
          m,
          Object.assign(t, { waitReason: reason, error: decision.message, updatedAt: now }),
          null,
        );
        continue;
      }
      if (decision.action === 'sign') {
        back.push(x); // unreachable (its facts could not pay the fee): signs on its own afterwards
        continue;
      }
      // the fee is fixed now: the top-up pays exactly it
      await this.ctx.write(
        m,
        Object.assign(t, {
          ...feeColumns(x.facts.quote),
          gasLimit: x.facts.gasLimit,
          waitReason: 'waiting_for_top_up' as const,
          error: null,
          updatedAt: now,
        }),
        null,
      );
      due.push({ t, facts: x.facts, u: Object.assign(x.u, { amountAtomic: decision.amountAtomic }), uf: x.uf });
    }
    if (due.length === 0) return { signed: [], inserted: [] };
    // the gas legs claim from the gas tank under its lock (after the senders': always this order)
    const first = due[0];
    const tank = { chain: first.u.chain, network: first.u.network, address: first.u.fromAddress };
    await this.claims.lock(m, tank, now);
    const committed = { ...(await this.ctx.repo.commitments(m, first.u, null, first.uf.block)) };
    const decided: Array<{ u: Transfer; uf: SignFacts; decision: { valueAtomic: bigint; amountAtomic: bigint } }> = [];
    // docs/money-out.md › Destinations: each gas leg checked before it is signed (its transfer is
    // written above; a refused top-up is inserted below, waiting with the reason), read together
    const refusals = await destinationRefusals(
      this.ctx,
      m,
      due.map(({ u }) => u),
    );
    for (const [i, { u, uf }] of due.entries()) {
      const refusal = refusals[i];
      if (refusal !== null) {
        Object.assign(u, { waitReason: 'destination_unverified' as const, error: refusal });
        continue;
      }
      const decision = decideSign({
        mode: u.amountMode,
        isToken: false,
        requested: u.amountAtomic,
        gasFromTank: false,
        fromGasTank: true,
        gasLimit: uf.gasLimit,
        price: uf.quote.price,
        funds: uf.funds,
        committed: { ...committed },
        openTopUps: 0,
      });
      if (decision.action === 'sign') {
        decided.push({ u, uf, decision });
        committed.native += uf.gasLimit * uf.quote.price + decision.valueAtomic;
        committed.count += 1;
        continue;
      }
      Object.assign(u, {
        waitReason: decision.action === 'wait' ? decision.reason : 'gas_tank_low',
        error: decision.action === 'wait' ? decision.message : 'the gas tank cannot top itself up',
      });
    }
    const signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    if (decided.length > 0) {
      const pending = decided[0].uf.pendingNonce as bigint;
      const firstNonce = await this.ctx.repo.allocateNonce(m, tank, pending, now, decided.length);
      for (const [i, { u, uf, decision }] of decided.entries()) {
        const attempt = await this.steps.signedAttempt(u, 1, firstNonce + BigInt(i), uf, decision, now);
        markSigned(u, attempt, uf, now, now);
        signed.push({ row: u, attempt });
      }
    }
    // each top-up inserted as decided: signed (its nonce, fee and signed_at in the insert), or planned with why it waits
    await this.ctx.repo.insertPlannedMany(
      m,
      due.map(({ u }) => u),
    );
    // every signed byte, nonce and signed_at of the batch commits together, before any is sent
    if (signed.length > 0) {
      await this.ctx.repo.insertAttempts(
        m,
        signed.map((x) => x.attempt),
      );
    }
    return { signed, inserted: due.map(({ u }) => u) };
  }

  /**
   * A batch's signed members handed to the node once their signatures and nonces have committed
   * (docs/money-out.md › Why a crash never pays twice, rule 8): made together, one JSON-RPC batch
   * (EvmRpc), each recorded through the gathered records; a member the node refuses keeps the
   * error on its row, and the others are not held back by it.
   */
  private async sendTogether(
    rail: EvmRail,
    signed: Array<{ row: Transfer; attempt: Attempt }>,
  ): Promise<Array<Settled<Transfer>>> {
    this.ctx.crashPoint('after_sign');
    const head = await rail.head();
    return Promise.all(
      signed.map(({ row, attempt }) =>
        settle(
          this.steps.broadcast(row, attempt, rail, head).catch(async (err: Error) => {
            await this.steps.note(row.id, 'rpc_error', `${err.message}`.slice(0, 1000)).catch(() => undefined);
            throw err;
          }),
        ),
      ),
    );
  }

  /**
   * Several broadcasts recorded in one database transaction: the rows locked in one statement
   * (`SKIP LOCKED`, in id order: the step never waits for a row lock, so it never deadlocks), the
   * attempts' broadcast columns in one statement, the rows still `signed` moved to `submitted` in
   * one, then each one's purpose (sweep or refund) follows, as `recordBroadcast` does for one.
   * Recording moves no coin (docs/money-out.md › Why a crash never pays twice, rule 3): a member
   * whose row another transaction holds, or every member when the transaction fails (a purpose's
   * row busy: its NOWAIT lock aborts it), is recorded on its own afterwards, each in its own
   * transaction, so one refused member never holds back or changes the others.
   */
  private recordBroadcastsTogether(items: BroadcastRecord[]): Promise<Array<Settled<Transfer>>> {
    return this.recordTogether(
      items,
      (r) => this.steps.recordBroadcast(r.id, r.attempt, r.head, r.refusal),
      async (m, locked) => {
        const mine = items.filter((r) => locked.has(r.id));
        const out = new Map<string, Transfer>();
        if (mine.length === 0) return out;
        const now = this.ctx.now();
        const refusal = (r: BroadcastRecord) => (r.refusal === null ? null : redactRpcText(r.refusal).slice(0, 1000));
        await this.ctx.repo.recordBroadcasts(
          m,
          mine.map((r) => ({ transferId: r.id, attempt: r.attempt.attempt, head: r.head, refusal: refusal(r) })),
          now,
        );
        const submitted: BroadcastRecord[] = [];
        for (const r of mine) {
          const t = (locked.get(r.id) as { row: Transfer }).row;
          out.set(r.id, t);
          if (t.state !== 'signed') continue;
          Object.assign(t, {
            state: 'submitted',
            submittedAt: t.submittedAt ?? now,
            waitReason: null,
            error: refusal(r),
            updatedAt: now,
          });
          submitted.push(r);
        }
        if (submitted.length === 0) return out;
        await this.ctx.repo.markSubmitted(
          m,
          submitted.map((r) => out.get(r.id) as Transfer),
        );
        for (const r of submitted) {
          // the purpose's row shows the newest stored attempt: this one, unless a later one is stored (then read)
          const newest = (locked.get(r.id) as { attempts: number }).attempts === r.attempt.attempt;
          await this.ctx.follow(m, out.get(r.id) as Transfer, newest ? r.attempt.txHash : undefined);
        }
        return out;
      },
    );
  }

  /**
   * Several receipts recorded in one database transaction: the rows locked in one statement
   * (`SKIP LOCKED`, id order), then each written as `recordReceipt` writes one (its purpose follows:
   * a sweep's completion and settlement.completed commit with it). Recording a receipt moves no
   * coin (rule 3: the next run finds it again): a member whose row another transaction holds, or
   * every member when the transaction fails (a purpose's row busy), is recorded on its own afterwards.
   */
  private recordReceiptsTogether(items: ReceiptRecord[]): Promise<Array<Settled<Transfer>>> {
    return this.recordTogether(
      items,
      (r) => this.steps.recordReceipt(r.id, r.mined, r.head, r.rail),
      async (m, locked) => {
        const out = new Map<string, Transfer>();
        // the planned top-ups a final receipt cancels, of every locked member in one read (checked again under their locks)
        const parents = items.flatMap((r) => {
          const t = locked.get(r.id)?.row;
          return t && !isFinalOutboundState(t.state) && gasFromTank(t) ? [r.id] : [];
        });
        const planned = parents.length > 0 ? await this.ctx.repo.plannedTopUpsOf(m, parents) : [];
        for (const r of items) {
          const t = locked.get(r.id)?.row;
          if (!t) continue;
          const known = planned.filter((u) => u.parentId === r.id);
          out.set(
            r.id,
            isFinalOutboundState(t.state) ? t : await this.steps.applyReceipt(m, t, r.mined, r.head, r.rail, known),
          );
        }
        return out;
      },
    );
  }

  /**
   * Records of several transfers in one database transaction (their rows locked in one statement,
   * `SKIP LOCKED`, id order: `write` gets what it locked and answers the rows it wrote); a member it
   * did not write (its row held elsewhere), or every member when the transaction fails, is
   * recorded `alone` afterwards, in its own transaction. Recording moves no coin (docs/money-out.md ›
   * Why a crash never pays twice, rule 3), so a member recorded late is only late.
   */
  private async recordTogether<R extends { id: string }>(
    items: R[],
    alone: (r: R) => Promise<Transfer>,
    write: (
      m: EntityManager,
      locked: Map<string, { row: Transfer; attempts: number }>,
    ) => Promise<Map<string, Transfer>>,
  ): Promise<Array<Settled<Transfer>>> {
    const ids = items.map((r) => r.id);
    let done = new Map<string, Transfer>();
    if (items.length > 1 && new Set(ids).size === ids.length) {
      try {
        done = await this.ctx.db.transaction(async (m) => write(m, await this.ctx.repo.lockCountingMany(m, ids)));
      } catch {
        done = new Map(); // every member on its own, below
      }
    }
    const settled: Array<Settled<Transfer>> = [];
    for (const r of items) {
      const t = done.get(r.id);
      settled.push(t ? { ok: true, value: t } : await settle(alone(r)));
    }
    return settled;
  }
}
