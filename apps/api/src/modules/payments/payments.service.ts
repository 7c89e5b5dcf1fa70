import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { BlockchainTransactionEntity, PaymentEntity } from '@svc/db';
import { isUuid, Network, normalizeDecimal, SIGNED_DECIMAL_RE, toAtomic } from '@svc/domain';
import { badRequest, conflict, notFound } from '../../common/api-error';
import { ClockService } from '../../core/clock.service';
import { SqlService } from '../../core/sql.service';
import { AddressAllocator } from './address-allocator.service';
import { CreatePaymentDto } from './dto/create-payment.dto';
import { CheckoutSessionRef } from './payments.presenter';

/** spec: Limits › payment expiry, fixed 30 minutes. */
export const PAYMENT_TTL_MS = 30 * 60 * 1000;

/** Everything a new payment needs; the rail is already resolved and validated by the caller. */
export interface MintPayment {
  workspaceId: string;
  chain: string;
  network: Network;
  token: string;
  amount: string;
  currency: string;
  idempotencyKey: string | null;
  idempotencyScope: string | null;
  metadata: Record<string, unknown>;
  productId: string | null;
  checkoutSessionId: string | null;
}

export interface MintResult {
  payment: PaymentEntity;
  /** false when an idempotency scope matched an existing payment */
  created: boolean;
}

@Injectable()
export class PaymentsService {
  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly addresses: AddressAllocator,
    private readonly clock: ClockService,
    private readonly sql: SqlService,
  ) {}

  /** POST /v1/payments (spec: Endpoints › Payments). */
  async createDirect(workspaceId: string, dto: CreatePaymentDto): Promise<MintResult> {
    const network = dto.network ?? 'mainnet';
    switch (this.chains.classifyPaymentChain(dto.chain)) {
      case 'rejected':
        throw badRequest(`chain ${dto.chain} is not supported: payments on it are rejected.`);
      case 'unknown':
        throw badRequest(`chain ${dto.chain} is not a known chain.`);
      case 'registered':
      case 'accepted':
        break;
    }
    if (!SIGNED_DECIMAL_RE.test(dto.amount))
      throw badRequest('amount must be a decimal string in token units, e.g. 10 or 0.5.');
    const metadata = dto.metadata ?? {};
    if (Array.isArray(dto.metadata)) throw badRequest('metadata must be a JSON object.');
    if (dto.idempotencyKey !== undefined) {
      const existing = await this.findByScope(workspaceId, dto.idempotencyKey);
      if (existing) return { payment: this.replay(existing, dto.chain, network), created: false };
    }
    const result = await this.mint(this.db.manager, {
      workspaceId,
      chain: dto.chain,
      network,
      token: dto.token,
      amount: dto.amount,
      currency: dto.currency.toUpperCase(),
      idempotencyKey: dto.idempotencyKey ?? null,
      idempotencyScope: dto.idempotencyKey ?? null,
      metadata,
      productId: null,
      checkoutSessionId: null,
    });
    return result.created ? result : { payment: this.replay(result.payment, dto.chain, network), created: false };
  }

  /**
   * Inserts a payment at a fresh address. With an idempotency scope the database decides
   * between concurrent creates (ON CONFLICT), so a replay never mints a second payment.
   */
  async mint(tx: EntityManager, input: MintPayment): Promise<MintResult> {
    const token = this.chains.findToken(input.chain, input.network, input.token);
    let expectedAmountAtomic: bigint | null = null;
    if (token) {
      expectedAmountAtomic = toAtomic(input.amount, token.decimals);
      if (expectedAmountAtomic === null) {
        throw badRequest(
          `amount has more decimal places than ${token.symbol} on ${input.chain} supports (${token.decimals}).`,
        );
      }
    }
    const kind = this.chains.addressKind(input.chain, input.network) ?? 'evm';
    const address = await this.addresses.allocate(kind);
    const now = this.clock.now();
    const id = randomUUID();
    const rows = await this.sql.rows(
      'payment_insert',
      `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
         expected_amount_atomic, received_amount_atomic, fee_bps, fee_amount_atomic, payment_address, address_kind,
         address_index, status, idempotency_key, idempotency_scope, metadata, product_id, checkout_session_id,
         expires_at, confirmed_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, 0, 0, $11, $12, $13, 'waiting_for_payment', $14, $15, $16,
         $17, $18, $19, NULL, $20, $20)
       ON CONFLICT (workspace_id, idempotency_scope) WHERE idempotency_scope IS NOT NULL DO NOTHING
       RETURNING *`,
      [
        id,
        input.workspaceId,
        input.chain,
        input.network,
        token?.symbol ?? input.token,
        token?.address ?? null,
        token?.decimals ?? null,
        normalizeDecimal(input.amount),
        input.currency,
        expectedAmountAtomic?.toString() ?? null,
        address.address,
        address.kind,
        address.index.toString(),
        input.idempotencyKey,
        input.idempotencyScope,
        JSON.stringify(input.metadata),
        input.productId,
        input.checkoutSessionId,
        new Date(now.getTime() + PAYMENT_TTL_MS),
        now,
      ],
      tx,
    );
    if (rows.length) return { payment: this.sql.hydrate(PaymentEntity, rows[0]), created: true };
    const existing = await this.findByScope(input.workspaceId, input.idempotencyScope as string, tx);
    if (!existing) throw new Error('idempotency conflict without a stored payment');
    return { payment: existing, created: false };
  }

  /** spec: "the same key with the same chain and network returns the original payment unchanged". */
  private replay(existing: PaymentEntity, chain: string, network: Network): PaymentEntity {
    if (existing.chain !== chain || existing.network !== network) {
      throw conflict(
        `idempotencyKey ${existing.idempotencyKey} was already used for a payment on ${existing.chain}/${existing.network}; ` +
          'use a new key for another chain or network.',
      );
    }
    return existing;
  }

  async get(workspaceId: string, id: string): Promise<PaymentEntity> {
    const rows = isUuid(id)
      ? await this.sql.rows('payment_by_id', 'SELECT * FROM payments WHERE id = $1 AND workspace_id = $2', [
          id,
          workspaceId,
        ])
      : [];
    if (!rows.length) throw notFound(`No such payment: ${id}.`);
    return this.sql.hydrate(PaymentEntity, rows[0]);
  }

  async getPublic(id: string): Promise<PaymentEntity> {
    const payment = isUuid(id) ? await this.db.manager.findOne(PaymentEntity, { where: { id } }) : null;
    if (!payment) throw notFound(`No such payment: ${id}.`);
    return payment;
  }

  findByScope(workspaceId: string, scope: string, tx: EntityManager = this.db.manager): Promise<PaymentEntity | null> {
    return tx.findOne(PaymentEntity, { where: { workspaceId, idempotencyScope: scope } });
  }

  /** Transfers per payment, newest first, at most `perPayment` each (all when undefined). */
  async transfers(paymentIds: string[], perPayment = 1_000_000): Promise<Map<string, BlockchainTransactionEntity[]>> {
    const out = new Map<string, BlockchainTransactionEntity[]>(paymentIds.map((id) => [id, []]));
    if (!paymentIds.length) return out;
    const rows = await this.sql.rows(
      'payment_transfers',
      `SELECT * FROM (
         SELECT t.*, row_number() OVER (PARTITION BY payment_id ORDER BY created_at DESC, id DESC) AS rank
         FROM blockchain_transactions t WHERE payment_id = ANY($1)) ranked
       WHERE rank <= $2 ORDER BY created_at DESC, id DESC`,
      [paymentIds, perPayment],
    );
    for (const row of rows) {
      const t = this.sql.hydrate(BlockchainTransactionEntity, row);
      out.get(t.paymentId)?.push(t);
    }
    return out;
  }

  /**
   * `checkoutSession` of a payment: resolved through the session it was minted for, so an
   * abandoned payment of a session carries it too (spec: Events › payment.* payloads).
   */
  async sessionRefs(payments: PaymentEntity[]): Promise<Map<string, CheckoutSessionRef>> {
    const ids = [...new Set(payments.map((p) => p.checkoutSessionId).filter((s): s is string => s !== null))];
    const out = new Map<string, CheckoutSessionRef>();
    if (!ids.length) return out;
    const sessions = await this.sql.rows<{
      id: string;
      reference: string | null;
      metadata: Record<string, unknown> | null;
    }>('payment_session_refs', 'SELECT id, reference, metadata FROM checkout_sessions WHERE id = ANY($1)', [ids]);
    for (const s of sessions) out.set(s.id, { id: s.id, reference: s.reference, metadata: s.metadata });
    return out;
  }
}
