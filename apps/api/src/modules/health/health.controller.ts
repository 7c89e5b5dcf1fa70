import { Controller, Get, HttpStatus, Inject, OnModuleDestroy, Res } from '@nestjs/common';
import type { Response } from 'express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import type { Network } from '@svc/domain';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { Public, RequirePermission } from '../auth/auth.decorators';

type Reachability = 'ok' | 'unavailable';

/** What anyone may see of a chain: how far behind the listener is, nothing of its configuration. */
interface PublicChainHealth {
  chain: string;
  network: Network;
  lag: string | null;
}

/** The operator's view adds what can embed configuration (an RPC URL in an error text). */
interface ChainHealth extends PublicChainHealth {
  head: string | null;
  nextBlock: string;
  lastError: string | null;
  lastErrorAt: string | null;
  updatedAt: string;
}

interface Health<C> {
  ok: boolean;
  body: { status: 'ok' | 'unavailable'; database: Reachability; redis: Reachability; chains?: C[] };
}

/**
 * runtime contract › Health: GET /healthz (public) answers 200 once PostgreSQL and Redis answer,
 * 503 otherwise, and reveals no configuration: reachability as `ok`/`unavailable` (never an error
 * text) and each chain's lag. GET /v1/operator/health (owner and admin keys) adds the chain
 * heads, cursors and last RPC errors.
 */
@Controller()
export class HealthController implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    @Inject(SVC_CONFIG) config: SvcConfig,
  ) {
    this.redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined); // reported through /healthz, not as crashes
  }

  @Public()
  @Get('healthz')
  async health(@Res() res: Response): Promise<void> {
    const { ok, body } = await this.check((c) => ({ chain: c.chain, network: c.network, lag: c.lag }));
    res.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(body);
  }

  @Get('v1/operator/health')
  @RequirePermission('operator.read')
  async operatorHealth(@Res() res: Response): Promise<void> {
    const { ok, body } = await this.check((c) => c);
    res.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(body);
  }

  private async check<C>(view: (c: ChainHealth) => C): Promise<Health<C>> {
    const [database, redis] = await Promise.all([
      this.reachable(() => this.db.query('SELECT 1')),
      this.reachable(() => this.pingRedis()),
    ]);
    const ok = database === 'ok' && redis === 'ok';
    const chains = database === 'ok' ? await this.chainHealth().catch(() => undefined) : undefined;
    return { ok, body: { status: ok ? 'ok' : 'unavailable', database, redis, chains: chains?.map(view) } };
  }

  /**
   * What the listener last reported per chain (head, next block, lag in final blocks, last error).
   * Informational: a lagging or unreachable chain never fails /healthz.
   */
  private async chainHealth(): Promise<ChainHealth[]> {
    const rows: Array<{
      chain: string;
      network: Network;
      next_block: string;
      head: string | null;
      last_error: string | null;
      last_error_at: Date | null;
      updated_at: Date;
    }> = await this.db.query(
      `SELECT chain, network, next_block, head, last_error, last_error_at, updated_at FROM chain_cursors ORDER BY chain, network`,
    );
    return rows.map((r) => {
      const confirmations = Math.max(1, this.chains.get(r.chain, r.network)?.confirmations ?? 1);
      const lag = r.head === null ? null : BigInt(r.head) - BigInt(confirmations) + 1n - BigInt(r.next_block) + 1n;
      return {
        chain: r.chain,
        network: r.network,
        head: r.head,
        nextBlock: r.next_block,
        lag: lag === null ? null : (lag > 0n ? lag : 0n).toString(),
        lastError: r.last_error,
        lastErrorAt: r.last_error_at?.toISOString() ?? null,
        updatedAt: r.updated_at.toISOString(),
      };
    });
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private async pingRedis(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
    await this.redis.ping();
  }

  private async reachable(probe: () => Promise<unknown>): Promise<Reachability> {
    try {
      await Promise.race([
        probe(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }
}
