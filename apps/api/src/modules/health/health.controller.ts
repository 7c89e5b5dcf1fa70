import { Controller, Get, HttpStatus, Inject, OnModuleDestroy, Res } from '@nestjs/common';
import type { Response } from 'express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SVC_CONFIG, SvcConfig } from '../../core/config.provider';
import { Public } from '../auth/auth.decorators';

/** runtime contract › Health: 200 once PostgreSQL and Redis answer, 503 otherwise. */
@Controller()
export class HealthController implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(
    private readonly db: DataSource,
    @Inject(SVC_CONFIG) config: SvcConfig,
  ) {
    this.redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined); // reported through /healthz, not as crashes
  }

  @Public()
  @Get('healthz')
  async health(@Res() res: Response): Promise<void> {
    const [database, redis] = await Promise.all([this.check(() => this.db.query('SELECT 1')), this.check(() => this.pingRedis())]);
    const ok = database === 'ok' && redis === 'ok';
    res.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json({ status: ok ? 'ok' : 'unavailable', database, redis });
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private async pingRedis(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
    await this.redis.ping();
  }

  private async check(probe: () => Promise<unknown>): Promise<string> {
    try {
      await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
      return 'ok';
    } catch (err) {
      return `error: ${(err as Error).message}`;
    }
  }
}
