import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry, USD_STABLECOINS } from '@svc/chains';
import { badRequest, ClockService, conflict, notFound, SVC_CONFIG, SvcConfig } from '@svc/core';
import { InvoiceEntity, InvoiceRail } from '@svc/db';
import { decideInvoice, isUuid, LineItem, priceLineItems } from '@svc/domain';
import {
  CheckoutSessionRepository,
  DocumentCounters,
  InvoiceRepository,
  invoiceObject,
  LoadedSession,
  PaymentLedger,
  publicInvoice,
  ReceiptRepository,
} from '@svc/payments';
import { CURSOR_MALFORMED, parseIsoTimestamp, parseLimit } from '../payments/payments-walk';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import { InvoiceRailDto, LineItemDto } from './dto/invoice-fields';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import * as msg from './invoices.errors';
import { CheckoutSettingsService } from '../checkout/checkout-settings.service';

export interface InvoiceListQuery {
  limit?: string;
  cursor?: string;
}

/** money contract › Invoices: the merchant endpoints and the public read. */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly db: DataSource,
    private readonly invoices: InvoiceRepository,
    private readonly receipts: ReceiptRepository,
    private readonly counters: DocumentCounters,
    private readonly sessions: CheckoutSessionRepository,
    private readonly ledger: PaymentLedger,
    private readonly chains: ChainRegistry,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    private readonly settings: CheckoutSettingsService,
  ) {}

  // ------------------------------------------------------------------ merchant

  /** `POST /v1/invoices`: a draft; line items 1 to 100; stablecoin rails of the registry. */
  async create(workspaceId: string, dto: CreateInvoiceDto) {
    const priced = this.price(dto.lineItems);
    const networks = dto.networks ? this.rails(dto.networks) : this.defaultRails();
    const now = this.clock.now();
    const invoice: InvoiceEntity = {
      id: randomUUID(),
      workspaceId,
      publicId: `inv_${randomBytes(16).toString('hex')}`,
      sequence: null,
      status: 'draft',
      customerName: dto.customerName?.trim() || null,
      customerEmail: dto.customerEmail?.trim() || null,
      memo: dto.memo ?? null,
      lineItems: priced.lineItems,
      amount: priced.amount,
      networks,
      dueAt: dto.dueAt === undefined ? null : this.dueAt(dto.dueAt),
      sessionId: null,
      paymentId: null,
      paidAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.invoices.insert(this.db.manager, invoice);
    return this.view(invoice);
  }

  /** `PATCH /v1/invoices/:id`: drafts only (409 otherwise). */
  async update(workspaceId: string, id: string, dto: UpdateInvoiceDto) {
    const priced = dto.lineItems ? this.price(dto.lineItems) : null;
    const networks = dto.networks ? this.rails(dto.networks) : null;
    const dueAt = dto.dueAt === undefined ? undefined : dto.dueAt === null ? null : this.dueAt(dto.dueAt);
    return this.db.transaction(async (tx) => {
      const invoice = await this.locked(tx, workspaceId, id);
      const decision = decideInvoice('update', invoice.status);
      if (decision.kind === 'conflict') throw conflict(decision.message);
      if (dto.customerName !== undefined) invoice.customerName = dto.customerName?.trim() || null;
      if (dto.customerEmail !== undefined) invoice.customerEmail = dto.customerEmail?.trim() || null;
      if (dto.memo !== undefined) invoice.memo = dto.memo;
      if (priced) Object.assign(invoice, { lineItems: priced.lineItems, amount: priced.amount });
      if (networks) invoice.networks = networks;
      if (dueAt !== undefined) invoice.dueAt = dueAt;
      invoice.updatedAt = this.clock.now();
      await this.invoices.save(tx, invoice);
      return this.view(invoice);
    });
  }

  /** `POST /v1/invoices/:id/finalize`: draft → open with the workspace's next `INV-` number (gapless: same transaction). */
  async finalize(workspaceId: string, id: string) {
    return this.db.transaction(async (tx) => {
      const invoice = await this.locked(tx, workspaceId, id);
      const decision = decideInvoice('finalize', invoice.status);
      if (decision.kind === 'conflict') throw conflict(decision.message);
      invoice.sequence = await this.counters.next(tx, workspaceId, 'invoice');
      invoice.status = 'open';
      invoice.updatedAt = this.clock.now();
      await this.invoices.save(tx, invoice);
      return this.view(invoice);
    });
  }

  /**
   * `POST /v1/invoices/:id/void`: draft/open → void; 409 once paid. A live checkout of the invoice
   * is cancelled with it (checkout.session.cancelled), so nobody pays a void invoice; one that
   * money has already reached cannot be cancelled over (as a session), so the void is refused
   * until that payment completes (the invoice becomes paid) or fails.
   */
  async void(workspaceId: string, id: string) {
    for (let attempt = 1; ; attempt++) {
      const peek = isUuid(id) ? await this.invoices.findInWorkspace(workspaceId, id) : null;
      if (!peek) throw notFound(msg.invoiceNotFound(id));
      const done = await this.db.transaction(async (tx) => {
        // lock order: the session, then its invoice (as the ledger and redeem take them)
        const loaded = peek.sessionId ? await this.sessions.load(tx, peek.sessionId, { lock: true }) : null;
        const invoice = await this.locked(tx, workspaceId, id);
        if (invoice.sessionId !== peek.sessionId) return null; // a new checkout started meanwhile: look again
        const decision = decideInvoice('void', invoice.status);
        if (decision.kind === 'conflict') throw conflict(decision.message);
        if (loaded) await this.cancelLiveSession(tx, loaded);
        Object.assign(invoice, { status: 'void', updatedAt: this.clock.now() });
        await this.invoices.save(tx, invoice);
        return this.view(invoice);
      });
      if (done) return done;
      if (attempt >= 3) throw conflict('The invoice changed while it was being voided; try again.');
    }
  }

  private async cancelLiveSession(tx: EntityManager, loaded: LoadedSession): Promise<void> {
    await this.ledger.projectSession(tx, loaded);
    const status = loaded.session.status;
    if (status !== 'open' && status !== 'processing') return;
    const decision = await this.ledger.cancelSession(tx, loaded);
    if (decision.kind === 'conflict') throw conflict(msg.FUNDS_SENT_VOID);
  }

  /** `GET /v1/invoices`: newest first, `limit` 1..100 (default 25), `cursor` = `<createdAt>|<id>`. */
  async list(workspaceId: string, q: InvoiceListQuery) {
    const limit = parseLimit(q.limit);
    let cursor: { createdAt: Date; id: string } | undefined;
    if (q.cursor !== undefined) {
      const [at, cid, ...rest] = q.cursor.split('|');
      const createdAt = at === undefined ? null : parseIsoTimestamp(at);
      if (rest.length || !createdAt || cid === undefined || !isUuid(cid)) {
        throw badRequest(CURSOR_MALFORMED);
      }
      cursor = { createdAt, id: cid.toLowerCase() };
    }
    const rows = await this.invoices.list(workspaceId, { cursor, limit });
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: page.map((i) => this.view(i)),
      hasMore,
      nextCursor: hasMore && last ? `${last.createdAt.toISOString()}|${last.id}` : null,
    };
  }

  async get(workspaceId: string, id: string) {
    const invoice = isUuid(id) ? await this.invoices.findInWorkspace(workspaceId, id) : null;
    if (!invoice) throw notFound(msg.invoiceNotFound(id));
    return this.view(invoice);
  }

  // ------------------------------------------------------------------ public

  /**
   * `GET /v1/public/invoices/:publicId`: public fields (no `customerEmail`) and the latest document
   * of its payment as `receipt`, or null. A draft is not public yet (404).
   */
  async getPublic(publicId: string) {
    const found = /^inv_[0-9a-f]{32}$/.test(publicId) ? await this.invoices.findPublic(publicId) : null;
    if (!found || found.invoice.status === 'draft') throw notFound(msg.invoiceNotFound(publicId));
    const { invoice, merchantName } = found;
    const latest = invoice.paymentId ? await this.receipts.latestOfPayment(invoice.paymentId) : null;
    return {
      ...publicInvoice(invoice, this.config.payUrl, merchantName, latest),
      branding: await this.settings.branding(invoice.workspaceId),
    };
  }

  // ------------------------------------------------------------------ rules

  private view(invoice: InvoiceEntity) {
    return invoiceObject(invoice, this.config.payUrl);
  }

  private async locked(tx: EntityManager, workspaceId: string, id: string): Promise<InvoiceEntity> {
    const invoice = isUuid(id) ? await this.invoices.lock(tx, id, workspaceId) : null;
    if (!invoice) throw notFound(msg.invoiceNotFound(id));
    return invoice;
  }

  private price(items: LineItemDto[]): { lineItems: LineItem[]; amount: string } {
    const priced = priceLineItems(
      items.map((l) => ({ description: l.description.trim(), quantity: l.quantity, unitAmount: l.unitAmount })),
    );
    if (!priced.ok) throw badRequest(priced.messages);
    return priced;
  }

  /** money contract › Invoices: `networks` rails must be stablecoin rails of the registry (mainnet: docs/api-guide.md › Choices). */
  private rails(rows: InvoiceRailDto[]): InvoiceRail[] {
    const problems: string[] = [];
    const rails: InvoiceRail[] = [];
    for (const row of rows) {
      const rail = this.chains.stablecoinRail(row.chain, 'mainnet', row.token);
      if (rail.ok) rails.push({ chain: rail.chain, token: rail.token });
      else problems.push(rail.message);
    }
    if (problems.length) throw badRequest(problems);
    if (new Set(rails.map((r) => r.chain)).size !== rails.length) throw badRequest(msg.DUPLICATE_RAIL_CHAIN);
    return rails;
  }

  /** Without `networks`: every live stablecoin rail on mainnet, one per chain, in the registry's order. */
  private defaultRails(): InvoiceRail[] {
    const rails: InvoiceRail[] = [];
    for (const c of this.chains.all()) {
      if (c.network !== 'mainnet') continue;
      const t = c.tokens.find((x) => x.watched && USD_STABLECOINS.includes(x.symbol.toUpperCase()));
      if (t) rails.push({ chain: c.chain, token: t.symbol });
    }
    if (!rails.length) throw badRequest(msg.NO_STABLECOIN_RAILS);
    return rails;
  }

  private dueAt(value: string): Date {
    const at = parseIsoTimestamp(value);
    if (!at) throw badRequest(msg.DUE_AT_FORMAT);
    return at;
  }
}
