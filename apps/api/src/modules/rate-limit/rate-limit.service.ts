import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimits, SVC_CONFIG, SvcConfig } from '@svc/core';
import { webhookQueuePrefix } from '@svc/webhooks';

/** The limits a request is counted against (docs/configuration.md › Rate limits). */
export type LimitName = Exclude<keyof RateLimits, 'windowSeconds' | 'openLinkPayments'>;

export interface LimitCheck {
  limit: LimitName;
  key: string;
}

/**
 * Fixed-window counters in Redis, so every copy of the API counts together (a limit per API
 * process would multiply with the number of copies). Should Redis be out of reach, each
 * process falls back to counting in its own memory (rate-limiter-flexible's insurance limiter)
 * rather than refusing buyers or dropping the limit.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiters = new Map<LimitName, RateLimiterRedis>();

  constructor(@Inject(SVC_CONFIG) private readonly config: SvcConfig) {
    this.redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined); // counted in memory meanwhile; /healthz reports Redis
  }

  /**
   * Counts the request against every check; resolves with null when it may go on, else with the
   * milliseconds until the tightest exhausted window frees a slot.
   */
  async consume(checks: LimitCheck[]): Promise<number | null> {
    const results = await Promise.all(
      checks
        .filter((c) => this.config.rateLimits[c.limit] > 0)
        .map((c) =>
          this.limiter(c.limit)
            .consume(c.key)
            .then(
              () => null,
              (refused: unknown) => (refused instanceof RateLimiterRes ? refused.msBeforeNext : null),
            ),
        ),
    );
    const waits = results.filter((ms): ms is number => ms !== null);
    return waits.length ? Math.max(...waits) : null;
  }

  private limiter(limit: LimitName): RateLimiterRedis {
    let limiter = this.limiters.get(limit);
    if (!limiter) {
      const points = this.config.rateLimits[limit];
      const duration = this.config.rateLimits.windowSeconds;
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${webhookQueuePrefix(this.config.databaseUrl)}:rl:${limit}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl:${limit}`, points, duration }),
      });
      this.limiters.set(limit, limiter);
    }
    return limiter;
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
