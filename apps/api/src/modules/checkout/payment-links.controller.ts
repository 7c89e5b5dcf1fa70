import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Optional, OptionalNotNull } from '../../common/optional';
import { formatUsdCents } from '@svc/domain';
import { LoggedRequest } from '@svc/runtime';
import { RequestLog } from '../../common/request-log.decorator';
import { Public } from '../auth/auth.decorators';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import { ChainRegistry } from '@svc/chains';
import { PaymentRepository, publicPayment, publicRail } from '@svc/payments';
import { networkRows } from '../products/products.presenter';
import { CheckoutSettingsService } from './checkout-settings.service';
import { ProductsService } from '../products/products.service';
import { PaymentLinksService } from './payment-links.service';

class LinkCheckoutDto {
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  idempotencyKey?: string;

  @Optional()
  @IsString()
  @MaxLength(32)
  chain?: string;

  @Optional()
  @MaxLength(32)
  @IsString()
  amount?: string;
}

@Public()
@Controller('v1/public/products')
export class PaymentLinksController {
  constructor(
    private readonly links: PaymentLinksService,
    private readonly products: ProductsService,
    private readonly paymentRepository: PaymentRepository,
    private readonly chains: ChainRegistry,
    private readonly settings: CheckoutSettingsService,
  ) {}

  /** spec: Public product projection: bound fields are the effective values; null on a fixed product. */
  @Get(':slug')
  @RateLimit('read', 'slug')
  async get(@Param('slug') slug: string) {
    const p = await this.links.product(slug);
    const custom = p.pricingMode === 'custom_amount';
    const bounds = custom ? this.products.effectiveBounds(p) : null;
    return {
      id: p.id,
      slug: p.slug,
      name: p.name,
      description: p.description,
      imageUrl: p.imageUrl,
      kind: p.kind,
      chain: p.chain,
      network: p.network,
      token: p.token,
      price: custom ? null : p.price,
      pricingMode: p.pricingMode,
      networks: networkRows(p),
      minAmount: bounds ? formatUsdCents(bounds.min) : null,
      maxAmount: bounds && bounds.max !== null ? formatUsdCents(bounds.max) : null,
      currency: custom ? 'USD' : null,
      branding: await this.settings.branding(p.workspaceId),
    };
  }

  /** The public payment projection of a payment of this link only (the page's `?payment=<id>`). */
  @Get(':slug/payments/:id')
  @RateLimit('read', 'slug')
  async payment(@Param('slug') slug: string, @Param('id') id: string) {
    const payment = await this.links.linkPayment(slug, id);
    const transfers = await this.paymentRepository.transfers([payment.id], 5);
    return publicPayment(payment, transfers.get(payment.id) ?? []);
  }

  /** The wallet rail of a payment of this link (as GET /v1/public/payments/:id/rail). */
  @Get(':slug/payments/:id/rail')
  @RateLimit('read', 'slug')
  async rail(@Param('slug') slug: string, @Param('id') id: string) {
    const payment = await this.links.linkPayment(slug, id);
    return publicRail(
      payment,
      this.chains.get(payment.chain, payment.network)?.chainId ?? null,
      this.chains.addressKind(payment.chain, payment.network) ?? null,
    );
  }

  /** `{kind, payment}`: kind is `payment` (a link mints a payment, no session). */
  @Post(':slug/checkout')
  @RateLimit('write', 'slug')
  async checkout(@Param('slug') slug: string, @Body() body: LinkCheckoutDto, @RequestLog() req: LoggedRequest) {
    const { payment } = await this.links.checkout(slug, body, req);
    return { kind: 'payment', payment: publicPayment(payment, []) };
  }
}
