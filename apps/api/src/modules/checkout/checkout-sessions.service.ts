import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry, type ChainKind } from '@svc/chains';
import { badRequest, ClockService, conflict, notFound, SqlService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { LoggedRequest } from '@svc/runtime';
import { CheckoutSessionEntity, InvoiceEntity, ProductEntity, SESSION_URL_FIELDS } from '@svc/db';
import {
  decideInvoice,
  decideRedeem,
  documentNumber,
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
import {
  CheckoutSessionRepository,
  InvoiceRepository,
  LoadedSession,
  PaymentLedger,
  projectable,
  SessionContext,
  VersionedInsertOutcome,
} from '@svc/payments';
import { CURSOR_MALFORMED, parseIsoTimestamp, parseLimit, parseTimestampParam } from '../payments/payments-walk';
import { PaymentsService } from '../payments/payments.service';
import { newSessionId } from '../../common/random-id';
import { ProductsService } from '../products/products.service';
import type { KeyCheck } from '../auth/auth.decorators';
import { CheckoutSettingsService } from './checkout-settings.service';
import { CreateSessionDto } from './dto/create-session.dto';
import * as msg from './checkout.errors';

export type { LoadedSession };

const DEFAULT_EXPIRES_IN_SECONDS = 1800;
const METADATA_MAX_BYTES = 8192;
/** Products read by session creates, kept this long: a hit is checked against the row in the INSERT itself. */
const PRODUCT_CACHE_MS = 30_000;
const PRODUCT_CACHE_MAX = 10_000;

interface CachedProduct {
  product: ProductEntity;
  /** the row version read (`xmin`): the INSERT goes in only while the row is still this version */
  version: string;
  until: number;
}

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
  /** Session creates by product id: the product as last read, by `${workspaceId}:${productId}`. */
  private readonly productCache = new Map<string, CachedProduct>();

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
    private readonly invoices: InvoiceRepository,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  // ------------------------------------------------------------------ create

  /**
   * `keyCheck` (a key served from the guard's cache, not yet confirmed not revoked): the session's
   * grouped insert checks the key row itself; every other write waits for the round trip first.
   */
  async create(workspaceId: string, dto: CreateSessionDto, keyCheck?: KeyCheck): Promise<SessionContext> {
    const sources = [dto.productId, dto.productSlug, dto.invoiceId].filter((s) => s !== undefined);
    if (sources.length !== 1) throw badRequest(msg.ONE_SOURCE);
    if (dto.invoiceId !== undefined) {
      if (dto.amount !== undefined) throw badRequest(msg.AMOUNT_ON_FIXED);
      await keyCheck?.confirm();
      return this.startInvoiceSession({ workspaceId, invoiceId: dto.invoiceId }, dto);
    }
    // A product read by an earlier create serves when its row is unchanged, which the INSERT checks
    // in the same statement (one round trip instead of two); a changed row is read again, and so is
    // one the request is refused on (a refusal is never judged on a cached product).
    const cacheKey = dto.productId !== undefined ? `${workspaceId}:${dto.productId}` : null;
    const cached = cacheKey ? this.productCache.get(cacheKey) : undefined;
    if (cacheKey && cached && cached.until > Date.now()) {
      const created = await this.createFromProduct(workspaceId, dto, cached.product, cached.version, keyCheck);
      if (created) return created;
      this.productCache.delete(cacheKey);
    }
    const { product, version } = await this.sessionProduct(workspaceId, dto);
    const created = await this.createFromProduct(workspaceId, dto, product, null, keyCheck);
    if (!created) throw new Error('unreachable: an insert without a product version is never stale');
    if (cacheKey) {
      if (this.productCache.size >= PRODUCT_CACHE_MAX) this.productCache.clear();
      this.productCache.set(cacheKey, { product, version, until: Date.now() + PRODUCT_CACHE_MS });
    }
    return created;
  }

  /**
   * The session of `product`. With `version` (a cached product), null instead of a refusal, and
   * null when the product row is no longer that version: the caller reads the product again.
   * With `keyCheck`, only the insert with a version checks the key: a write without it (the
   * workspace's first checkout secret, the insert without a version) waits for the round trip first,
   * and an insert with it that did not go in reads the key again (401 when revoked).
   */
  private async createFromProduct(
    workspaceId: string,
    dto: CreateSessionDto,
    product: ProductEntity,
    version: string | null,
    keyCheck: KeyCheck | undefined,
  ): Promise<SessionContext | null> {
    let amount: bigint | null;
    let urls: ReturnType<typeof this.urlsOf>;
    try {
      this.checkProduct(product);
      amount = this.sessionAmount(product, dto.amount);
      if (dto.chain !== undefined && !product.enabledChains.includes(dto.chain)) {
        throw badRequest(msg.chainNotEnabled(dto.chain, product.enabledChains));
      }
      this.checkMetadata(dto.metadata);
      urls = this.urlsOf(dto);
      await this.settings.assertOnReturnOrigins(workspaceId, urls);
    } catch (err) {
      if (version !== null) return null;
      throw err;
    }
    const now = this.clock.now();
    const reference = dto.reference?.trim() || null;
    const session: CheckoutSessionEntity = {
      id: newSessionId(),
      workspaceId,
      source: 'product',
      productId: product.id,
      invoiceId: null,
      invoiceNumber: null,
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
    if (keyCheck && !this.settings.knowsSecret(workspaceId)) await keyCheck.confirm();
    await this.settings.ensureSecret(workspaceId, this.db.manager);
    let outcome: VersionedInsertOutcome;
    if (version === null) {
      await keyCheck?.confirm();
      outcome = (await this.sessions.insert(session)) ? 'inserted' : 'taken';
    } else {
      outcome = await this.sessions.insertForProductVersion(session, version, keyCheck?.keyHash ?? null);
      if (keyCheck && outcome === 'inserted') keyCheck.written();
      else if (keyCheck) await keyCheck.recheck();
    }
    if (outcome === 'stale') return null;
    if (outcome === 'inserted') return { session, product: null, payment: null, txHash: null };
    return this.idempotentReplay(workspaceId, session);
  }

  /**
   * A session for an invoice (money contract › Invoices; spec: Checkout session › source invoice):
   * only an `open` invoice (a void or paid one: 409). One live checkout per invoice: while its
   * current session is open or processing, that session is answered (the hosted invoice page
   * resumes it, and a second session could be paid twice); otherwise a new one is made and becomes
   * the invoice's session. `amount` and `currency` stay null; the payment asks the invoice's
   * amount 1:1 in the stablecoin of the rail the buyer picks. The invoice's row lock serialises
   * concurrent starts.
   */
  async startInvoiceSession(
    where: { workspaceId: string; invoiceId: string } | { publicId: string },
    dto: Partial<CreateSessionDto> = {},
  ): Promise<SessionContext> {
    const byPublicId = 'publicId' in where;
    const id = byPublicId ? where.publicId : where.invoiceId;
    if (!byPublicId) {
      this.checkMetadata(dto.metadata);
      await this.settings.assertOnReturnOrigins(where.workspaceId, this.urlsOf(dto));
    }
    return this.db.transaction(async (tx) => {
      const invoice = byPublicId
        ? await this.invoices.lockByPublicId(tx, where.publicId)
        : isUuid(where.invoiceId)
          ? await this.invoices.lock(tx, where.invoiceId, where.workspaceId)
          : null;
      // a draft is not public yet: its hosted page does not exist
      if (!invoice || (byPublicId && invoice.status === 'draft')) throw notFound(msg.invoiceNotFound(id));
      const decision = decideInvoice('pay', invoice.status);
      if (decision.kind === 'conflict') throw conflict(decision.message);
      if (dto.chain !== undefined && !invoice.networks.some((r) => r.chain === dto.chain)) {
        throw badRequest(
          msg.chainNotOnInvoice(
            dto.chain,
            invoice.networks.map((r) => r.chain),
          ),
        );
      }
      const now = this.clock.now();
      if (invoice.sessionId) {
        const current = await this.sessions.load(tx, invoice.sessionId);
        const live = current && projectSession(current.session, projectable(current.payment), now).status;
        if (current && (live === 'open' || live === 'processing')) return current;
      }
      const session = this.newInvoiceSession(invoice, dto, now);
      await this.settings.ensureSecret(invoice.workspaceId, tx);
      if (!(await this.sessions.insert(session, tx))) return this.idempotentReplay(invoice.workspaceId, session);
      Object.assign(invoice, { sessionId: session.id, paymentId: null, updatedAt: now });
      await this.invoices.save(tx, invoice);
      return { session, product: null, payment: null, txHash: null };
    });
  }

  private newInvoiceSession(invoice: InvoiceEntity, dto: Partial<CreateSessionDto>, now: Date): CheckoutSessionEntity {
    const invoiceNumber = documentNumber('invoice', invoice.sequence as number);
    return {
      id: newSessionId(),
      workspaceId: invoice.workspaceId,
      source: 'invoice',
      productId: null,
      invoiceId: invoice.id,
      invoiceNumber,
      status: 'open',
      // docs/api-guide.md › Choices: an invoice session's reference defaults to the invoice number, so its
      // receipts and events name the invoice.
      reference: dto.reference?.trim() || invoiceNumber,
      metadata: dto.metadata ?? null,
      referenceOrigin: 'server',
      amount: null,
      pinnedChain: dto.chain ?? null,
      // docs/api-guide.md › Choices: invoices are charged on mainnet (the contract's invoice has no network).
      network: 'mainnet',
      locale: dto.locale ?? null,
      ...this.urlsOf(dto),
      idempotencyKey: dto.idempotencyKey ?? null,
      paymentId: null,
      late: false,
      completedAt: null,
      expiresAt: new Date(now.getTime() + (dto.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000),
      redeemedAt: null,
      livemode: true,
      createdAt: now,
      updatedAt: now,
    };
  }

  private urlsOf(dto: Partial<CreateSessionDto>): Record<(typeof SESSION_URL_FIELDS)[number], string | null> {
    return Object.fromEntries(SESSION_URL_FIELDS.map((f) => [f, dto[f] ?? null])) as Record<
      (typeof SESSION_URL_FIELDS)[number],
      string | null
    >;
  }

  private checkMetadata(metadata: Record<string, unknown> | undefined): void {
    if (
      metadata !== undefined &&
      (Array.isArray(metadata) || Buffer.byteLength(JSON.stringify(metadata)) >= METADATA_MAX_BYTES)
    ) {
      throw badRequest(Array.isArray(metadata) ? 'metadata must be a JSON object.' : msg.METADATA_TOO_LARGE);
    }
  }

  /** The invoice of an invoice session (the public view shows its number and amount), or null. */
  invoiceOf(session: CheckoutSessionEntity): Promise<InvoiceEntity | null> {
    return session.invoiceId ? this.invoices.findById(session.invoiceId) : Promise.resolve(null);
  }

  private async sessionProduct(
    workspaceId: string,
    dto: CreateSessionDto,
  ): Promise<{ product: ProductEntity; version: string }> {
    // Hot path: named prepared statements (planned once per connection), columns named, and the
    // row's version (xmin) for the product cache.
    const columns = `${this.sql.columns(ProductEntity)}, xmin::text AS row_version`;
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
    if (!rows.length) throw notFound(`No such product: ${dto.productId ?? dto.productSlug}.`);
    return { product: this.sql.hydrate(ProductEntity, rows[0]), version: String(rows[0].row_version) };
  }

  /** Whether a session may be created for the product (409 for a legacy subscription or an archived one). */
  private checkProduct(product: ProductEntity): void {
    if (product.kind === 'subscription') throw conflict(msg.legacySubscription(product.id));
    if (product.status === 'archived') throw conflict(msg.archivedProduct(product.id));
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
    const createdAfter = parseTimestampParam('createdAfter', q.createdAfter);
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
      if (!decoded) throw badRequest(CURSOR_MALFORMED);
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
  async redeem(id: string, requestedChain: string | undefined, req?: LoggedRequest): Promise<LoadedSession> {
    return this.afterCommit(async (tx) => {
      const loaded = isSessionId(id) ? await this.sessions.load(tx, id, { lock: true }) : null;
      if (!loaded) throw notFound(msg.sessionNotFound(id));
      await this.ledger.projectSession(tx, loaded);
      const { session, fullProduct: product, payment } = loaded;
      // lock order: the session, then its invoice (as the ledger takes them)
      const invoice = session.invoiceId ? await this.invoices.lock(tx, session.invoiceId) : null;
      const rails = product
        ? [product.chain, ...product.enabledChains.filter((c) => c !== product.chain)]
        : (invoice?.networks.map((r) => r.chain) ?? []);
      const decision = decideRedeem({
        sessionStatus: session.status,
        source: session.source,
        pinnedChain: session.pinnedChain,
        enabledChains: rails,
        requestedChain,
        currentPayment: projectable(payment),
        currentChain: payment?.chain ?? null,
      });
      if (decision.kind === 'conflict') return refusal(decision.message);
      if (decision.kind === 'quote' || (!product && !invoice)) return loaded;
      if (invoice) {
        // a void or paid invoice takes no new payment (voiding cancels its live session; this is the guard)
        const payable = decideInvoice('pay', invoice.status);
        if (payable.kind === 'conflict') return refusal(payable.message);
      }
      // spec: Payment › waiting_for_payment → expired when the buyer changes chain (payment.expired with checkoutSession).
      if (decision.abandonPaymentId && payment && !(await this.ledger.abandonForChainChange(tx, session, payment))) {
        return refusal(FUNDS_SENT_CHAIN_CHANGE_MESSAGE);
      }
      const now = this.clock.now();
      const rail = this.railOf(decision.chain, product, invoice);
      // money contract › Invoices: the invoice's USD amount, charged 1:1 in the rail's stablecoin
      const amount =
        session.amount !== null
          ? normalizeDecimal(session.amount)
          : invoice
            ? normalizeDecimal(invoice.amount)
            : (rail.price as string);
      const minted = await this.payments.mint(
        tx,
        {
          workspaceId: session.workspaceId,
          chain: decision.chain,
          network: session.network,
          token: rail.token,
          amount,
          currency: rail.token.toUpperCase(),
          idempotencyKey: `${session.id}:${decision.chain}`,
          idempotencyScope: null,
          metadata: { ...(session.metadata ?? {}), svc: { sessionId: session.id, reference: session.reference } },
          productId: product?.id ?? null,
          checkoutSessionId: session.id,
        },
        req,
      );
      Object.assign(session, {
        paymentId: minted.payment.id,
        status: 'processing',
        redeemedAt: session.redeemedAt ?? now,
        updatedAt: now,
      });
      await this.sessions.saveState(tx, session);
      if (invoice) await this.invoices.bindPayment(tx, invoice.id, minted.payment.id, now);
      return { ...loaded, payment: minted.payment, txHash: null };
    });
  }

  /** The rail (token, and a fixed product's price) of the chain redeem chose. */
  private railOf(
    chain: string,
    product: ProductEntity | null,
    invoice: InvoiceEntity | null,
  ): { token: string; price: string | null } {
    if (product) {
      return (
        product.networks.find((r) => r.chain === chain) ?? {
          chain: product.chain,
          token: product.token,
          price: product.price,
        }
      );
    }
    const row = invoice?.networks.find((r) => r.chain === chain);
    if (!row) throw new Error(`redeem: no rail ${chain} on the session's invoice`);
    return { token: row.token, price: null };
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

  /** The family of the session's rail: its row of the family table builds the page's wallet link. */
  chainKindOf(chain: string | null, network: SessionContext['session']['network']): ChainKind | null {
    return chain ? (this.chains.addressKind(chain, network) ?? null) : null;
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
