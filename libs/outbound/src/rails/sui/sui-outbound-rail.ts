// The Sui family's outbound rail (outbound/outbound-rail.ts; issue 22): every payout and refund is
// one sponsored transaction — sender the deposit address (or the workspace's refund wallet), gas
// owner the Sui gas tank — so no top-up leg exists and the sender never needs SUI. Crash-safe as on
// EVM: the row, then (one db transaction) the signed bytes, their digest and the fence, then the
// execution; on every step the digests of all stored attempts are looked up first, so a process
// killed after signing executes the same bytes again and one killed after execution finds the
// effects. The fence of an attempt is its gas coin and input coins at the versions it was built on
// plus its expiration epoch: a new attempt is signed only when the node does not know the digest
// and one of those objects moved on or the epoch passed (sui-sponsored.ts › fenceDead).
//
// Gas coins are handed out once: picking a coin happens under the tank's source lock, and a coin
// (or an input coin) at the version an open attempt's fence names is never used again. A gas coin
// is used again as soon as the effects of the transaction that paid with it are known: its new
// version comes back in them (as a wallet does, no checkpoint or index needed), and this process
// keeps the tank's coins at the newest versions it knows (the node's listing, or the effects).
//
// A run (`run`, a payout tick) reads the reference gas price, the epoch and the tank's coins once,
// and the effects of every stored attempt of its open transfers in one request; its transfers
// advance SUI_CONCURRENT_SENDERS senders side by side (one sender's in order: rail-runner.ts).
import type { EntityManager } from 'typeorm';
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import {
  family,
  redactRpcText,
  SUI_COIN_TYPE,
  SuiCoin,
  SuiNode,
  type ChainConfig,
  type TokenConfig,
} from '@svc/chains';
import { preparedStatement } from '@svc/core';
import { OutboundAttemptEntity } from '@svc/db';
import { isFinalOutboundState, type OutboundFence, type OutboundState, type OutboundWaitReason } from '@svc/domain';
import type { SignerContext } from '../../context';
import type { SignerKeyRef } from '../../keys/keyring';
import type { SuiKeyring } from '../../keys/sui-keyring';
import { OutboundNotFoundError, OutboundRequestError } from '../../outbound/outbound.errors';
import type { OutboundRail } from '../../outbound/outbound-rail';
import { inclusionState, type FamilyFence, type OutboundTransfer } from '../../outbound/outbound-transfer';
import type { TransferRequest } from '../../outbound/outbound.service';
import type { SourceClaims } from '../../outbound/claims';
import { refuseUnverifiedDestination } from '../../outbound/outbound-steps';
import type { PayCheck } from '../../outbound/pay-check';
import { SuiEffects, SuiExecuteOutcome, SuiFence, SuiSponsoredRail } from './sui-sponsored';

type Transfer = OutboundTransfer;
type SuiFenceJson = Extract<OutboundFence, { sui: unknown }>['sui'];

/** Gas units a sponsored transfer may use: its budget is this × the reference gas price. */
export const SUI_GAS_UNITS = 20_000n;
/** An attempt may execute in the epoch it was signed in and the next one (Sui's `Epoch(e)` expiration). */
const EXPIRY_EPOCHS = 1n;
/**
 * Senders a run advances side by side: a sweep's sender is its own deposit address, and what
 * sweeps share (the tank's gas coins) is picked under the tank's source lock. Each step holds at
 * most one pooled connection at a time (its reads, or its one db transaction, which reads nothing
 * through the pool), as EVM_CONCURRENT_SENDERS.
 */
export const SUI_CONCURRENT_SENDERS = 8;

/** What one run reads once (nested runs share the outer one's). */
interface SuiRunReads {
  price: Promise<bigint> | null;
  epoch: Promise<bigint> | null;
  tank: Promise<void> | null;
  /** the effects of the open transfers' stored attempts at the start of the run (null: unknown then) */
  effects: Map<string, SuiEffects | null>;
}

const keyOf = (t: Transfer): SignerKeyRef => ({ kind: t.fromKeyKind, index: t.fromKeyIndex });
const coinKey = (c: { objectId: string; version: string }) => `${normalizeSuiAddress(c.objectId)}@${c.version}`;
const ref = (a: OutboundAttemptEntity) => ({ transferId: a.transactionId, attempt: a.attempt });
const sum = (coins: SuiCoin[]) => coins.reduce((s, c) => s + c.balance, 0n);

function fenceJson(f: SuiFence): FamilyFence {
  return {
    sui: {
      gasCoin: f.gasCoin,
      inputs: f.inputs,
      expirationEpoch: f.expirationEpoch === null ? null : f.expirationEpoch.toString(),
    },
  };
}

function fenceOfJson(f: SuiFenceJson): SuiFence {
  return {
    gasCoin: f.gasCoin,
    inputs: f.inputs,
    expirationEpoch: f.expirationEpoch === null ? null : BigInt(f.expirationEpoch),
  };
}

function suiFenceOf(a: OutboundAttemptEntity): SuiFence {
  if (!('sui' in a.fence)) throw new Error(`attempt ${a.attempt} of ${a.transactionId} has no Sui fence`);
  return fenceOfJson(a.fence.sui);
}

type SignOutcome =
  | { kind: 'moved'; row: Transfer }
  // every gas coin that could pay is paying for an attempt of this process: its effects free it
  | { kind: 'busy' }
  | { kind: 'wait'; row: Transfer }
  | { kind: 'signed'; row: Transfer; attempt: OutboundAttemptEntity };

export class SuiOutboundRail implements OutboundRail {
  readonly feeFunding = 'sponsored' as const;
  readonly sponsored: SuiSponsoredRail;
  readonly concurrentSenders = SUI_CONCURRENT_SENDERS;
  private runReads: SuiRunReads | null = null;
  private runDepth = 0;
  /** The tank's gas coins (by normalised object id) at the newest versions this process knows. */
  private readonly tank = new Map<string, SuiCoin>();
  /** Gas coins an attempt of this process is paying with (→ its transfer), until the node answered its execution. */
  private readonly paying = new Map<string, string>();
  private coinWaiters: Array<() => void> = [];

  constructor(
    private readonly ctx: SignerContext,
    readonly config: ChainConfig,
    readonly keyring: SuiKeyring,
    private readonly claims: SourceClaims,
    node: SuiNode = new SuiNode(config.rpcUrls),
    private readonly gasUnits: bigint = SUI_GAS_UNITS,
  ) {
    this.sponsored = new SuiSponsoredRail(node, keyring);
  }

  get node(): SuiNode {
    return this.sponsored.node;
  }

  close(): Promise<void> {
    return this.node.close();
  }

  address(key: SignerKeyRef): Promise<string> {
    return this.keyring.addressOf(key);
  }

  parse(value: string, field: 'to' | 'token'): string {
    if (field === 'token') {
      try {
        return normalizeStructTag(value.trim());
      } catch {
        throw new OutboundRequestError(`token must be a Sui coin type (0x…::module::NAME), got "${value}".`);
      }
    }
    const address = family(this.config.kind).codec.depositAddressForm(value);
    if (address === null) throw new OutboundRequestError(`to must be a Sui address (0x + 64 hex), got "${value}".`);
    return address;
  }

  private coinType(token: string | null): string {
    return token === null ? SUI_COIN_TYPE : normalizeStructTag(token);
  }

  // ---- quote ------------------------------------------------------------------------------

  async check(req: TransferRequest): Promise<PayCheck> {
    const from = await this.address(req.from);
    const to = this.parse(req.to, 'to');
    const where = `${from} on ${this.config.chain}/${this.config.network}`;
    if (to === from) return { ok: false, waitReason: 'nothing_to_send', reason: 'a transfer to its own sender' };
    const type = this.coinType(req.token);
    const [reserved, coins, price, tankCoins] = await Promise.all([
      this.reserved(this.ctx.db.manager, null),
      this.node.coins(from, type),
      this.price(),
      this.tankCoins(),
    ]);
    const free = coins.filter((c) => !reserved.has(coinKey(c)));
    const held = sum(free);
    const budget = this.gasUnits * price;
    if (req.amount === 'all' && held === 0n) {
      return { ok: false, waitReason: 'nothing_to_send', reason: `${where}: holds no ${type}` };
    }
    const amount = req.amount === 'all' ? held : req.amount;
    if (held < amount) {
      return { ok: false, waitReason: 'balance_low', reason: `${where}: holds ${held} of ${type}, needs ${amount}` };
    }
    const tank = tankCoins.find((c) => !reserved.has(coinKey(c)) && c.balance >= budget);
    if (!tank) {
      return {
        ok: false,
        waitReason: 'gas_tank_low',
        reason: `the Sui gas tank ${this.keyring.gasTankAddress} has no free gas coin of ${budget} MIST`,
      };
    }
    return {
      ok: true,
      amountAtomic: amount,
      gasLimit: this.gasUnits,
      quote: { type: 'legacy', price },
      feeAtomic: budget,
      topUpAtomic: 0n,
      topUpFeeAtomic: 0n,
    };
  }

  // ---- the state machine ------------------------------------------------------------------

  async advance(id: string): Promise<Transfer> {
    const t = await this.ctx.repo.get(this.ctx.db.manager, id);
    if (!t) throw new OutboundNotFoundError(id);
    if (isFinalOutboundState(t.state)) return t;
    try {
      return await this.step(t);
    } catch (err) {
      await this.note(t.id, 'rpc_error', `${(err as Error).message}`.slice(0, 1000)).catch(() => undefined);
      throw err;
    }
  }

  private async step(t: Transfer): Promise<Transfer> {
    const attempts = await this.attempts(this.ctx.db.manager, t.id);
    // status first: any stored attempt may have executed (a crash after execution)
    for (const a of [...attempts].reverse()) {
      const effects = await this.knownEffects(a.txHash);
      if (effects) return this.recordEffects(t.id, a, effects);
    }
    const state: OutboundState = t.state;
    switch (state) {
      case 'planned':
      case 'replacing':
        return this.sign(t, attempts.length);
      case 'signed':
      case 'submitted':
        return this.execute(t, attempts[attempts.length - 1]);
      default:
        return t; // mined: the effects are final on Sui, looked up above
    }
  }

  // ---- build and sign ---------------------------------------------------------------------

  private async sign(read: Transfer, attemptCount: number): Promise<Transfer> {
    const type = this.coinType(read.tokenAddress);
    const [coins, price, epoch] = await Promise.all([
      this.node.coins(read.fromAddress, type),
      this.price(),
      this.epoch(),
      this.tankCoins(), // the tank's listing, read once a run (the coins are picked under the lock below)
    ]);
    const budget = this.gasUnits * price;
    for (let busy = false; ; busy = true) {
      await this.gasCoinTurn(budget, busy);
      // the gas coin the transaction picked (marked paying): released unless an attempt now pays with it
      const picked: { coin: string | null } = { coin: null };
      const release = () => picked.coin !== null && this.releaseGasCoin(picked.coin, read.id);
      let outcome: SignOutcome;
      try {
        outcome = await this.signIn(read, attemptCount, coins, type, price, epoch, budget, picked);
        if (outcome.kind === 'busy') continue;
        if (outcome.kind !== 'signed') {
          release();
          return outcome.row;
        }
        this.ctx.crashPoint('after_sign');
      } catch (err) {
        release(); // a failed transaction, or the test hook's in-process "crash" after signing
        throw err;
      }
      return this.execute(outcome.row, outcome.attempt);
    }
  }

  /** The sign step's db transaction: the row claimed, the coins picked, the attempt signed and stored. */
  private signIn(
    read: Transfer,
    attemptCount: number,
    coins: SuiCoin[],
    type: string,
    price: bigint,
    epoch: bigint,
    budget: bigint,
    picked: { coin: string | null },
  ): Promise<SignOutcome> {
    return this.ctx.db.transaction(async (m): Promise<SignOutcome> => {
      const t = await this.ctx.repo.lock(m, read.id);
      if (
        !t ||
        t.state !== read.state ||
        t.signedAt?.getTime() !== read.signedAt?.getTime() ||
        (await this.ctx.repo.countAttempts(m, t.id)) !== attemptCount
      ) {
        return { kind: 'moved', row: (t ?? read) as Transfer }; // another process moved it meanwhile
      }
      const now = this.ctx.now();
      const wait = async (reason: OutboundWaitReason, message: string): Promise<SignOutcome> => {
        Object.assign(t, { waitReason: reason, error: message.slice(0, 1000), updatedAt: now });
        return { kind: 'wait', row: await this.ctx.write(m, t) };
      };
      // docs/money-out.md › Destinations: the sponsor signs only for a destination the API authorised
      if (await refuseUnverifiedDestination(this.ctx, m, t, now)) return { kind: 'wait', row: t as Transfer };
      const source = { chain: t.chain, network: t.network, address: t.fromAddress };
      await this.claims.lock(m, source, now);
      if (t.amountMode === 'all') {
        // docs/money-out.md › Claims (claims.ts): an `all` leg waits while another live leg claims the asset here
        const blocked = await this.claims.allBlockedBy(m, t);
        if (blocked !== null) return wait('address_busy', blocked);
      }
      // the gas tank's lock (always after the sender's): one process picks gas coins at a time
      await this.ctx.repo.lockSource(m, { ...source, address: this.keyring.gasTankAddress }, now);
      const reserved = await this.reserved(m, t.id);
      const free = coins.filter((c) => !reserved.has(coinKey(c)));
      const held = sum(free);
      const amount = t.amountMode === 'all' ? held : (t.amountAtomic as bigint);
      if (amount <= 0n) return wait('nothing_to_send', `${t.fromAddress} holds no ${type}`);
      if (held < amount) return wait('balance_low', `${t.fromAddress} holds ${held} of ${type} free, needs ${amount}`);
      // the tank's coins as this process knows them now: a coin an attempt just paid with is at its new version
      // (and not one an attempt of this process is paying with: it is reserved once its attempt commits)
      const gasCoin = this.tankView().find(
        (c) => !reserved.has(coinKey(c)) && !this.paying.has(normalizeSuiAddress(c.objectId)) && c.balance >= budget,
      );
      if (
        !gasCoin &&
        this.tankView().some((c) => c.balance >= budget && this.paying.has(normalizeSuiAddress(c.objectId)))
      ) {
        return { kind: 'busy' }; // nothing written: signed as soon as one of those attempts' effects free its coin
      }
      if (!gasCoin) {
        return wait(
          'gas_tank_low',
          `the Sui gas tank ${this.keyring.gasTankAddress} has no free gas coin of ${budget} MIST`,
        );
      }
      this.paying.set(normalizeSuiAddress(gasCoin.objectId), t.id);
      picked.coin = gasCoin.objectId;
      // an exact amount spends the fewest coins that cover it (largest first); `all` spends every one
      const inputs: SuiCoin[] = [];
      for (const c of free) {
        if (t.amountMode !== 'all' && sum(inputs) >= amount) break;
        inputs.push(c);
      }
      const signed = await this.sponsored.sign({
        sender: t.fromAddress,
        senderKey: keyOf(t),
        to: t.toAddress,
        coinType: type,
        amount: t.amountMode === 'all' ? 'all' : amount,
        inputs,
        gasCoin,
        gasPrice: price,
        gasBudget: budget,
        expirationEpoch: epoch + EXPIRY_EPOCHS,
      });
      const fence = fenceJson(signed.fence);
      const attempt: OutboundAttemptEntity = {
        transactionId: t.id,
        attempt: attemptCount + 1,
        txHash: signed.digest,
        rawTx: JSON.stringify({ bytes: signed.bytes, signatures: signed.signatures }),
        fence,
        fee: { type: 'legacy', gasLimit: this.gasUnits.toString(), gasPrice: price.toString() },
        amounts: [{ ordinal: 0, amountAtomic: signed.amountAtomic.toString(), valueAtomic: '0' }],
        signedAt: now,
        broadcastAt: null,
        broadcastBlock: null,
        lastBroadcastAt: null,
        lastError: null,
      };
      // the signed bytes, the digest, the fence and signed_at commit together, before anything is executed
      await m.insert(OutboundAttemptEntity, attempt);
      Object.assign(t, {
        state: 'signed',
        signedAt: t.signedAt ?? now,
        familyFence: fence,
        gasLimit: this.gasUnits,
        feeType: 'legacy',
        gasPrice: price,
        maxFeePerGas: null,
        maxPriorityFeePerGas: null,
        amountAtomic: signed.amountAtomic,
        waitReason: null,
        error: null,
        updatedAt: now,
      });
      return { kind: 'signed', row: await this.ctx.write(m, t), attempt };
    });
  }

  // ---- execute, status, fence expiry ------------------------------------------------------

  /** Hands the stored bytes to the node (again: harmless, the digest is the same) and records what happened. */
  private async execute(t: Transfer, a: OutboundAttemptEntity): Promise<Transfer> {
    let outcome: SuiExecuteOutcome;
    try {
      // the digest stored with the bytes in the sign step's db transaction (their digest)
      const stored = JSON.parse(a.rawTx) as { bytes: string; signatures: string[] };
      outcome = await this.sponsored.execute({ ...stored, digest: a.txHash });
      if (outcome.kind === 'executed') this.noteGasCoin(outcome.effects);
    } finally {
      // the node answered (or not): the coin is at its new version, or still reserved by this attempt's fence
      this.releaseGasCoin(suiFenceOf(a).gasCoin.objectId, t.id);
    }
    this.ctx.crashPoint('after_broadcast');
    if (outcome.kind === 'executed') return this.recordExecuted(t.id, a, outcome.effects);
    const dead = await this.sponsored.fenceDead({ digest: a.txHash, fence: suiFenceOf(a) });
    if (dead) return this.expire(t, a, `${outcome.message}; ${dead}`);
    await this.ctx.repo.updateAttempt(this.ctx.db.manager, ref(a), {
      lastError: redactRpcText(outcome.message).slice(0, 1000),
      lastBroadcastAt: this.ctx.now(),
    });
    return this.note(t.id, null, `the node refused ${a.txHash}: ${outcome.message}`);
  }

  /**
   * The node executed the attempt: the broadcast and, when a checkpoint holds it, the final state
   * in one db transaction (the attempt was stored before it was executed; a crash before this
   * commit finds the effects by digest on the next step).
   */
  private async recordExecuted(id: string, a: OutboundAttemptEntity, fx: SuiEffects): Promise<Transfer> {
    const head = fx.checkpoint === null ? null : await this.headFor(fx.checkpoint);
    return this.ctx.db.transaction(async (m) => {
      const t = (await this.ctx.repo.lock(m, id)) as Transfer;
      const now = this.ctx.now();
      await this.ctx.repo.updateAttempt(m, ref(a), {
        broadcastAt: a.broadcastAt ?? now,
        lastBroadcastAt: now,
        lastError: null,
      });
      if (isFinalOutboundState(t.state)) return t;
      if (fx.checkpoint !== null && head !== null) return this.writeEffects(m, t, a, fx, fx.checkpoint, head, now);
      if (t.state !== 'signed') return t;
      Object.assign(t, { state: 'submitted', submittedAt: t.submittedAt ?? now, waitReason: null, updatedAt: now });
      return this.ctx.write(m, t);
    });
  }

  /** The attempt's effects: final once its checkpoint has the registry's confirmations (Sui: 1, at once). */
  private async recordEffects(id: string, a: OutboundAttemptEntity, fx: SuiEffects): Promise<Transfer> {
    this.noteGasCoin(fx);
    if (fx.checkpoint === null) return (await this.ctx.repo.get(this.ctx.db.manager, id)) as Transfer;
    const head = await this.headFor(fx.checkpoint);
    return this.ctx.db.transaction(async (m) => {
      const t = await this.ctx.repo.lock(m, id);
      if (!t || isFinalOutboundState(t.state)) return t as Transfer;
      return this.writeEffects(m, t, a, fx, fx.checkpoint as bigint, head, this.ctx.now());
    });
  }

  /**
   * The head to count a checkpoint's confirmations against: the checkpoint itself while one
   * confirmation is all the registry asks (a certified checkpoint is final), else the node's head.
   */
  private async headFor(checkpoint: bigint): Promise<bigint> {
    if (Math.max(1, this.config.confirmations) <= 1) return checkpoint;
    const head = await this.sponsored.head();
    return head > checkpoint ? head : checkpoint;
  }

  private writeEffects(
    m: EntityManager,
    t: Transfer,
    a: OutboundAttemptEntity,
    fx: SuiEffects,
    checkpoint: bigint,
    head: bigint,
    now: Date,
  ): Promise<Transfer> {
    const { confirmations, state } = inclusionState(
      head,
      checkpoint,
      Math.max(1, this.config.confirmations),
      fx.success,
    );
    Object.assign(t, {
      state,
      txHash: fx.digest,
      blockNumber: checkpoint,
      confirmations,
      gasUsed: null,
      effectiveGasPrice: a.fee.gasPrice === undefined ? null : BigInt(a.fee.gasPrice),
      // what the gas tank paid: computation + storage − the storage rebate (may be below 0)
      feeAtomic: fx.gasPaid,
      amountAtomic: BigInt(a.amounts[0]?.amountAtomic ?? '0'),
      waitReason: null,
      error: fx.success ? null : `failed in checkpoint ${checkpoint} (${fx.digest}): ${fx.error}`,
      submittedAt: t.submittedAt ?? now,
      minedAt: t.minedAt ?? now,
      finishedAt: state !== 'mined' ? now : null,
      updatedAt: now,
    });
    return this.ctx.write(m, t);
  }

  /**
   * The node does not know the attempt's digest and its fence is dead (an object moved on, or
   * it expired): nothing signed for the row can execute any more, so the row is planned again
   * (signed_at cleared) and the next step signs a new attempt on the coins as they are now.
   */
  private expire(read: Transfer, a: OutboundAttemptEntity, why: string): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const t = (await this.ctx.repo.lock(m, read.id)) as Transfer;
      if (t.state !== read.state || (await this.ctx.repo.countAttempts(m, t.id)) !== a.attempt) return t;
      const now = this.ctx.now();
      await this.ctx.repo.updateAttempt(m, ref(a), { lastError: why.slice(0, 1000), lastBroadcastAt: now });
      this.ctx.logger.warn(`outbound ${t.id}: attempt ${a.attempt} (${a.txHash}) can never execute: ${why}`);
      Object.assign(t, {
        state: 'planned',
        signedAt: null,
        familyFence: null,
        gasLimit: null,
        ...{ feeType: null, gasPrice: null, maxFeePerGas: null, maxPriorityFeePerGas: null },
        amountAtomic: t.amountMode === 'all' ? null : t.amountAtomic,
        waitReason: null,
        error: redactRpcText(`attempt ${a.attempt} can never execute (${why}); signing a new one`).slice(0, 1000),
        updatedAt: now,
      });
      return this.ctx.write(m, t);
    });
  }

  // ---- one run, what the chain says ---------------------------------------------------------

  /**
   * One run over the rail: the reference gas price, the epoch and the tank's coins are read once,
   * and the effects of every stored attempt of the open transfers in one request up front.
   */
  async run<T>(fn: () => Promise<T>, open: string[] = []): Promise<T> {
    if (this.runDepth++ === 0) this.runReads = { price: null, epoch: null, tank: null, effects: new Map() };
    const run = this.runReads as SuiRunReads;
    try {
      const digests = await this.ctx.repo.attemptHashes(this.ctx.db.manager, open);
      if (digests.length > 0) {
        for (const [digest, fx] of await this.sponsored.effectsOfMany(digests)) run.effects.set(digest, fx);
      }
      return await fn();
    } finally {
      if (--this.runDepth === 0) this.runReads = null;
    }
  }

  /** A read shared by the run (a failed one is not kept); outside a run, read each time. */
  private once<K extends 'price' | 'epoch' | 'tank'>(
    key: K,
    read: () => NonNullable<SuiRunReads[K]>,
  ): NonNullable<SuiRunReads[K]> {
    const run = this.runReads;
    if (!run) return read();
    let p = run[key];
    if (!p) {
      const fresh = read();
      run[key] = fresh;
      fresh.catch(() => {
        if (run[key] === fresh) run[key] = null;
      });
      p = fresh;
    }
    return p as NonNullable<SuiRunReads[K]>;
  }

  private price(): Promise<bigint> {
    return this.once('price', () => this.sponsored.referenceGasPrice());
  }

  private epoch(): Promise<bigint> {
    return this.once('epoch', () => this.sponsored.epoch());
  }

  /** The tank's gas coins, largest first: the node's listing (once a run) with the newer versions this process knows. */
  private async tankCoins(): Promise<SuiCoin[]> {
    await this.once('tank', async () => {
      const listed = await this.node.coins(this.keyring.gasTankAddress, SUI_COIN_TYPE);
      const seen = new Set<string>();
      for (const c of listed) {
        const id = normalizeSuiAddress(c.objectId);
        seen.add(id);
        const known = this.tank.get(id);
        // an index behind the transactions this process executed lists an older version: the newer one stays
        if (!known || BigInt(c.version) >= BigInt(known.version)) this.tank.set(id, c);
      }
      for (const id of [...this.tank.keys()]) if (!seen.has(id)) this.tank.delete(id); // spent or sent away
    });
    return this.tankView();
  }

  /** The tank's coins as this process knows them now, largest first (ties by object id, as SuiNode.coins). */
  private tankView(): SuiCoin[] {
    return [...this.tank.values()].sort((a, b) =>
      a.balance !== b.balance ? (a.balance > b.balance ? -1 : 1) : a.objectId < b.objectId ? -1 : 1,
    );
  }

  /**
   * A transaction paid with one of the tank's coins executed: the coin is at the version and
   * balance its effects give (the gas owner pays exactly the net gas of a sponsored transfer). A
   * coin known at another version than the one the transaction spent is dropped until the next listing.
   */
  private noteGasCoin(fx: SuiEffects): void {
    if (!fx.gasCoin) return;
    const id = normalizeSuiAddress(fx.gasCoin.after.objectId);
    const known = this.tank.get(id);
    if (!known || BigInt(known.version) >= BigInt(fx.gasCoin.after.version)) return;
    if (known.version === fx.gasCoin.before) {
      this.tank.set(id, { ...fx.gasCoin.after, objectId: known.objectId, balance: known.balance - fx.gasPaid });
    } else {
      this.tank.delete(id);
    }
  }

  /**
   * Waits while every gas coin that could pay `budget` is paying for an attempt of this process
   * (its effects give the coin's next version within a round trip); returns at once otherwise, and
   * when the tank has no such coin at all (the sign step then waits `gas_tank_low`).
   */
  private async gasCoinTurn(budget: bigint, busy: boolean): Promise<void> {
    // `busy`: the last try found no coin free but some paying (the others reserved by attempts of
    // other processes): wait for one of this process's to come back rather than try again at once
    for (let afterBusy = busy; ; afterBusy = false) {
      const usable = this.tankView().filter((c) => c.balance >= budget);
      const paying = usable.filter((c) => this.paying.has(normalizeSuiAddress(c.objectId))).length;
      if (afterBusy ? paying === 0 : usable.length === 0 || paying < usable.length) return;
      await new Promise<void>((resolve) => this.coinWaiters.push(resolve));
    }
  }

  private releaseGasCoin(objectId: string, transferId: string): void {
    const id = normalizeSuiAddress(objectId);
    if (this.paying.get(id) !== transferId) return;
    this.paying.delete(id);
    const waiters = this.coinWaiters;
    this.coinWaiters = [];
    for (const wake of waiters) wake();
  }

  /** The effects of an attempt: as the run read them up front, else from the node. */
  private knownEffects(digest: string): Promise<SuiEffects | null> {
    const run = this.runReads;
    if (run?.effects.has(digest)) return Promise.resolve(run.effects.get(digest) ?? null);
    return this.sponsored.effects(digest);
  }

  // ---- reads ------------------------------------------------------------------------------

  private attempts(m: EntityManager, id: string): Promise<OutboundAttemptEntity[]> {
    return m.find(OutboundAttemptEntity, { where: { transactionId: id }, order: { attempt: 'ASC' } });
  }

  /**
   * The coins (object id at version) that the fences of this rail's open signed transactions hold,
   * but `exceptId`'s: a coin at such a version is spent by that attempt if it executes, so no other
   * attempt may use it. Once an attempt executed, its coins are at new versions and free again.
   */
  private async reserved(m: EntityManager, exceptId: string | null): Promise<Set<string>> {
    // a named prepared statement on the signed rows in flight (IDX_outbound_transactions_signed_open):
    // every check and every sign asks it, while the planned, unsigned rows (the planner's lead over
    // the signer) are no part of the answer (docs/performance.md › Issue 23: sweeps › seventh pass)
    const rows = (await preparedStatement(
      m,
      'sui_reserved_coins',
      `SELECT fence FROM outbound_transactions
        WHERE chain = $1 AND network = $2 AND signed_at IS NOT NULL AND fence ? 'sui'
          AND state NOT IN ('completed', 'failed', 'cancelled') AND id <> $3`,
      [this.config.chain, this.config.network, exceptId ?? '00000000-0000-0000-0000-000000000000'],
    )) as Array<{ fence: OutboundFence }>;
    const out = new Set<string>();
    for (const { fence } of rows) {
      if (!('sui' in fence)) continue;
      for (const o of [fence.sui.gasCoin, ...fence.sui.inputs]) out.add(coinKey(o));
    }
    return out;
  }

  async gasTank(): Promise<{ address: string; balanceAtomic: bigint }> {
    const address = this.keyring.gasTankAddress;
    return { address, balanceAtomic: await this.node.balance(address, SUI_COIN_TYPE) };
  }

  balance(address: string, token: TokenConfig): Promise<bigint> {
    return this.node.balance(address, token.native || token.address === null ? SUI_COIN_TYPE : token.address);
  }

  /** Records why a transfer is not moving (the state does not change). */
  private note(id: string, reason: OutboundWaitReason | null, message: string): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const t = (await this.ctx.repo.lock(m, id)) as Transfer;
      if (isFinalOutboundState(t.state)) return t;
      Object.assign(t, { waitReason: reason, error: redactRpcText(message).slice(0, 1000), updatedAt: this.ctx.now() });
      return this.ctx.write(m, t);
    });
  }
}
