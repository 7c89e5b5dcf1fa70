import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { badRequest, ClockService, conflict, notFound, SqlService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { CheckoutSessionEntity, ProductEntity, SESSION_URL_FIELDS } from '@svc/db';
import {
  decideRedeem,
  FUNDS_SENT_CHAIN_CHANGE_MESSAGE,
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
import { CheckoutSessionRepository, LoadedSession, PaymentLedger, projectable, SessionContext } from '@svc/payments';
import { parseIsoTimestamp, parseLimit } from '../payments/payments-walk';
import { PaymentsService } from '../payments/payments.service';
import { ProductsService } from '../products/products.service';
import { CheckoutSettingsService } from './checkout-settings.service';
import { CreateSessionDto } from './dto/create-session.dto';
import * as msg from './checkout.errors';

export type { LoadedSession };

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
    private readonly sessions: CheckoutSessionRepository,
    private readonly ledger: PaymentLedger,
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
    if (await this.sessions.insert(session)) return { session, product: null, payment: null, txHash: null };
    return this.idempotentReplay(workspaceId, session);
  }

  private async sessionProduct(workspaceId: string, dto: CreateSessionDto): Promise<ProductEntity> {
    // Hot path: named prepared statements (planned once per connection), columns named.
    const columns = this.sql.columns(ProductEntity);
    const rows =
      dto.productId !== undefined
        ? isUuid(dto.productId)
          ? await this.sql.rows(
              'session_product_by_id',
              `SELECT ${columns} FROM products WHERE id = $1 AND workspace_id = $2`,
              [dto.productId, workspaceId],
            )
          : []
        : await this.sql.rows(
            'session_product_by_slug',
            `SELECT ${columns} FROM products WHERE slug = $1 AND workspace_id = $2`,
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

  /** spec: the same key returns the existing session only when the source and the amount match. */
  private async idempotentReplay(workspaceId: string, attempted: CheckoutSessionEntity): Promise<SessionContext> {
    const existing = await this.sessions.findByIdempotencyKey(workspaceId, attempted.idempotencyKey as string);
    if (!existing) throw new Error('idempotency conflict without a stored session');
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
    const loaded = isSessionId(id) ? await this.sessions.load(this.db.manager, id, { workspaceId }) : null;
    if (!loaded) throw notFound(msg.sessionNotFound(id));
    return this.refreshed(loaded);
  }

  async retrievePublic(id: string): Promise<LoadedSession> {
    const loaded = isSessionId(id) ? await this.sessions.load(this.db.manager, id) : null;
    if (!loaded) throw notFound(msg.sessionNotFound(id));
    return this.refreshed(loaded);
  }

  /** spec: the list returns the last stored status, newest first, no safety lag. */
  async list(workspaceId: string, q: SessionListQuery): Promise<SessionPage> {
    const limit = parseLimit(q.limit);
    let createdAfter: Date | undefined;
    if (q.createdAfter !== undefined) {
      const after = parseIsoTimestamp(q.createdAfter);
      if (!after) throw badRequest('createdAfter must be an ISO 8601 timestamp, e.g. 2026-09-20T12:00:00.000Z.');
      createdAfter = after;
    }
    let statuses: SessionStatus[] | undefined;
    if (q.status !== undefined) {
      const values = q.status
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const bad = values.filter((v) => !SESSION_STATUSES.includes(v as SessionStatus));
      if (bad.length || !values.length) {
        throw badRequest(`status must be a comma-separated list of: ${SESSION_STATUSES.join(', ')}.`);
      }
      statuses = values as SessionStatus[];
    }
    if (q.productId !== undefined && !isUuid(q.productId)) return { data: [], hasMore: false, nextCursor: null };
    let cursor: { createdAt: Date; id: string } | undefined;
    if (q.cursor !== undefined) {
      const decoded = decodeSessionCursor(q.cursor);
      if (!decoded) throw badRequest('cursor is malformed: pass the nextCursor of the previous page unchanged.');
      cursor = decoded;
    }
    const rows = await this.sessions.list(workspaceId, {
      createdAfter,
      statuses,
      reference: q.reference?.trim(),
      productId: q.productId,
      cursor,
      limit,
    });
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const data = await this.sessions.contexts(page);
    const last = page[page.length - 1];
    return { data, hasMore, nextCursor: hasMore && last ? `${last.createdAt.toISOString()}|${last.id}` : null };
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
      const locked = await this.sessions.load(tx, loaded.session.id, { lock: true });
      if (!locked) throw notFound(msg.sessionNotFound(loaded.session.id));
      await this.ledger.projectSession(tx, locked);
      return { ...locked, txHash: loaded.txHash };
    });
  }

  // ------------------------------------------------------------------ cancel and redeem

  /** POST /expire (merchant) and the buyer's cancel: → cancelled with checkout.session.cancelled. */
  async cancel(id: string, workspaceId?: string): Promise<LoadedSession> {
    return this.afterCommit(async (tx) => {
      const loaded = isSessionId(id) ? await this.sessions.load(tx, id, { workspaceId, lock: true }) : null;
      if (!loaded) throw notFound(msg.sessionNotFound(id));
      const decision = await this.ledger.cancelSession(tx, loaded);
      return decision.kind === 'conflict' ? refusal(decision.message) : loaded;
    });
  }

  /** spec: Endpoints › Checkout sessions › redeem and its chain-change rules. */
  async redeem(id: string, requestedChain: string | undefined): Promise<LoadedSession> {
    return this.afterCommit(async (tx) => {
      const loaded = isSessionId(id) ? await this.sessions.load(tx, id, { lock: true }) : null;
      if (!loaded) throw notFound(msg.sessionNotFound(id));
      await this.ledger.projectSession(tx, loaded);
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
      // spec: Payment › waiting_for_payment → expired when the buyer changes chain (payment.expired with checkoutSession).
      if (decision.abandonPaymentId && payment && !(await this.ledger.abandonForChainChange(tx, session, payment))) {
        return refusal(FUNDS_SENT_CHAIN_CHANGE_MESSAGE);
      }
      const now = this.clock.now();
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
      await this.sessions.saveState(tx, session);
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
