import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SVC_CONFIG, SvcConfig } from './config.provider';

const REFRESH_MS = 500;

/**
 * The service's notion of now. With SVC_DEV_CLOCK=1 an offset stored in the database moves it
 * forward for every process; each process re-reads it every 500 ms (contract: within one second).
 */
@Injectable()
export class ClockService implements OnModuleInit, OnModuleDestroy {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly logger = new Logger('clock');

  constructor(
    private readonly db: DataSource,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.devClock) return;
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((err: Error) => this.logger.warn(`dev clock refresh failed: ${err.message}`));
    }, REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async advance(seconds: number): Promise<Date> {
    // TypeORM answers an UPDATE … RETURNING as [rows, rowCount].
    const [rows]: [Array<{ offset_ms: string }>, number] = await this.db.query(
      `UPDATE service_clock SET offset_ms = offset_ms + $1 WHERE id = 1 RETURNING offset_ms`,
      [seconds * 1000],
    );
    this.offsetMs = Number(rows[0].offset_ms);
    return this.now();
  }

  async refresh(): Promise<void> {
    const rows: Array<{ offset_ms: string }> = await this.db.query(`SELECT offset_ms FROM service_clock WHERE id = 1`);
    this.offsetMs = rows.length ? Number(rows[0].offset_ms) : 0;
  }
}
