// The listener's credit side and time-driven jobs, run in-process against a test app's database:
// the real CreditService, WatchSetService, RecoveryService and JobsRunner, built by Nest exactly as
// the listener builds them (CoreModule + CreditModule + JobsModule) on the medium tier, with their
// own pool and clock.
import { INestApplicationContext, Module } from '@nestjs/common';
import { SvcConfig } from '@svc/config';
import { ClockService } from '@svc/core';
import { PayoutsDataModule, RecoveryService } from '@svc/payments';
import { CreditModule } from '../../apps/listener/src/credit/credit.module';
import { CreditService } from '../../apps/listener/src/credit/credit.service';
import { WatchSetService } from '../../apps/listener/src/credit/watch-set.service';
import { JobsModule } from '../../apps/listener/src/jobs/jobs.module';
import { JobsOptions } from '../../apps/listener/src/jobs/jobs.options';
import { JobsRunner } from '../../apps/listener/src/jobs/jobs.runner';
import { PaymentExpiryJob } from '../../apps/listener/src/jobs/payment-expiry.job';
import { SettlementActivationJob } from '../../apps/worker/src/settlement-activation.job';
import { WORKER_OPTIONS } from '../../apps/worker/src/webhooks/worker-options';
import { startMedium } from './medium';

/** The worker's settlement-activation job as the worker builds it, driven by the test (runOnce). */
@Module({
  imports: [PayoutsDataModule],
  providers: [{ provide: WORKER_OPTIONS, useValue: { jobs: false } }, SettlementActivationJob],
  exports: [SettlementActivationJob],
})
class ActivationJobModule {}

export interface CreditContext {
  app: INestApplicationContext;
  credit: CreditService;
  watchSet: WatchSetService;
  recovery: RecoveryService;
  jobs: JobsRunner;
  /** the worker's settlement-address activation (moved from the listener's jobs, issue 19) */
  activation: SettlementActivationJob;
  paymentExpiry: PaymentExpiryJob;
  clock: ClockService;
  close: () => Promise<void>;
}

/** Jobs do not run on their own unless `jobs.autoStart` is true: tests call jobs.runOnce(). */
export async function startCreditContext(config: SvcConfig, jobs: Partial<JobsOptions> = {}): Promise<CreditContext> {
  const medium = await startMedium({
    config,
    imports: [CreditModule, JobsModule.forRoot({ autoStart: false, ...jobs }), ActivationJobModule],
  });
  const { app } = medium;
  return {
    app,
    credit: app.get(CreditService),
    watchSet: app.get(WatchSetService),
    recovery: app.get(RecoveryService),
    jobs: app.get(JobsRunner),
    activation: app.get(SettlementActivationJob),
    paymentExpiry: app.get(PaymentExpiryJob),
    clock: medium.clock,
    close: medium.close,
  };
}
