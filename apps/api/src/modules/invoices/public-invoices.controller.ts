import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Public } from '../auth/auth.decorators';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import { CheckoutSessionsService } from '../checkout/checkout-sessions.service';
import { InvoicesService } from './invoices.service';

/** The hosted invoice page's API: the invoice's `publicId` is the only credential (like a session id). */
@Public()
@Controller('v1/public/invoices')
export class PublicInvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly sessions: CheckoutSessionsService,
  ) {}

  @Get(':publicId')
  @RateLimit('read', 'invoice')
  get(@Param('publicId') publicId: string) {
    return this.invoices.getPublic(publicId);
  }

  /**
   * "Pay" on `{PAY_URL}/i/<publicId>` (money contract › Invoices: the page starts or resumes its
   * session): the invoice's live checkout session, or a new one. Answers `{sessionId, url}`.
   */
  @Post(':publicId/checkout')
  @RateLimit('write', 'invoice')
  @HttpCode(200)
  async checkout(@Param('publicId') publicId: string) {
    const { session } = await this.sessions.startInvoiceSession({ publicId });
    return { sessionId: session.id, url: `${this.sessions.payUrl}/c/${session.id}` };
  }
}
