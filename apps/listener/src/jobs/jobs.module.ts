import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { PaymentLedgerModule } from '@svc/payments';
import { DEFAULT_JOBS_OPTIONS, JOBS_OPTIONS, JobsOptions } from './jobs.options';
import { JobsRunner } from './jobs.runner';
import { PaymentExpiryJob } from './payment-expiry.job';
import { SessionExpiryJob } from './session-expiry.job';

/**
 * The time-driven jobs (payment expiry, open-session expiry, processing sessions whose payment
 * expired or stayed underpaid past the tail; settlement activation runs in the worker). Needs CoreModule (global). Import `JobsModule` to
 * run them every SVC_JOB_INTERVAL_MS, or `JobsModule.forRoot({autoStart: false})` and call
 * JobsRunner.runOnce() (tests). The period is scheduled through @nestjs/schedule's SchedulerRegistry.
 */
@Module({
  imports: [ScheduleModule.forRoot(), PaymentLedgerModule],
  providers: [
    { provide: JOBS_OPTIONS, useValue: DEFAULT_JOBS_OPTIONS },
    PaymentExpiryJob,
    SessionExpiryJob,
    JobsRunner,
  ],
  exports: [JobsRunner],
})
export class JobsModule {
  static forRoot(options: Partial<JobsOptions> = {}): DynamicModule {
    return {
      module: JobsModule,
      providers: [{ provide: JOBS_OPTIONS, useValue: { ...DEFAULT_JOBS_OPTIONS, ...options } }],
    };
  }
}
