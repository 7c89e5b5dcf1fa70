// One runner per rail at a time across processes: a session advisory lock on a dedicated
// connection while the rail's open transfers are advanced. Correctness does not rest on it (every
// step claims its row), it keeps two runners from racing for the same nodes and nonces. Within a
// run, different senders advance side by side (bounded), one sender's transfers in order
// (SignerContext.serial); docs/performance.md › Issue 23: sweeps › Third pass.
import type { OutboundTransfer } from './outbound-transfer';
import type { OpenTransfer } from './outbound.repository';
import type { Network, OutboundState } from '@svc/domain';
import type { SignerContext } from '../context';

const LOCK_NAMESPACE = 'svc.signer';

export interface RailRunReport {
  chain: string;
  network: Network;
  /** Transfers looked at, and the state each was left in. */
  advanced: number;
  states: Partial<Record<OutboundState, number>>;
  errors: Array<{ id: string; message: string }>;
}

/**
 * `senders`: how many senders' transfers are advanced side by side (1: one transfer at a time).
 * One sender's transfers always go one at a time, oldest first, and so do the gas top-ups (all
 * from the gas tank), which come first: their receipts fund the transfers after them.
 */
export async function runRail(
  ctx: SignerContext,
  chain: string,
  network: Network,
  advance: (id: string) => Promise<OutboundTransfer>,
  run: <T>(fn: () => Promise<T>, open: string[]) => Promise<T> = (fn) => fn(),
  senders = 1,
): Promise<RailRunReport | null> {
  const runner = ctx.db.createQueryRunner();
  await runner.connect();
  const lock = [LOCK_NAMESPACE, `${chain}/${network}`];
  try {
    const [{ ok }]: Array<{ ok: boolean }> = await runner.query(
      'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok',
      lock,
    );
    if (!ok) return null;
    try {
      const report: RailRunReport = { chain, network, advanced: 0, states: {}, errors: [] };
      const { topUps, others } = await ctx.repo.openIds(ctx.db.manager, chain, network);
      const one = async ({ id, sender }: OpenTransfer) => {
        try {
          const t = await ctx.serial(chain, network, sender, () => advance(id));
          report.states[t.state] = (report.states[t.state] ?? 0) + 1;
        } catch (err) {
          report.errors.push({ id, message: (err as Error).message });
        }
        report.advanced += 1;
      };
      // one lane per sender, in the order of its oldest transfer
      const lanes = new Map<string, OpenTransfer[]>();
      for (const t of others) {
        const key = t.sender.toLowerCase();
        lanes.set(key, [...(lanes.get(key) ?? []), t]);
      }
      const queue = [...lanes.values()];
      const lane = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) for (const t of next) await one(t);
      };
      const ids = [...topUps, ...others].map((t) => t.id);
      await run(async () => {
        for (const t of topUps) await one(t);
        await Promise.all(Array.from({ length: Math.max(1, Math.min(senders, queue.length)) }, lane));
      }, ids);
      return report;
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', lock);
    }
  } finally {
    await runner.release();
  }
}
