import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { SettlementActivation } from '@svc/payments';
import { WORKER_OPTIONS, WorkerOptions } from './webhooks/worker-options';

/** Most addresses one run activates (the rest waits for the next run). */
const BATCH = 500;

/**
 * money contract › Settlement addresses: a pending address becomes active once its `activatesAt`
 * (the cool-down, on the service clock) has passed; the first active address of a rail becomes its
 * default; settlement.address_activated. The verdict and the write are SettlementActivation's
 * (row locks: any number of workers may run it). Runs in the worker every SVC_JOB_INTERVAL_MS
 * (issue 19: moved from the listener, which only follows chains).
 */
@Injectable()
export class SettlementActivationJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('jobs');
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | null = null;

  constructor(
    private readonly activation: SettlementActivation,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.jobs === false) return;
    this.timer = setInterval(() => {
      this.current ??= this.runOnce()
        .then((n) => n && this.logger.log(`activated ${n} settlement address(es)`))
        .catch((err: Error) => this.logger.error(`settlement activation failed: ${err.message}`))
        .finally(() => (this.current = null));
    }, this.config.jobIntervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.current;
  }

  /** One run; how many addresses became active. */
  runOnce(batchSize = BATCH): Promise<number> {
    return this.activation.activateDue(batchSize);
  }
}
