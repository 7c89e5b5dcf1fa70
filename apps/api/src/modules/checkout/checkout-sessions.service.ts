import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { CheckoutSessionEntity, PaymentEntity, ProductEntity, SESSION_URL_FIELDS } from '@svc/db';
import {
  decideCancel,
  decideRedeem,
  formatUsdCents,
  isSessionId,
  isUuid,
  normalizeDecimal,
  parseUsdCents,
  projectSession,
  SESSION_STATUSES,
  SessionStatus,
  USD_FLOOR_CENTS,
} from '@svc/domain';
import { badRequest, conflict, notFound } from '../../common/api-error';
import { ClockService } from '../../core/clock.service';
import { SVC_CONFIG, SvcConfig } from '../../core/config.provider';
import { SqlService } from '../../core/sql.service';
import { appendEvents, OutboxEvent } from '../events/outbox';
import { parseIsoTimestamp, parseLimit } from '../payments/payments-walk';
import { PaymentsService } from '../payments/payments.service';
import { ProductsService } from '../products/products.service';
import { CheckoutSettingsService } from './checkout-settings.service';
import { sessionEventData, SessionContext } from './checkout-sessions.presenter';
import { projectable, storeSessionProjection } from './session-projection.store';
import { CreateSessionDto } from './dto/create-session.dto';
import * as msg from './checkout.errors';

const DEFAULT_EXPIRES_IN_SECONDS = 1800;
const METADATA_MAX_BYTES = 8192;

export interface SessionListQuery {
  createdAfter?: string;
  status?: string;
  reference?: string;
  productId?: string;
  limit?: string;
  cursor?: string;
}

export interface SessionPage {
  data: SessionContext[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** A session with the product it sells (for rails and return URLs) and its bound payment. */
export interface LoadedSession extends SessionContext {
  fullProduct: ProductEntity | null;
}

@Injectable()
export class CheckoutSessionsService {
  constructor(
    private readonly db: DataSource,
    private readonly products: ProductsService,
    private readonly payments: PaymentsService,
    private readonly settings: CheckoutSettingsService,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
    private readonly sql: SqlService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  // ------------------------------------------------------------------ create

  async create(workspaceId: string, dto: CreateSessionDto): Promise<SessionContext> {
    const sources = [dto.productId, dto.productSlug, dto.invoiceId].filter((s) => s !== undefined);
    if (sources.length !== 1) throw badRequest(msg.ONE_SOURCE);
    if (dto.invoiceId !== undefined) {
      if (dto.amount !== undefined) throw badRequest(msg.AMOUNT_ON_FIXED);
      // Invoices are not built yet: no invoice exists, so every invoiceId is unknown.
      throw notFound(`No such invoice: ${dto.invoiceId}.`);
    }
    const product = await this.sessionProduct(workspaceId, dto);
    const amount = this.sessionAmount(product, dto.amount);
    if (dto.chain !== undefined && !product.enabledChains.includes(dto.chain)) {
      throw badRequest(msg.chainNotEnabled(dto.chain, product.enabledChains));
    }
    if (
      dto.metadata !== undefined &&
      (Array.isArray(dto.metadata) || Buffer.byteLength(JSON.stringify(dto.metadata)) >= METADATA_MAX_BYTES)
    ) {
      throw badRequest(Array.isArray(dto.metadata) ? 'metadata must be a JSON object.' : msg.METADATA_TOO_LARGE);
    }
    const urls = Object.fromEntries(SESSION_URL_FIELDS.map((f) => [f, dto[f] ?? null])) as Record<
      (typeof SESSION_URL_FIELDS)[number],
      string | null
    >;
    await this.settings.assertOnReturnOrigins(workspaceId, urls);
    const now = this.clock.now();
    const reference = dto.reference?.trim() || null;
    const session: CheckoutSessionEntity = {
      id: `cs_${randomBytes(16).toString('hex')}`,
      workspaceId,
      source: 'product',
      productId: product.id,
      invoiceId: null,
      status: 'open',
      reference,
      metadata: dto.metadata ?? null,
      referenceOrigin: 'server',
      amount: amount === null ? null : formatUsdCents(amount),
      pinnedChain: dto.chain ?? null,
      network: product.network,
      locale: dto.locale ?? null,
      ...urls,
      idempotencyKey: dto.idempotencyKey ?? null,
      paymentId: null,
      late: false,
      completedAt: null,
      expiresAt: new Date(now.getTime() + (dto.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000),
      redeemedAt: null,
      livemode: product.network === 'mainnet',
      createdAt: now,
      updatedAt: now,
    };
    // spec: "It is created with the first session if none exists."
    await this.settings.ensureSecret(workspaceId, this.db.manager);
    if (await this.insertSession(session)) return { session, product: null, payment: null, txHash: null };
    return this.idempotentReplay(workspaceId, session);
  }

  private async sessionProduct(workspaceId: string, dto: CreateSessionDto): Promise<ProductEntity> {
    // Hot path: named prepared statements (planned once per connection).
    const rows =
      dto.productId !== undefined
        ? isUuid(dto.productId)
          ? await this.sql.rows('session_product_by_id', 'SELECT * FROM products WHERE id = $1 AND workspace_id = $2', [
              dto.productId,
              workspaceId,
            ])
          : []
        : await this.sql.rows(
            'session_product_by_slug',
            'SELECT * FROM products WHERE slug = $1 AND workspace_id = $2',
            [dto.productSlug, workspaceId],
          );
    const product = rows.length ? this.sql.hydrate(ProductEntity, rows[0]) : null;
    if (!product) throw notFound(`No such product: ${dto.productId ?? dto.productSlug}.`);
    if (product.kind === 'subscription') throw conflict(msg.legacySubscription(product.id));
    if (product.status === 'archived') throw conflict(msg.archivedProduct(product.id));
    return product;
  }

  /** The locked USD amount in cents (custom_amount), or null (fixed). */
  private sessionAmount(product: ProductEntity, amount: string | undefined): bigint | null {
    if (product.pricingMode === 'fixed') {
      if (amount !== undefined) throw badRequest(msg.AMOUNT_ON_FIXED);
      return null;
    }
    if (amount === undefined) throw badRequest(msg.AMOUNT_REQUIRED);
    return this.checkCustomAmount(product, amount);
  }

  /** spec: Amount validation at create; the same rule for the payment link's buyer amount. */
  checkCustomAmount(product: ProductEntity, amount: string): bigint {
    const cents = parseUsdCents(amount);
    if (cents === null) throw badRequest(msg.AMOUNT_FORMAT);
    if (cents < USD_FLOOR_CENTS) throw badRequest(msg.AMOUNT_FLOOR);
    const bounds = this.products.effectiveBounds(product);
    const extra = {
      minAmount: formatUsdCents(bounds.min),
      maxAmount: bounds.max === null ? null : formatUsdCents(bounds.max),
      currency: 'USD',
    };
    if (cents < bounds.min) throw badRequest(msg.amountBelow(amount, extra.minAmount), extra);
    if (bounds.max !== null && cents > bounds.max)
      throw badRequest(msg.amountAbove(amount, extra.maxAmount as string), extra);
    return cents;
  }

  /** The database decides between concurrent creates with one key (unique index, ON CONFLICT). */
  private async insertSession(s: CheckoutSessionEntity): Promise<boolean> {
    const rows = await this.sql.rows(
      'session_insert',
      `INSERT INTO checkout_sessions (id, workspace_id, source, product_id, invoice_id, status, reference, metadata,
         reference_origin, amount, pinned_chain, network, locale, success_url, pending_url, cancel_url, expired_url,
         failed_url, return_url, idempotency_key, payment_id, late, completed_at, expires_at, redeemed_at, livemode,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, NULL, false,
         NULL, $21, NULL, $22, $23, $23)
       ON CONFLICT (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
       RETURNING id`,
      [
        s.id,
        s.workspaceId,
        s.source,
        s.productId,
        s.invoiceId,
        s.status,
        s.reference,
        s.metadata === null ? null : JSON.stringify(s.metadata),
        s.referenceOrigin,
        s.amount,
        s.pinnedChain,
        s.network,
        s.locale,
        s.successUrl,
        s.pendingUrl,
        s.cancelUrl,
        s.expiredUrl,
        s.failedUrl,
        s.returnUrl,
        s.idempotencyKey,
        s.expiresAt,
        s.livemode,
        s.createdAt,
      ],
    );
    return rows.length === 1;
  }

  /** spec: the same key returns the existing session only when the source and the amount match. */
  private async idempotentReplay(workspaceId: string, attempted: CheckoutSessionEntity): Promise<SessionContext> {
    const existing = await this.db.manager.findOneOrFail(CheckoutSessionEntity, {
      where: { workspaceId, idempotencyKey: attempted.idempotencyKey as string },
    });
    const sameAmount =
      (existing.amount === null ? null : parseUsdCents(normalizeDecimal(existing.amount))) ===
      (attempted.amount === null ? null : parseUsdCents(attempted.amount));
    if (existing.productId !== attempted.productId || existing.invoiceId !== attempted.invoiceId || !sameAmount) {
      throw conflict(msg.idempotencyMismatch(attempted.idempotencyKey as string, existing, attempted));
    }
    return { session: existing, product: null, payment: null, txHash: null };
  }

  // ------------------------------------------------------------------ reads

  /** Retrieve: the status is recomputed from the bound payment and stored with its events. */
  async retrieve(workspaceId: string, id: string): Promise<LoadedSession> {
    const loaded = await this.load(this.db.manager, id, workspaceId);
    if (!loaded) throw notFound(msg.sessionNotFound(id));
    return this.refreshed(loaded);
  }

  async retrievePublic(id: string): Promise<LoadedSession> {
    const loaded = await this.load(this.db.manager, id);
    if (!loaded) throw notFound(msg.sessionNotFound(id));
    return this.refreshed(loaded);
  }

  /** spec: the list returns the last stored status, newest first, no safety lag. */
  async list(workspaceId: string, q: SessionListQuery): Promise<SessionPage> {
    const limit = parseLimit(q.limit);
    const qb = this.db.manager
      .createQueryBuilder(CheckoutSessionEntity, 's')
      .where('s.workspace_id = :ws', { ws: workspaceId });
    if (q.createdAfter !== undefined) {
      const after = parseIsoTimestamp(q.createdAfter);
      if (!after) throw badRequest('createdAfter must be an ISO 8601 timestamp, e.g. 2026-09-20T12:00:00.000Z.');
      qb.andWhere('s.created_at > :after', { after });
    }
    if (q.status !== undefined) {
      const statuses = q.status
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const bad = statuses.filter((v) => !SESSION_STATUSES.includes(v as SessionStatus));
      if (bad.length || !statuses.length)
        throw badRequest(`status must be a comma-separated list of: ${SESSION_STATUSES.join(', ')}.`);
      qb.andWhere('s.status IN (:...statuses)', { statuses });
    }
    if (q.reference !== undefined) qb.andWhere('s.reference = :reference', { reference: q.reference.trim() });
    if (q.productId !== undefined) {
      if (!isUuid(q.productId)) return { data: [], hasMore: false, nextCursor: null };
      qb.andWhere('s.product_id = :productId', { productId: q.productId });
    }
    if (q.cursor !== undefined) {
      const cursor = decodeSessionCursor(q.cursor);
      if (!cursor) throw badRequest('cursor is malformed: pass the nextCursor of the previous page unchanged.');
      qb.andWhere('(s.created_at, s.id) < (:cAt, :cId)', { cAt: cursor.createdAt, cId: cursor.id });
    }
    const rows = await qb
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(limit + 1)
      .getMany();
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const data = await this.contexts(page);
    const last = page[page.length - 1];
    return { data, hasMore, nextCursor: hasMore && last ? `${last.createdAt.toISOString()}|${last.id}` : null };
  }

  private async contexts(sessions: CheckoutSessionEntity[]): Promise<SessionContext[]> {
    const productIds = [...new Set(sessions.map((s) => s.productId).filter((p): p is string => p !== null))];
    const paymentIds = sessions.map((s) => s.paymentId).filter((p): p is string => p !== null);
    const [products, payments, hashes] = await Promise.all([
      productIds.length
        ? this.db.manager.findBy(
            ProductEntity,
            productIds.map((id) => ({ id })),
          )
        : [],
      paymentIds.length
        ? this.db.manager.findBy(
            PaymentEntity,
            paymentIds.map((id) => ({ id })),
          )
        : [],
      this.latestTxHashes(paymentIds),
    ]);
    const productById = new Map(products.map((p) => [p.id, p]));
    const paymentById = new Map(payments.map((p) => [p.id, p]));
    return sessions.map((s) => ({
      session: s,
      product: s.productId ? (productById.get(s.productId) ?? null) : null,
      payment: s.paymentId ? (paymentById.get(s.paymentId) ?? null) : null,
      txHash: s.paymentId ? (hashes.get(s.paymentId) ?? null) : null,
    }));
  }

  private async latestTxHashes(paymentIds: string[]): Promise<Map<string, string>> {
    if (!paymentIds.length) return new Map();
    const rows: Array<{ payment_id: string; tx_hash: string }> = await this.db.query(
      `SELECT DISTINCT ON (payment_id) payment_id, tx_hash FROM blockchain_transactions
       WHERE payment_id = ANY($1) ORDER BY payment_id, created_at DESC, id DESC`,
      [paymentIds],
    );
    return new Map(rows.map((r) => [r.payment_id, r.tx_hash]));
  }

  private async load(tx: EntityManager, id: string, workspaceId?: string, lock = false): Promise<LoadedSession | null> {
    if (!isSessionId(id)) return null;
    const session = await tx.findOne(CheckoutSessionEntity, {
      where: workspaceId ? { id, workspaceId } : { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!session) return null;
    const [fullProduct, payment, hashes] = await Promise.all([
      session.productId ? tx.findOne(ProductEntity, { where: { id: session.productId } }) : null,
      session.paymentId ? tx.findOne(PaymentEntity, { where: { id: session.paymentId } }) : null,
      lock ? new Map<string, string>() : this.latestTxHashes(session.paymentId ? [session.paymentId] : []),
    ]);
    return {
      session,
      fullProduct,
      product: fullProduct,
      payment,
      txHash: session.paymentId ? (hashes.get(session.paymentId) ?? null) : null,
    };
  }

  /**
   * Recomputes the stored status from the bound payment (pure projection in libs/domain). The
   * common case changes nothing and costs no write; a change is re-checked under the row lock
   * and stored together with its events.
   */
  private async refreshed(loaded: LoadedSession): Promise<LoadedSession> {
    const projection = projectSession(loaded.session, projectable(loaded.payment), this.clock.now());
    if (projection.status === loaded.session.status && projection.late === loaded.session.late) return loaded;
    return this.db.transaction(async (tx) => {
      const locked = await this.load(tx, loaded.session.id, undefined, true);
      if (!locked) throw notFound(msg.sessionNotFound(loaded.session.id));
      await this.applyProjection(tx, locked);
      return { ...locked, txHash: loaded.txHash };
    });
  }

  /** Applies the projection to a locked session: stores the change and appends its events. */
  private async applyProjection(tx: EntityManager, loaded: LoadedSession): Promise<void> {
    await storeSessionProjection(tx, loaded, this.clock.now());
  }

  private async saveState(tx: EntityManager, s: CheckoutSessionEntity): Promise<void> {
    await tx.query(
      `UPDATE checkout_sessions SET status = $2, late = $3, completed_at = $4, payment_id = $5, redeemed_at = $6, updated_at = $7
       WHERE id = $1`,
      [s.id, s.status, s.late, s.completedAt, s.paymentId, s.redeemedAt, s.updatedAt],
    );
  }

  // ------------------------------------------------------------------ cancel and redeem

  /** POST /expire (merchant) and the buyer's cancel: → cancelled with checkout.session.cancelled. */
  async cancel(id: string, workspaceId?: string): Promise<LoadedSession> {
    return this.afterCommit(async (tx) => {
      const loaded = await this.load(tx, id, workspaceId, true);
      if (!loaded) throw notFound(msg.sessionNotFound(id));
      await this.applyProjection(tx, loaded);
      const decision = decideCancel(loaded.session.status, projectable(loaded.payment));
      if (decision.kind === 'conflict') return refusal(decision.message);
      const now = this.clock.now();
      Object.assign(loaded.session, { status: 'cancelled', updatedAt: now });
      await this.saveState(tx, loaded.session);
      await appendEvents(
        tx,
        loaded.session.workspaceId,
        decision.events.map((type) => ({ type, data: sessionEventData(loaded) })),
        now,
      );
      return loaded;
    });
  }

  /** spec: Endpoints › Checkout sessions › redeem and its chain-change rules. */
  async redeem(id: string, requestedChain: string | undefined): Promise<LoadedSession> {
    return this.afterCommit(async (tx) => {
      const loaded = await this.load(tx, id, undefined, true);
      if (!loaded) throw notFound(msg.sessionNotFound(id));
      await this.applyProjection(tx, loaded);
      const { session, fullProduct: product, payment } = loaded;
      const enabled = product ? [product.chain, ...product.enabledChains.filter((c) => c !== product.chain)] : [];
      const decision = decideRedeem({
        sessionStatus: session.status,
        source: session.source,
        pinnedChain: session.pinnedChain,
        enabledChains: enabled,
        requestedChain,
        currentPayment: projectable(payment),
        currentChain: payment?.chain ?? null,
      });
      if (decision.kind === 'conflict') return refusal(decision.message);
      if (decision.kind === 'quote' || !product) return loaded;
      const now = this.clock.now();
      const events: OutboxEvent[] = [];
      if (decision.abandonPaymentId) {
        // spec: Payment › waiting_for_payment → expired when the buyer changes chain (payment.expired with checkoutSession).
        await tx.query(`UPDATE payments SET status = 'expired', updated_at = $2 WHERE id = $1`, [
          decision.abandonPaymentId,
          now,
        ]);
        events.push({
          type: 'payment.expired',
          data: {
            merchantId: session.workspaceId,
            eventType: 'payment.expired',
            paymentId: decision.abandonPaymentId,
            checkoutSession: { id: session.id, reference: session.reference, metadata: session.metadata },
          },
        });
      }
      const row = product.networks.find((r) => r.chain === decision.chain) ?? {
        chain: product.chain,
        token: product.token,
        price: product.price,
      };
      const amount = session.amount !== null ? normalizeDecimal(session.amount) : (row.price as string);
      const minted = await this.payments.mint(tx, {
        workspaceId: session.workspaceId,
        chain: decision.chain,
        network: session.network,
        token: row.token,
        amount,
        currency: row.token.toUpperCase(),
        idempotencyKey: `${session.id}:${decision.chain}`,
        idempotencyScope: null,
        metadata: { ...(session.metadata ?? {}), svc: { sessionId: session.id, reference: session.reference } },
        productId: product.id,
        checkoutSessionId: session.id,
      });
      Object.assign(session, {
        paymentId: minted.payment.id,
        status: 'processing',
        redeemedAt: session.redeemedAt ?? now,
        updatedAt: now,
      });
      await this.saveState(tx, session);
      await appendEvents(tx, session.workspaceId, events, now);
      return { ...loaded, payment: minted.payment, txHash: null };
    });
  }

  /**
   * Runs a locked session action. A refusal (409) is thrown only after the transaction commits,
   * so the status change and events the projection found on the way are kept, not rolled back.
   */
  private async afterCommit(work: (tx: EntityManager) => Promise<LoadedSession | Refusal>): Promise<LoadedSession> {
    const result = await this.db.transaction(work);
    if ('refused' in result) throw conflict(result.refused);
    return result;
  }

  /** The chain id of the session's rail, for the page's EIP-681 link (null off EVM). */
  chainIdOf(chain: string | null, network: SessionContext['session']['network']): number | null {
    return chain ? (this.chains.get(chain, network)?.chainId ?? null) : null;
  }

  get payUrl(): string {
    return this.config.payUrl;
  }
}

interface Refusal {
  refused: string;
}
const refusal = (message: string): Refusal => ({ refused: message });

function decodeSessionCursor(value: string): { createdAt: Date; id: string } | null {
  const [at, id, ...rest] = value.split('|');
  const createdAt = at === undefined ? null : parseIsoTimestamp(at);
  return !rest.length && createdAt && id !== undefined && isSessionId(id) ? { createdAt, id } : null;
}
