// The loop of a process that works rail by rail (apps/payouts › PayoutRunner, apps/signer ›
// SigningRunner): a run every `intervalMs`, one at a time; a rail woken (a planner's NOTIFY) runs
// at once, or right after the run in progress, while every rail still runs once per interval
// however often some are woken; a run's reports are logged; shutdown waits for the run in progress.
// What a run does, what its reports say and which rails it runs over are the caller's; RunnableRails
// leaves out of those the rails that sign and have no RPC URL.
import type { LoggerService } from '@nestjs/common';
import { family, type ChainConfig } from '@svc/chains';

/** What every rail's run reports: its rail and its errors (each logged as a warning). */
export interface RailRunReport {
  chain: string;
  network: string;
  errors: string[];
}

export interface RailLoopOptions<R extends RailRunReport> {
  logger: LoggerService;
  /** between two runs, and how long a rail may wait for its run however often others are woken */
  intervalMs: number;
  /** one run: over every rail (`only` null), or over the rails named (`chain/network`) */
  run(only: ReadonlySet<string> | null): Promise<R[]>;
  /** the line logged for a report, null when it has nothing to say (its errors are logged anyway) */
  summary(report: R): string | null;
  /** what a failed run is called in its error line (`<what> failed: <message>`) */
  what: string;
  /** whether a woken rail's name (`chain/network`) is one of the loop's rails; else every rail runs */
  knows?(rail: string | undefined): boolean;
}

export class RailLoop<R extends RailRunReport> {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private stopped = false;
  private again = false;
  /** rails woken while a run was in progress (run right after it) */
  private readonly woken = new Set<string>();
  /** when every rail is next due for its interval run, woken or not (ms since the epoch) */
  private fullRunDueAt = 0;

  constructor(private readonly options: RailLoopOptions<R>) {}

  /** The first run after `delayMs`, then one every interval. */
  start(delayMs = 0): void {
    this.schedule(delayMs);
  }

  /** Stops the loop: no run starts any more; waits for the run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
  }

  /**
   * Work was written on the rail named (`chain/network`; no name, or one the loop does not know:
   * every rail): run that rail now (or right after the run in progress); the others keep their interval.
   */
  wake(rail?: string): void {
    if (this.stopped) return;
    const known = this.options.knows?.(rail) ?? false;
    // a notification naming no rail of this loop runs them all
    this.woken.add(known ? (rail as string) : '*');
    if (this.current) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs = this.options.intervalMs): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // every rail once its interval is up (however often some are woken), else the rails woken
      const now = Date.now();
      const full = now >= this.fullRunDueAt || this.woken.size === 0 || this.woken.has('*');
      if (full) this.fullRunDueAt = now + this.options.intervalMs;
      const only = full ? null : new Set(this.woken);
      this.woken.clear();
      const run = this.options
        .run(only)
        .then((reports) => {
          for (const r of reports) {
            const line = this.options.summary(r);
            if (line !== null) this.options.logger.log(line);
            for (const e of r.errors) this.options.logger.warn(`${r.chain}/${r.network}: ${e}`);
          }
        })
        .catch((err: Error) => this.options.logger.error(`${this.options.what} failed: ${err.message}`))
        .finally(() => {
          this.current = null;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : undefined);
        });
      this.current = run;
    }, delayMs);
  }
}

/**
 * The rails a runner can work on, of those it is handed (its own filter of the registry): a rail
 * whose family signs (has an outbound rail) needs an RPC URL; one without is left out, logged once
 * per process as `<chain>/<network>: no rpcUrls in the chain registry, so <what>`.
 */
export class RunnableRails {
  private readonly skipped = new Set<string>();

  constructor(
    private readonly logger: LoggerService,
    /** what the skip line says a rail without RPC URLs does not get */
    private readonly what: string,
  ) {}

  of(rails: ChainConfig[]): ChainConfig[] {
    return rails.filter((c) => {
      if (family(c.kind).outbound === null || c.rpcUrls.length > 0) return true;
      const key = `${c.chain}/${c.network}`;
      if (!this.skipped.has(key)) {
        this.skipped.add(key);
        this.logger.log(`${key}: no rpcUrls in the chain registry, so ${this.what}`);
      }
      return false;
    });
  }
}
