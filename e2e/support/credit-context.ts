// The listener's credit side and time-driven jobs, run in-process against a test app's database:
// the real CreditService, WatchSetService, RecoveryService and JobsRunner, built by Nest exactly as
// the listener builds them (CoreModule + CreditModule + JobsModule), with their own pool and clock.
import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/config';
import { ClockService } from '../../apps/api/src/core/clock.service';
import { CoreModule } from '../../apps/api/src/core/core.module';
import { CreditModule } from '../../apps/listener/src/credit/credit.module';
import { CreditService } from '../../apps/listener/src/credit/credit.service';
import { RecoveryService } from '../../apps/listener/src/credit/recovery.service';
import { WatchSetService } from '../../apps/listener/src/credit/watch-set.service';
import { JobsModule } from '../../apps/listener/src/jobs/jobs.module';
import { JobsOptions } from '../../apps/listener/src/jobs/jobs.options';
import { JobsRunner } from '../../apps/listener/src/jobs/jobs.runner';
import { PaymentExpiryJob } from '../../apps/listener/src/jobs/payment-expiry.job';

@Module({})
class CreditTestModule {
  static forRoot(config: SvcConfig, jobs: Partial<JobsOptions>): DynamicModule {
    return { module: CreditTestModule, imports: [CoreModule.forRoot(config), CreditModule, JobsModule.forRoot(jobs)] };
  }
}

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
  const app = await NestFactory.createApplicationContext(
    CreditTestModule.forRoot(config, { autoStart: false, ...jobs }),
    {
      logger: process.env.E2E_LOG ? ['log', 'warn', 'error'] : ['error'],
      abortOnError: false,
    },
  );
  await app.init();
  return {
    app,
    credit: app.get(CreditService),
    watchSet: app.get(WatchSetService),
    recovery: app.get(RecoveryService),
    jobs: app.get(JobsRunner),
    paymentExpiry: app.get(PaymentExpiryJob),
    clock: app.get(ClockService),
    close: () => app.close(),
  };
}
