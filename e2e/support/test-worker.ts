// The worker in-process, built exactly as `npm run start:worker` builds it (createWorkerApp).
import type { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import { webhookQueuePrefix } from '@svc/webhooks';
import { createWorkerApp, WorkerOptions } from '../../apps/worker/src/worker.factory';
import { TEST_DATA_KEY, type TestApp } from './test-app';

export function startTestWorker(t: TestApp, options: WorkerOptions = {}): Promise<INestApplicationContext> {
  return createWorkerApp(t.config, options);
}

/** Deletes this test database's queue keys from Redis (they are prefixed with the database name). */
export async function clearQueueKeys(t: TestApp): Promise<void> {
  const redis = new Redis(t.config.redisUrl);
  try {
    const prefix = webhookQueuePrefix(t.config.databaseUrl);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Webhook test settings: fast retries (1 s apart, 4 attempts), 1 s timeout, fast sweeps and polls. */
export function webhookEnv(redisDb: number): Record<string, string> {
  return {
    REDIS_URL: `redis://127.0.0.1:6379/${redisDb}`,
    SVC_WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    SVC_WEBHOOK_TIMEOUT_MS: '1000',
    SVC_JOB_INTERVAL_MS: '200',
    SVC_DATA_KEY: TEST_DATA_KEY,
  };
}
