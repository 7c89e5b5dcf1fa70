// Queries of the outbound tables (house style 5): every method takes the EntityManager of the
// transaction it belongs to.
import { EntityManager, In } from 'typeorm';
import { EvmNonceEntity, OutboundAttemptEntity, OutboundTransferEntity } from '@svc/db';
import type { Network, OutboundState } from '@svc/domain';
import { quoteOf } from '../fees/fees';
import type { Commitments } from './funds';

/** States in which a transfer may have a signed transaction that is not final yet. */
const SIGNED_STATES: OutboundState[] = ['signed', 'submitted', 'replacing', 'mined', 'completed', 'failed'];
const OPEN_STATES: OutboundState[] = ['planned', 'signed', 'submitted', 'replacing', 'mined'];

export class OutboundRepository {
  get(m: EntityManager, id: string): Promise<OutboundTransferEntity | null> {
    return m.findOne(OutboundTransferEntity, { where: { id } });
  }

  /** The row, locked for this transaction (FOR UPDATE): the claim every step makes before it writes. */
  lock(m: EntityManager, id: string): Promise<OutboundTransferEntity | null> {
    return m.findOne(OutboundTransferEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  byPurpose(m: EntityManager, purpose: 'sweep' | 'refund', purposeId: string): Promise<OutboundTransferEntity | null> {
    return m.findOne(OutboundTransferEntity, { where: { purpose, purposeId } });
  }

  /** Inserts unless a transfer for the same sweep or refund exists (UQ_outbound_transfers_purpose). */
  async insertOnce(m: EntityManager, row: OutboundTransferEntity): Promise<boolean> {
    const result = await m
      .createQueryBuilder()
      .insert()
      .into(OutboundTransferEntity)
      .values(row)
      .orIgnore()
      .returning(['id'])
      .execute();
    return result.raw.length === 1;
  }

  attempts(m: EntityManager, transferId: string): Promise<OutboundAttemptEntity[]> {
    return m.find(OutboundAttemptEntity, { where: { transferId }, order: { attempt: 'ASC' } });
  }

  topUps(m: EntityManager, parentId: string): Promise<OutboundTransferEntity[]> {
    return m.find(OutboundTransferEntity, { where: { parentId }, order: { createdAt: 'ASC' } });
  }

  /** Ids of the transfers of a rail that are not final, oldest first. */
  async openIds(m: EntityManager, chain: string, network: Network): Promise<string[]> {
    const rows = await m.find(OutboundTransferEntity, {
      select: { id: true },
      where: { chain, network, state: In(OPEN_STATES) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map((r) => r.id);
  }

  /**
   * What other transfers from `address` have signed and may still take from its balance at `block`:
   * those not known to be mined at or below it. A native transfer commits its value and its
   * largest fee, a token transfer its fee and its amount of `token`.
   */
  async commitments(
    m: EntityManager,
    t: Pick<OutboundTransferEntity, 'id' | 'chain' | 'network' | 'fromAddress'>,
    token: string | null,
    block: bigint,
  ): Promise<Commitments> {
    // Rows mined at or below `block` are left out in SQL: a busy sender (the gas tank) has one
    // row per top-up ever paid, and loading them all for every decision would cost O(n) each.
    const rows = await m
      .createQueryBuilder(OutboundTransferEntity, 't')
      .where('t.chain = :chain AND t.network = :network AND t.from_address = :from', {
        chain: t.chain,
        network: t.network,
        from: t.fromAddress,
      })
      .andWhere('t.state IN (:...states) AND t.nonce IS NOT NULL AND t.id <> :id', { states: SIGNED_STATES, id: t.id })
      .andWhere('(t.block_number IS NULL OR t.block_number > :block)', { block: block.toString() })
      .getMany();
    const out = { native: 0n, token: 0n, count: 0 };
    for (const r of rows) {
      if (r.blockNumber !== null && r.blockNumber <= block) continue;
      const fee = (r.gasLimit ?? 0n) * (quoteOf(r)?.price ?? 0n);
      const amount = r.amountAtomic ?? 0n;
      out.count += 1;
      out.native += fee + (r.tokenAddress === null ? amount : 0n);
      if (token !== null && r.tokenAddress !== null && r.tokenAddress.toLowerCase() === token.toLowerCase()) {
        out.token += amount;
      }
    }
    return out;
  }

  /**
   * The next nonce of `address`, under the row's lock until the transaction ends: the larger of
   * the database's and the node's pending count (a database behind the chain is raised, never
   * lowered), then moved on by one.
   */
  async allocateNonce(
    m: EntityManager,
    key: { chain: string; network: Network; address: string },
    pendingOnChain: bigint,
    now: Date,
  ): Promise<bigint> {
    await m
      .createQueryBuilder()
      .insert()
      .into(EvmNonceEntity)
      .values({ ...key, nextNonce: pendingOnChain, updatedAt: now })
      .orIgnore()
      .execute();
    const row = await m.findOneOrFail(EvmNonceEntity, { where: key, lock: { mode: 'pessimistic_write' } });
    const nonce = row.nextNonce > pendingOnChain ? row.nextNonce : pendingOnChain;
    await m.update(EvmNonceEntity, key, { nextNonce: nonce + 1n, updatedAt: now });
    return nonce;
  }

  /** Locks the sender's nonce row (created if missing) so sign decisions for one address run one at a time. */
  async lockSender(m: EntityManager, key: { chain: string; network: Network; address: string }, now: Date) {
    await m
      .createQueryBuilder()
      .insert()
      .into(EvmNonceEntity)
      .values({ ...key, nextNonce: 0n, updatedAt: now })
      .orIgnore()
      .execute();
    await m.findOneOrFail(EvmNonceEntity, { where: key, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Cancels a planned transfer with nothing signed (and its planned gas top-ups) in the caller's
   * transaction, under the row's lock: the signer re-checks the row under the same lock before it
   * signs, so the two never both win. Returns false when something is signed (or it is final).
   */
  async cancelUnsigned(m: EntityManager, id: string, now: Date): Promise<boolean> {
    const t = await this.lock(m, id);
    if (!t) return false;
    if (t.state === 'cancelled') return true;
    if (t.state !== 'planned' || t.nonce !== null) return false;
    await m.update(OutboundTransferEntity, id, { state: 'cancelled', finishedAt: now, updatedAt: now });
    for (const u of await this.topUps(m, id)) {
      const locked = await this.lock(m, u.id);
      if (locked?.state !== 'planned' || locked.nonce !== null) continue;
      await m.update(OutboundTransferEntity, u.id, { state: 'cancelled', finishedAt: now, updatedAt: now });
    }
    return true;
  }
}
