// The signer's public face for payouts and refunds: plan a transfer (a transaction with its leg and
// the leg's claim on its source, nothing signed), move it on (`advance`, `runPending`), ask
// whether it can pay, read balances. Sweeps and refunds follow their transactions through the
// purpose handlers they register (`handle`), inside the engine's own db transactions.
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { redactRpcText, type ChainRegistry } from '@svc/chains';
import type { Network } from '@svc/domain';
import { Clock, SignerContext, SignerOptions } from '../context';
import { depositKey, EvmKeyring, GAS_TANK_KEY, SignerKeyRef } from '../keys/keyring';
import { DepositOf, SourceClaims } from './claims';
import type { OutboundRail } from './outbound-rail';
import { outboundRailOf } from './outbound-rails';
import {
  OutboundConflictError,
  OutboundNotCancellableError,
  OutboundNotFoundError,
  OutboundRequestError,
} from './outbound.errors';
import type { CheckFacts, OutboundAttempt, OutboundTransfer } from './outbound-transfer';
import type { PayCheck } from './pay-check';
import type { HandledPurpose, OutboundPurposeHandler } from './purpose-handler';
import { RailRunReport, runRail } from './rail-runner';

export interface TransferRequest {
  chain: string;
  network: Network;
  from: SignerKeyRef;
  /** Destination (in the rail's stored spelling on the way in: EVM checksummed, Sui normalized). */
  to: string;
  /** ERC-20 contract or Sui coin type; null for the native coin. */
  token: string | null;
  /** Atomic units, or `all`: the whole balance (native: the balance minus exactly the fee). */
  amount: bigint | 'all';
}

export interface PlanRequest extends TransferRequest {
  purpose: 'sweep' | 'refund';
  /** The sweep's or refund's id: planning twice returns the same transfer. */
  purposeId: string;
  /** What the caller's pay check read for exactly this transfer (kept on the row for the signer). */
  checked?: CheckFacts | null;
}

export interface SweepRequest {
  chain: string;
  network: Network;
  sweepId: string;
  depositIndex: bigint;
  to: string;
  /** What the planner's pay check read for this sweep (OutboundTransfer.checked). */
  checked?: CheckFacts | null;
}

export interface Balance {
  symbol: string;
  /** null for the native coin */
  tokenAddress: string | null;
  decimals: number;
  /** null when the balance could not be read (`error` says why, e.g. no contract at that address). */
  amountAtomic: bigint | null;
  error?: string;
}

export class OutboundService {
  readonly ctx: SignerContext;
  /** The one place "don't pay out what a refund draws on" is decided (claims.ts): the planners and every rail ask it. */
  readonly claims: SourceClaims;
  private readonly rails = new Map<string, OutboundRail>();

  constructor(db: DataSource, registry: ChainRegistry, keyring: EvmKeyring, clock: Clock, options: SignerOptions = {}) {
    this.ctx = new SignerContext(db, registry, keyring, clock, options);
    this.claims = new SourceClaims(this.ctx.repo);
  }

  /** Nest, once the process's runners have stopped: the rails' connections to their nodes closed. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.rails.values()].map((r) => r.close?.()));
  }

  /** The outbound rail of a registered (chain, network): its family's (outbound-rails.ts). */
  rail(chain: string, network: Network): OutboundRail {
    const key = `${chain}/${network}`;
    let rail = this.rails.get(key);
    if (rail) return rail;
    const config = this.ctx.registry.get(chain, network);
    if (!config) throw new OutboundRequestError(`${key} is not in the chain registry.`);
    rail = outboundRailOf(this.ctx, config, this.claims);
    this.rails.set(key, rail);
    return rail;
  }

  // ---- planning ---------------------------------------------------------------------------

  /**
   * Writes the transfer (state `planned`); nothing is signed. Idempotent per (purpose, purposeId):
   * the same request again returns the existing row, a different one is a conflict. Pass the
   * caller's EntityManager to write it in the same transaction as the sweep or refund row.
   */
  async plan(req: PlanRequest, m?: EntityManager): Promise<OutboundTransfer> {
    if (!m) return this.ctx.db.transaction((tx) => this.plan(req, tx));
    const row = await this.newRow(req);
    // docs/money-out.md › Claims: the leg claims its amount from its source under the source's lock
    await this.claims.lock(m, { chain: row.chain, network: row.network, address: row.fromAddress }, row.createdAt);
    const existing = await this.ctx.repo.byPurpose(m, req.purpose, req.purposeId);
    if (!existing) {
      await this.ctx.repo.insertPlanned(m, row);
      return row;
    }
    if (!sameRequest(existing, row)) {
      throw new OutboundConflictError(`${req.purpose} ${req.purposeId} already has a different outbound transfer.`);
    }
    return existing;
  }

  /** Sweep a deposit address's native coin: its balance minus exactly the fee, nothing left behind. */
  planNativeSweep(req: SweepRequest, m?: EntityManager): Promise<OutboundTransfer> {
    return this.plan({ ...sweep(req), token: null }, m);
  }

  /**
   * Sweep a deposit address's whole token balance; the gas tank funds the fee as the rail does
   * (EVM: a top-up of exactly the fee first; Sui: it sponsors the transaction).
   */
  planTokenSweep(req: SweepRequest & { token: string }, m?: EntityManager): Promise<OutboundTransfer> {
    return this.plan({ ...sweep(req), token: req.token }, m);
  }

  /**
   * New sweeps' transfers planned together in the caller's transaction (a planning lot: one
   * statement locks every deposit, in address order, one writes every transaction, leg and claim).
   * Each `sweepId` is a sweep minted in that same transaction, so none can have a transfer yet:
   * `plan`'s look-up for one is skipped (UQ_outbound_legs_purpose refuses a second live leg anyway).
   */
  async planNewSweeps(
    m: EntityManager,
    reqs: Array<SweepRequest & { token: string | null }>,
  ): Promise<OutboundTransfer[]> {
    const rows = await Promise.all(reqs.map((req) => this.newRow({ ...sweep(req), token: req.token })));
    if (!rows.length) return rows;
    const now = rows[0].createdAt;
    // docs/money-out.md › Claims: each leg claims its amount from its source under the source's lock
    await this.claims.lockMany(
      m,
      rows.map((r) => ({ chain: r.chain, network: r.network, address: r.fromAddress })),
      now,
    );
    await this.ctx.repo.insertPlannedMany(m, rows);
    return rows;
  }

  /** A refund (or any exact transfer) of `amountAtomic` from a deposit address or a refund wallet. */
  planRefund(
    req: Omit<TransferRequest, 'amount'> & { refundId: string; amountAtomic: bigint },
    m?: EntityManager,
  ): Promise<OutboundTransfer> {
    const { refundId, amountAtomic, ...rest } = req;
    return this.plan({ ...rest, purpose: 'refund', purposeId: refundId, amount: amountAtomic }, m);
  }

  /**
   * In a refund's planning transaction, before its leg claims the payment's deposit (claims.ts ›
   * takeDeposit): under the deposit's lock, whether the deposit is still free for the refund, and
   * if so the payment's unsigned sweep transactions there given up in this same transaction.
   * False: a sweep was signed or another refund claimed the deposit meanwhile; nothing changed.
   */
  async takeDepositForRefund(m: EntityManager, payment: DepositOf, refundId: string): Promise<boolean> {
    const sweeps = await this.claims.takeDeposit(m, payment, refundId, this.ctx.now());
    if (sweeps === null) return false;
    // under the deposit's lock, which the engine takes before it signs a leg there: none of these is signed meanwhile
    for (const id of sweeps) await this.cancel(id, m);
    return true;
  }

  /** Gives up a transfer nothing was signed for (its planned gas top-ups too). */
  async cancel(id: string, m?: EntityManager): Promise<OutboundTransfer> {
    if (!m) return this.ctx.db.transaction((tx) => this.cancel(id, tx));
    const t = await this.ctx.repo.lock(m, id);
    if (!t) throw new OutboundNotFoundError(id);
    if (t.state === 'cancelled') return t;
    // planned and nothing signed that can land: never signed, or only attempts whose nonce another transaction took
    if (t.state !== 'planned' || t.signedAt !== null) {
      throw new OutboundNotCancellableError(
        `Outbound transfer ${id} is ${t.state}; only a planned one can be cancelled.`,
      );
    }
    const now = this.ctx.now();
    // its claims are released and its sweep or refund follows, in this db transaction
    await this.ctx.write(m, { ...t, state: 'cancelled', finishedAt: now, updatedAt: now });
    await this.ctx.repo.cancelPlannedTopUps(m, id, now);
    return { ...t, state: 'cancelled', finishedAt: now, updatedAt: now };
  }

  /** Registers the sweep or refund side of legs (purpose-handler.ts). */
  handle(purpose: HandledPurpose, handler: OutboundPurposeHandler): void {
    this.ctx.handle(purpose, handler);
  }

  // ---- moving on --------------------------------------------------------------------------

  /** One step or more of the state machine (sign, broadcast, receipt, replace); safe to call from anywhere, any time. */
  async advance(id: string): Promise<OutboundTransfer> {
    const t = await this.get(id);
    return this.rail(t.chain, t.network).advance(id);
  }

  /**
   * Advances every open transfer of a rail, oldest first. One runner per rail across processes
   * (a PostgreSQL advisory lock): null when another process holds it.
   */
  runPending(chain: string, network: Network): Promise<RailRunReport | null> {
    const rail = this.rail(chain, network);
    return runRail(
      this.ctx,
      chain,
      network,
      (id) => rail.advance(id),
      (fn, open) => (rail.run ? rail.run(fn, open) : fn()),
      rail.concurrentSenders ?? 1,
    );
  }

  /**
   * Runs `fn` (a payout tick's planning and signing on one rail) as one run over the rail: the
   * chain's head, fee market, balances and nonces are read once and shared (OutboundRail.run).
   */
  withinRun<T>(chain: string, network: Network, fn: () => Promise<T>): Promise<T> {
    const rail = this.rail(chain, network);
    return rail.run ? rail.run(fn) : fn();
  }

  // ---- reading ----------------------------------------------------------------------------

  async get(id: string): Promise<OutboundTransfer> {
    const t = await this.ctx.repo.get(this.ctx.db.manager, id);
    if (!t) throw new OutboundNotFoundError(id);
    return t;
  }

  attempts(id: string): Promise<OutboundAttempt[]> {
    return this.ctx.repo.attempts(this.ctx.db.manager, id);
  }

  /** The gas top-ups of a token transfer. */
  topUps(id: string): Promise<OutboundTransfer[]> {
    return this.ctx.repo.topUps(this.ctx.db.manager, id);
  }

  /** Whether the transfer could be signed now, and what it would send and cost; else why not. */
  check(req: TransferRequest): Promise<PayCheck> {
    return this.rail(req.chain, req.network).check(req);
  }

  /** The operator's gas tank on a rail: its address (the same on every EVM chain; Sui: its own) and native balance. */
  gasTank(chain: string, network: Network): Promise<{ address: string; balanceAtomic: bigint }> {
    return this.rail(chain, network).gasTank();
  }

  /** What an address holds on a rail: the native coin and every registered token with a contract, in registry order. */
  async balances(chain: string, network: Network, address: string): Promise<Balance[]> {
    const rail = this.rail(chain, network);
    const out: Balance[] = [];
    for (const t of rail.config.tokens) {
      if (!t.native && t.address === null) continue;
      const balance: Balance = {
        symbol: t.symbol,
        tokenAddress: t.native ? null : t.address,
        decimals: t.decimals,
        amountAtomic: null,
      };
      try {
        balance.amountAtomic = await rail.balance(address, t);
      } catch (err) {
        balance.error = redactRpcText((err as Error).message);
      }
      out.push(balance);
    }
    return out;
  }

  /** The addresses of these keys on a rail derived together, ahead of the checks and plans that ask one by one. */
  warmAddresses(chain: string, network: Network, keys: SignerKeyRef[]): void {
    this.rail(chain, network).warm?.(keys);
  }

  address(key: SignerKeyRef): string {
    return this.ctx.keyring.address(key);
  }

  // ---- helpers ----------------------------------------------------------------------------

  private async newRow(req: PlanRequest): Promise<OutboundTransfer> {
    const rail = this.rail(req.chain, req.network);
    if (req.from.kind === 'gas_tank' && req.from.index !== GAS_TANK_KEY.index) {
      throw new OutboundRequestError('The gas tank is index 0.');
    }
    const from = await rail.address(req.from);
    const to = rail.parse(req.to, 'to');
    if (to === from) throw new OutboundRequestError('A transfer to its own sender moves nothing.');
    if (req.amount !== 'all' && req.amount <= 0n) throw new OutboundRequestError('amount must be positive.');
    const now = this.ctx.now();
    return {
      id: randomUUID(),
      legId: randomUUID(),
      chain: req.chain,
      network: req.network,
      purpose: req.purpose,
      purposeId: req.purposeId,
      parentId: null,
      fromKeyKind: req.from.kind,
      fromKeyIndex: req.from.index,
      fromAddress: from,
      toAddress: to,
      tokenAddress: req.token === null ? null : rail.parse(req.token, 'token'),
      amountMode: req.amount === 'all' ? 'all' : 'exact',
      amountAtomic: req.amount === 'all' ? null : req.amount,
      state: 'planned',
      waitReason: null,
      error: null,
      signedAt: null,
      nonce: null,
      familyFence: null,
      gasLimit: null,
      feeType: null,
      gasPrice: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      txHash: null,
      blockNumber: null,
      confirmations: null,
      gasUsed: null,
      effectiveGasPrice: null,
      feeAtomic: null,
      checked: req.checked ?? null,
      createdAt: now,
      updatedAt: now,
      submittedAt: null,
      minedAt: null,
      finishedAt: null,
    };
  }
}

const sweep = (req: SweepRequest) => ({
  chain: req.chain,
  network: req.network,
  purpose: 'sweep' as const,
  purposeId: req.sweepId,
  from: depositKey(req.depositIndex),
  to: req.to,
  amount: 'all' as const,
  checked: req.checked ?? null,
});

function sameRequest(a: OutboundTransfer, b: OutboundTransfer): boolean {
  return (
    a.chain === b.chain &&
    a.network === b.network &&
    a.fromAddress === b.fromAddress &&
    a.toAddress === b.toAddress &&
    a.tokenAddress === b.tokenAddress &&
    a.amountMode === b.amountMode &&
    (a.amountMode === 'all' || a.amountAtomic === b.amountAtomic)
  );
}
