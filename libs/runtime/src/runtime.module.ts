// What every process shares at run time: pino logs, a metrics registry, and — for the background
// processes (listener, worker, payouts) — the ops server with /healthz and /metrics on the
// process's own port. The API serves /metrics on its own port instead (apps/api app.factory).
import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
  Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SvcConfig } from '@svc/config';
import { loggerModule } from './logging';
import { Metrics } from './metrics';
import { OpsServer, startOpsServer } from './ops-server';

export const OPS_PORT = Symbol('svc:opsPort');
/** SVC_OPS_HOST: the address the ops server binds (default 127.0.0.1). */
export const OPS_HOST = Symbol('svc:opsHost');

/** Extra health of a process (the listener's chains); the database is always checked. */
export const PROCESS_HEALTH = Symbol('svc:processHealth');
export type ProcessHealth = () => Record<string, unknown>;

@Injectable()
export class OpsServerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ops');
  private server: OpsServer | null = null;
  /** the start in progress: a shutdown that comes before the listen completed waits for it, then closes */
  private starting: Promise<OpsServer> | null = null;

  constructor(
    private readonly metrics: Metrics,
    private readonly db: DataSource,
    @Inject(OPS_PORT) private readonly port: number,
    @Inject(OPS_HOST) private readonly host: string,
    @Optional() @Inject(PROCESS_HEALTH) private readonly extra?: ProcessHealth,
  ) {}

  /** The bound port (an ephemeral one when configured as 0), null before start. */
  boundPort(): number | null {
    return this.server?.port ?? null;
  }

  /** The bound address (SVC_OPS_HOST, 127.0.0.1 by default), null before start. */
  boundAddress(): string | null {
    return this.server?.address ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.starting = startOpsServer(this.port, this.host, this.metrics, async () => {
      let database: 'ok' | 'unavailable' = 'ok';
      try {
        await this.db.query('SELECT 1');
      } catch {
        database = 'unavailable';
      }
      const ok = database === 'ok';
      return {
        ok,
        body: { status: ok ? 'ok' : 'unavailable', process: this.metrics.processName, database, ...this.extra?.() },
      };
    });
    const server = await this.starting;
    if (this.starting === null) return; // shut down while binding: onApplicationShutdown closed it
    this.server = server;
    this.logger.log(`/healthz and /metrics on ${this.host} port ${this.server.port}`);
  }

  // Nest runs a module's bootstrap hooks together: when another one fails (the signer refusing a
  // seed), close() can come while the listen is still under way. Wait for it, then close, or the
  // server outlives the application.
  async onApplicationShutdown(): Promise<void> {
    const server = this.server ?? (await this.starting?.catch(() => null));
    this.starting = null;
    this.server = null;
    await server?.close();
  }
}

/**
 * The ops server's providers, for the module of a background process (so that its PROCESS_HEALTH,
 * if it has one, is in scope): `providers: [...opsServerProviders(config.opsPorts.listener, config.opsHost), …]`.
 */
export function opsServerProviders(port: number, host: string): Provider[] {
  return [{ provide: OPS_PORT, useValue: port }, { provide: OPS_HOST, useValue: host }, OpsServerService];
}

@Global()
@Module({})
export class RuntimeModule {
  /** Logs (with the API's request lines when `http`) and this process's metrics registry. */
  static forRoot(config: SvcConfig, processName: string, opts: { http?: boolean } = {}): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [loggerModule(config, processName, opts.http ?? false)],
      providers: [{ provide: Metrics, useValue: new Metrics(processName) }],
      exports: [Metrics],
    };
  }
}
