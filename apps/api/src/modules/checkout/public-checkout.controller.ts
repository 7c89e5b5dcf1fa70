import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ClockService } from '@svc/core';
import { LoggedRequest } from '@svc/runtime';
import { RequestLog } from '../../common/request-log.decorator';
import { Public } from '../auth/auth.decorators';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import { CheckoutSettingsService } from './checkout-settings.service';
import { CheckoutSessionsService, LoadedSession } from './checkout-sessions.service';
import { RedeemSessionDto } from './dto/create-session.dto';
import { publicSessionView } from './public-session.presenter';
import { pickReturnUrl, returnStatusOf, signReturnUrl } from './signed-return';

/** The hosted page's API: the session id is the only credential (spec: Authentication 2). */
@Public()
@Controller('v1/public/checkout/sessions')
export class PublicCheckoutController {
  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly settings: CheckoutSettingsService,
    private readonly clock: ClockService,
  ) {}

  @Get(':id')
  @RateLimit('read', 'session')
  async get(@Param('id') id: string) {
    return this.view(await this.sessions.retrievePublic(id));
  }

  /** Returns the current quote (the public session view with its payment). */
  @Post(':id/redeem')
  @RateLimit('write', 'session')
  @HttpCode(200)
  async redeem(@Param('id') id: string, @Body() body: RedeemSessionDto, @RequestLog() req: LoggedRequest) {
    return this.view(await this.sessions.redeem(id, body.chain, req));
  }

  /** The buyer's cancel button: the same rule as POST /v1/checkout/sessions/:id/expire. */
  @Post(':id/cancel')
  @RateLimit('write', 'session')
  @HttpCode(200)
  async cancel(@Param('id') id: string) {
    return this.view(await this.sessions.cancel(id));
  }

  /** The API signs the return for the current outcome, so the secret never reaches the page. */
  private async view(loaded: LoadedSession) {
    const { session, fullProduct, payment } = loaded;
    const status = returnStatusOf(session.status);
    const target = status && pickReturnUrl(status, session, fullProduct);
    const returnUrl =
      status && target
        ? signReturnUrl(
            target,
            await this.settings.signingSecret(session.workspaceId),
            session.id,
            status,
            this.clock.now(),
          )
        : null;
    return publicSessionView(loaded, {
      url: `${this.sessions.payUrl}/c/${session.id}`,
      chainId: this.sessions.chainIdOf(payment?.chain ?? null, session.network),
      chainKind: this.sessions.chainKindOf(payment?.chain ?? null, session.network),
      returnUrl,
      invoice: await this.sessions.invoiceOf(session),
      payUrl: this.sessions.payUrl,
      branding: await this.settings.publicBranding(session.workspaceId),
    });
  }
}
