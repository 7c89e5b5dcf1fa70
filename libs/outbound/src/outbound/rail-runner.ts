// One runner per rail at a time across processes: a session advisory lock on a dedicated
// connection while the rail's open transfers are advanced. Correctness does not rest on it (every
// step claims its row), it keeps two runners from racing for the same nodes and nonces.
import type { OutboundTransfer } from './outbound-transfer';
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

export async function runRail(
  ctx: SignerContext,
  chain: string,
  network: Network,
  advance: (id: string) => Promise<OutboundTransfer>,
  run: <T>(fn: () => Promise<T>, open: string[]) => Promise<T> = (fn) => fn(),
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
      const one = async (id: string) => {
        try {
          const t = await advance(id);
          report.states[t.state] = (report.states[t.state] ?? 0) + 1;
        } catch (err) {
          report.errors.push({ id, message: (err as Error).message });
        }
        report.advanced += 1;
      };
      // one at a time (several at once was tried: faster, but two payout processes then hung;
      // docs/performance.md › Issue 23: sweeps): the gas top-ups first (their receipts fund their
      // transfers), then the rest
      await run(async () => {
        for (const id of [...topUps, ...others]) await one(id);
      }, [...topUps, ...others]);
      return report;
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', lock);
    }
  } finally {
    await runner.release();
  }
}
