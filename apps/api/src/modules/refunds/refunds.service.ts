// money contract › Refunds 1–3: who may be refunded, how much, and where to. The API only writes the
// refund with its amount reserved — under the payment's row lock, so concurrent refunds never
// exceed the maximum — and the payout process (the only one that signs) sends it.
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ChainConfig,
  ChainKind,
  ChainRegistry,
  family,
  minRefundAtomic,
  parseSettlementAddress,
  sameAddress,
} from '@svc/chains';
import { destinationKeyOf } from '@svc/config';
import {
  badRequest,
  ClockService,
  conflict,
  notFound,
  PublishedKeys,
  SVC_CONFIG,
  SvcConfig,
  unavailable,
} from '@svc/core';
import { RefundEntity } from '@svc/db';
import {
  formatAtomic,
  isRefundable,
  isRefundCancellable,
  isUuid,
  refundMaximumAtomic,
  toAtomic,
  TOKEN_AMOUNT_RE,
} from '@svc/domain';
import { PaymentRepository, refundDestinationMac, RefundRepository } from '@svc/payments';
import { OutboundRepository, RefundWallets } from '@svc/outbound';
import { CreateRefundDto } from './dto/create-refund.dto';
import * as msg from './refunds.errors';

@Injectable()
export class RefundsService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly refundWallets: RefundWallets,
    private readonly keys: PublishedKeys,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  private readonly outbound = new OutboundRepository();

  /** The new refund, or the Idempotency-Key's earlier one for the same request. */
  async create(
    workspaceId: string,
    paymentId: string,
    dto: CreateRefundDto,
    idempotencyKey: string | null,
  ): Promise<RefundEntity> {
    const found = isUuid(paymentId) ? await this.payments.findInWorkspace(workspaceId, paymentId) : null;
    if (!found) throw notFound(msg.paymentNotFound(paymentId));
    const rail = this.chains.get(found.chain, found.network);
    const explicitTo = dto.toAddress === undefined ? null : this.destination(rail, found.chain, dto.toAddress);
    // The default destination's contract check reads the chain: done before the transaction holds the lock.
    const payerTo = explicitTo ? null : await this.payerDestination(rail, found.id, found.chain, found.network);
    const to = explicitTo ?? payerTo;
    if (to !== null && rail) await this.refuseOwnAddress(rail, to);

    return this.db.transaction(async (tx) => {
      const payment = await this.payments.lock(tx, found.id);
      if (!payment) throw notFound(msg.paymentNotFound(paymentId));
      if (idempotencyKey !== null) {
        const earlier = await this.refunds.byIdempotencyKey(tx, workspaceId, idempotencyKey);
        if (earlier) return this.replay(earlier, payment.id, dto, explicitTo, idempotencyKey);
      }
      // spec: Refund rules: only confirmed and overpaid payments
      if (!isRefundable(payment.status)) throw conflict(msg.notRefundable(payment.status));
      const decimals = payment.decimals as number;
      const { held } = await this.refunds.totals(tx, payment.id);
      // maximum: receivedAmount − feeAmount − (completed + in-flight refunds)
      const max = refundMaximumAtomic({
        receivedAtomic: payment.receivedAmountAtomic,
        feeAtomic: payment.feeAmountAtomic,
        refundedAtomic: held,
      });
      if (dto.amount === undefined && max === 0n) throw conflict(msg.NOTHING_LEFT);
      const amount = dto.amount === undefined ? max : this.amount(dto.amount, decimals);
      if (amount > max) {
        throw badRequest(msg.amountAboveMaximum(formatAtomic(max, decimals), payment.token), {
          maximum: formatAtomic(max, decimals),
        });
      }
      // money contract › Refunds 3: below the token's minRefund a refund costs more gas than it returns
      const token = rail ? this.chains.findToken(rail.chain, rail.network, payment.token) : undefined;
      const min = rail && token ? minRefundAtomic(rail, { ...token, decimals }) : 1n;
      if (amount < min) throw badRequest(msg.amountBelowMinimum(formatAtomic(min, decimals), payment.token));
      const now = this.clock.now();
      const refund: Omit<RefundEntity, 'payment'> = {
        id: randomUUID(),
        workspaceId,
        paymentId: payment.id,
        chain: payment.chain,
        network: payment.network,
        token: payment.token,
        tokenAddress: this.tokenAddress(rail, payment.token, payment.tokenAddress),
        decimals,
        amountAtomic: amount,
        toAddress: (explicitTo ?? payerTo) as string,
        destinationMac: null,
        reason: dto.reason ?? null,
        status: 'pending',
        source: null,
        fromAddress: null,
        txHash: null,
        blockNumber: null,
        failureReason: null,
        creditNoteId: null,
        idempotencyKey,
        transferId: null,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
      };
      // docs/money-out.md › Destinations: the signer sends to toAddress only with the MAC the API gives it here
      refund.destinationMac = refundDestinationMac(destinationKeyOf(this.config), refund);
      // The payment's lock serialises refunds of one payment; the unique index settles one key used on two payments at once.
      if (!(await this.refunds.insert(tx, refund))) throw conflict(msg.idempotencyReused(idempotencyKey ?? ''));
      return refund as RefundEntity;
    });
  }

  async get(workspaceId: string, id: string): Promise<RefundEntity> {
    const refund = isUuid(id) ? await this.refunds.get(workspaceId, id) : null;
    if (!refund) throw notFound(msg.refundNotFound(id));
    return refund;
  }

  /**
   * money contract › Refunds: `POST /v1/refunds/:id/cancel`: only a `pending` or `awaiting_funds`
   * refund with nothing signed; its unsigned transfer is cancelled in the same transaction (under
   * the transfer's lock, which the signer takes before it signs), and its amount is released.
   */
  async cancel(workspaceId: string, id: string): Promise<RefundEntity> {
    return this.db.transaction(async (tx) => {
      const refund = isUuid(id) ? await this.refunds.lock(tx, id) : null;
      if (!refund || refund.workspaceId !== workspaceId) throw notFound(msg.refundNotFound(id));
      if (!isRefundCancellable(refund.status)) throw conflict(msg.notCancellable(refund.status));
      const now = this.clock.now();
      if (refund.transferId !== null && !(await this.outbound.cancelUnsigned(tx, refund.transferId, now))) {
        throw conflict(msg.notCancellable('submitted')); // signed meanwhile: on its way
      }
      await this.refunds.update(tx, refund, { status: 'cancelled', failureReason: null }, now);
      return refund;
    });
  }

  newest(workspaceId: string): Promise<RefundEntity[]> {
    return this.refunds.newest(workspaceId);
  }

  /**
   * money contract › Refunds 4: the workspace's refund wallet on each rail of a family that has
   * refund wallets, with what it holds (the native coin and every registered token; null where the
   * node did not answer). A family whose address only the signer can derive (the family table's
   * `refundWallet.type: 'seed'`, e.g. ed25519) is listed once the signer process wrote its row
   * (issue 19 › Keys: the API holds no seed).
   */
  async wallets(workspaceId: string) {
    const addresses = new Map<ChainKind, string | null>();
    const addressOn = async (kind: ChainKind): Promise<string | null> => {
      if (!addresses.has(kind)) {
        const scheme = family(kind).refundWallet;
        const wallet =
          scheme === null
            ? null
            : scheme.type === 'xpub'
              ? await this.refundWallets.ensureFor(kind, workspaceId)
              : await this.refundWallets.findFor(kind, workspaceId);
        addresses.set(kind, wallet?.address ?? null);
      }
      return addresses.get(kind) ?? null;
    };
    const listed: Array<{ rail: ChainConfig; address: string }> = [];
    for (const rail of this.chains.all()) {
      const address = await addressOn(rail.kind);
      if (address !== null) listed.push({ rail, address });
    }
    return Promise.all(
      listed.map(async ({ rail, address }) => ({
        chain: rail.chain,
        network: rail.network,
        address,
        balances: await this.balances(rail, address),
      })),
    );
  }

  // ---- rules --------------------------------------------------------------------------------

  /** Same key, same request: the same refund. Same key, another request: 409 (as Stripe). */
  private replay(
    earlier: RefundEntity,
    paymentId: string,
    dto: CreateRefundDto,
    explicitTo: string | null,
    key: string,
  ): RefundEntity {
    const same =
      earlier.paymentId === paymentId &&
      (dto.amount === undefined || toAtomic(dto.amount, earlier.decimals) === earlier.amountAtomic) &&
      (explicitTo === null || explicitTo === earlier.toAddress) &&
      (dto.reason === undefined || dto.reason === earlier.reason);
    if (!same) throw conflict(msg.idempotencyReused(key));
    return earlier;
  }

  /** zero, negative, malformed or more decimals than the token: 400 (money contract › Refunds 2). */
  private amount(raw: string, decimals: number): bigint {
    const atomic = TOKEN_AMOUNT_RE.test(raw) ? toAtomic(raw, decimals) : null;
    if (atomic === null || atomic <= 0n) throw badRequest(msg.amountMalformed(decimals));
    return atomic;
  }

  private destination(rail: ChainConfig | undefined, chain: string, raw: string): string {
    if (!rail) throw badRequest(`toAddress cannot be checked: ${chain} is not in the chain registry.`);
    const parsed = parseSettlementAddress(rail.kind, chain, raw);
    if ('error' in parsed) throw badRequest(parsed.error.replace(/^address\b/, 'toAddress'));
    return parsed.address;
  }

  /**
   * money contract › Refunds 3: a refund to one of this service's own addresses (a deposit address,
   * the gas tank, a refund wallet) or to a token contract of the rail would never reach the buyer:
   * 400 `toAddress must be the buyer's wallet, not <what it is>.` The gas tank is the family's
   * (the family table's `gasTank`, from what the signer published), on every family that has one.
   */
  private async refuseOwnAddress(rail: ChainConfig, to: string): Promise<void> {
    const token = rail.tokens.find((t) => !t.native && t.address !== null && sameAddress(rail.kind, t.address, to));
    if (token) throw badRequest(msg.notBuyersWallet(`the ${token.symbol} token contract`));
    const tank = family(rail.kind).gasTank;
    if (tank && sameAddress(rail.kind, tank.address(await this.keys.published(tank.path)), to)) {
      throw badRequest(msg.notBuyersWallet("this service's gas tank"));
    }
    const own = await this.refunds.ownAddress(to);
    if (own === 'deposit_address') throw badRequest(msg.notBuyersWallet('a deposit address of this service'));
    if (own === 'refund_wallet') throw badRequest(msg.notBuyersWallet('a refund wallet of this service'));
  }

  /** money contract › Refunds 3: the first transfer's sender, refused when it holds contract code. */
  private async payerDestination(
    rail: ChainConfig | undefined,
    paymentId: string,
    chain: string,
    network: string,
  ): Promise<string | null> {
    const sender = await this.payments.firstSender(this.db.manager, paymentId);
    if (sender === null) return null; // nothing received: the status check answers
    // the family table says whether an address can hold code (EVM: eth_getCode) and reads it
    const holdsCode = rail ? family(rail.kind).holdsCode : null;
    if (!rail || !holdsCode) return sender;
    if (rail.rpcUrls.length === 0) throw unavailable(msg.payerUncheckable(chain, network));
    let contract: boolean;
    try {
      contract = await holdsCode(rail, sender);
    } catch {
      throw unavailable(msg.payerUncheckable(chain, network));
    }
    if (contract) throw conflict(msg.PAYER_IS_CONTRACT);
    return sender;
  }

  private tokenAddress(
    rail: ChainConfig | undefined,
    symbol: string,
    paymentTokenAddress: string | null,
  ): string | null {
    const token = rail?.tokens.find((t) => t.symbol === symbol);
    if (!token || token.native) return null;
    return paymentTokenAddress ?? token.address;
  }

  /** What `address` holds of every registered token of the rail, through the family's balance read. */
  private async balances(rail: ChainConfig, address: string): Promise<Array<{ token: string; amount: string | null }>> {
    const tokens = rail.tokens.filter((t) => t.native || t.address !== null);
    const read = family(rail.kind).readBalance;
    if (rail.rpcUrls.length === 0 || !read) return tokens.map((t) => ({ token: t.symbol, amount: null }));
    return Promise.all(
      tokens.map(async (t) => {
        try {
          return { token: t.symbol, amount: formatAtomic(await read(rail, address, t), t.decimals) };
        } catch {
          return { token: t.symbol, amount: null };
        }
      }),
    );
  }
}
