import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PaymentEntity, ProductEntity } from '@svc/db';
import { formatUsdCents, isUuid, normalizeDecimal } from '@svc/domain';
import { PaymentRepository } from '@svc/payments';
import { LoggedRequest } from '@svc/runtime';
import { badRequest, ClockService, gone, notFound, rateLimited, SVC_CONFIG, SvcConfig } from '@svc/core';
import { MintResult, PaymentsService } from '../payments/payments.service';
import { ProductsService } from '../products/products.service';
import { CheckoutSessionsService } from './checkout-sessions.service';
import * as msg from './checkout.errors';

export interface LinkCheckoutInput {
  idempotencyKey?: string;
  chain?: string;
  amount?: string;
}

/** spec: Endpoints › Payment link (public): `{pay_url}/pay/<slug>` and its checkout. */
@Injectable()
export class PaymentLinksService {
  constructor(
    private readonly db: DataSource,
    private readonly products: ProductsService,
    private readonly payments: PaymentsService,
    private readonly sessions: CheckoutSessionsService,
    private readonly paymentRepository: PaymentRepository,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /**
   * A payment of this link: minted by the link checkout of this product (its productId, and no
   * session). Anything else, another product's or a direct payment, is 404 like a missing one, so
   * `/pay/<slug>?payment=<id>` cannot dress one product's page with another payment. The product
   * may have been archived since (payments in progress are unaffected).
   */
  async linkPayment(slug: string, id: string): Promise<PaymentEntity> {
    const [product, payment] = await Promise.all([
      this.products.findBySlug(slug),
      isUuid(id) ? this.paymentRepository.findById(id) : null,
    ]);
    if (!product || !payment || payment.productId !== product.id || payment.checkoutSessionId !== null) {
      throw notFound(`No such payment: ${id}.`);
    }
    return payment;
  }

  /**
   * An archived product disappears from the link (404, worded so the hosted page can say "no
   * longer available"); a legacy subscription product is 410.
   */
  async product(slug: string): Promise<ProductEntity> {
    const product = await this.products.findBySlug(slug);
    if (!product) throw notFound(`No such payment link: ${slug}.`);
    if (product.status !== 'active') throw notFound(msg.linkNoLongerAvailable(slug));
    if (product.kind === 'subscription')
      throw gone('This product was a subscription; recurring billing was removed on 2026-09-17.');
    return product;
  }

  async checkout(slug: string, input: LinkCheckoutInput, req?: LoggedRequest): Promise<MintResult> {
    const product = await this.product(slug);
    const chain = input.chain ?? product.chain;
    const row = product.networks.find((r) => r.chain === chain);
    if (!row) throw badRequest(msg.chainNotEnabled(chain, product.enabledChains));
    let amount: string;
    let scope: string | null = null;
    if (product.pricingMode === 'fixed') {
      if (input.amount !== undefined) throw badRequest(msg.LINK_AMOUNT_ON_FIXED);
      amount = row.price as string;
      if (input.idempotencyKey !== undefined) scope = `link:${product.id}:${chain}:${input.idempotencyKey}`;
    } else {
      if (input.amount === undefined) throw badRequest(msg.AMOUNT_REQUIRED);
      const cents = this.sessions.checkCustomAmount(product, input.amount);
      amount = normalizeDecimal(formatUsdCents(cents));
      // spec: on a custom_amount product the idempotencyKey is scoped by chain and amount.
      if (input.idempotencyKey !== undefined) scope = `link:${product.id}:${chain}:${amount}:${input.idempotencyKey}`;
    }
    if (scope) {
      const existing = await this.payments.findByScope(product.workspaceId, scope);
      if (existing) return { payment: existing, created: false };
    }
    // Issue 21: every open payment's address is in the listener's watch set, so one workspace's
    // links may hold at most SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS open payments at once (0: no cap).
    const cap = this.config.rateLimits.openLinkPayments;
    return this.db.transaction(async (tx) => {
      if (cap > 0) {
        await this.paymentRepository.lockOpenLinkPayments(tx, product.workspaceId);
        const now = this.clock.now();
        const open = await this.paymentRepository.countOpenLinkPayments(tx, product.workspaceId, now, cap);
        if (open >= cap) {
          // Retry-After: when the first of them expires and frees a slot
          const first = await this.paymentRepository.firstOpenLinkPaymentExpiry(tx, product.workspaceId, now);
          const seconds = first ? Math.max(1, Math.ceil((first.getTime() - now.getTime()) / 1000)) : 1;
          throw rateLimited(msg.tooManyOpenLinkPayments(cap), seconds);
        }
      }
      return this.payments.mint(
        tx,
        {
          workspaceId: product.workspaceId,
          chain,
          network: product.network,
          token: row.token,
          amount,
          currency: row.token.toUpperCase(),
          idempotencyKey: input.idempotencyKey ?? null,
          idempotencyScope: scope,
          metadata: {},
          productId: product.id,
          checkoutSessionId: null,
        },
        req,
      );
    });
  }
}
