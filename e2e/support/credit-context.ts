// The listener's credit side and time-driven jobs, run in-process against a test app's database:
// the real CreditService, WatchSetService, RecoveryService and JobsRunner, built by Nest exactly as
// the listener builds them (CoreModule + CreditModule + JobsModule) on the medium tier, with their
// own pool and clock.
import { INestApplicationContext } from '@nestjs/common';
import { SvcConfig } from '@svc/config';
import { ClockService } from '@svc/core';
import { RecoveryService } from '@svc/payments';
import { CreditModule } from '../../apps/listener/src/credit/credit.module';
import { CreditService } from '../../apps/listener/src/credit/credit.service';
import { WatchSetService } from '../../apps/listener/src/credit/watch-set.service';
import { JobsModule } from '../../apps/listener/src/jobs/jobs.module';
import { JobsOptions } from '../../apps/listener/src/jobs/jobs.options';
import { JobsRunner } from '../../apps/listener/src/jobs/jobs.runner';
import { PaymentExpiryJob } from '../../apps/listener/src/jobs/payment-expiry.job';
import { startMedium } from './medium';

export interface CreditContext {
  app: INestApplicationContext;
  credit: CreditService;
  watchSet: WatchSetService;
  recovery: RecoveryService;
  jobs: JobsRunner;
  paymentExpiry: PaymentExpiryJob;
  clock: ClockService;
  close: () => Promise<void>;
}

/** Jobs do not run on their own unless `jobs.autoStart` is true: tests call jobs.runOnce(). */
export async function startCreditContext(config: SvcConfig, jobs: Partial<JobsOptions> = {}): Promise<CreditContext> {
  const medium = await startMedium({
    config,
    imports: [CreditModule, JobsModule.forRoot({ autoStart: false, ...jobs })],
  });
  const { app } = medium;
  return {
    app,
    credit: app.get(CreditService),
    watchSet: app.get(WatchSetService),
    recovery: app.get(RecoveryService),
    jobs: app.get(JobsRunner),
    paymentExpiry: app.get(PaymentExpiryJob),
    clock: medium.clock,
    close: medium.close,
  };
}
