// The objects legs are for (sweeps, refunds) change state in the same db transaction as their
// transaction (docs/money-out.md › The signer): the engine calls the purpose's handler inside every
// transaction in which it moves a transaction on (signed, broadcast, waiting, receipt, reorg,
// cancelled), and whatever the handler writes (the sweep's state, settlement.completed, the credit
// note) commits or rolls back with it. No tracker copies state afterwards.
import type { EntityManager } from 'typeorm';
import type { OutboundTransfer } from './outbound-transfer';

export interface OutboundPurposeHandler {
  /**
   * `t` as just written, in the engine's transaction `m` (the transaction row is locked).
   * `newestTxHash`: the newest signed attempt's hash (the mined one once mined), or null.
   * Lock the object with NOWAIT: a busy row aborts the step, and the engine retries it next run.
   */
  changed(m: EntityManager, t: OutboundTransfer, newestTxHash: string | null): Promise<void>;
}

export type HandledPurpose = 'sweep' | 'refund';
