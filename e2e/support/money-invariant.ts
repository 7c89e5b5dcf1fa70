// The ONE place the money-engine property test (e2e/money-engine.property.e2e-spec.ts) reads the
// engine's own tables. Everything else in that test sees the engine from outside: the public API
// (GET /v1/payments/:id, /v1/sweeps, /v1/refunds) and balances and transactions on the devnet.
// Two questions cannot be answered from outside, and both are asked here:
//   1. which live legs claim coins at an address right now (a refund or sweep that is planned or
//      signed but not final), and how much each claims;
//   2. which sweep or refund a transaction found on chain belongs to (a transaction broadcast by a
//      process killed before it recorded the hash is on chain, but not yet in the API).
// They read the engine of issue 18: outbound transactions carry legs, every live leg holds a claim on
// its source address (outbound_claims, keyed by chain and address, released when its transaction is
// final or given up), and sweeps.transfer_id / refunds.transfer_id link an outbound transaction.

/** The database handle of the test app (a TypeORM DataSource); only `query` is used. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
}

export type LegPurpose = 'sweep' | 'refund' | 'gas_topup';

/** One live claim on an address: coins a planned or in-flight leg will take from it. */
export interface LiveLeg {
  /** the outbound transfer (today) or leg (after the rewrite) */
  id: string;
  purpose: LegPurpose;
  /** the sweep or refund the leg pays (for a gas top-up: the one whose gas it pays) */
  purposeId: string;
  toAddress: string;
  /** the amount claimed; null for a leg that takes whatever the address holds less the fee (a native sweep) */
  amountAtomic: bigint | null;
  /** hashes of every transaction signed for it so far (lower case); empty before signing */
  txHashes: string[];
}

/**
 * The sweep or refund a transaction pays: the row whose transfer_id links it, else its leg's purpose
 * id (a sweep whose first transaction was given up gets one with a purpose id of its own; only
 * sweeps.transfer_id links that one). A SQL expression over the transaction aliased `t` and its leg `l`.
 */
const OWNER = `COALESCE((SELECT s.id::text FROM sweeps s WHERE s.transfer_id = t.id),
                        (SELECT r.id::text FROM refunds r WHERE r.transfer_id = t.id),
                        l.purpose_id::text)`;

/** The engine's leg purpose `gas` is the test's `gas_topup`. */
const purposeOf = (p: unknown): LegPurpose => (p === 'gas' ? 'gas_topup' : (p as LegPurpose));

/** Every live leg drawing on `address` (chain, network): the unreleased claims on it. */
export async function liveLegsFrom(db: Queryable, chain: string, network: string, address: string): Promise<LiveLeg[]> {
  const rows = await db.query(
    `SELECT l.id, l.purpose, ${OWNER} AS owner, l.to_address, l.amount_mode, c.amount_atomic,
            array_remove(array_cat(array_agg(a.tx_hash), ARRAY[t.tx_hash]::varchar[]), NULL) AS hashes
       FROM outbound_claims c
       JOIN outbound_legs l ON l.id = c.leg_id
       JOIN outbound_transactions t ON t.id = l.transaction_id
       LEFT JOIN outbound_attempts a ON a.transaction_id = t.id
      WHERE c.chain = $1 AND c.network = $2 AND lower(c.address) = lower($3) AND c.released_at IS NULL
      GROUP BY l.id, t.id, c.leg_id`,
    [chain, network, address],
  );
  return rows.map((r) => ({
    id: r.id as string,
    purpose: purposeOf(r.purpose),
    purposeId: r.owner as string,
    toAddress: (r.to_address as string).toLowerCase(),
    amountAtomic: r.amount_mode === 'all' || r.amount_atomic === null ? null : BigInt(r.amount_atomic as string),
    txHashes: [...new Set((r.hashes as string[]).map((x) => x.toLowerCase()))],
  }));
}

/** A transaction found on chain, as the engine recorded it. */
export interface RecordedLeg {
  id: string;
  purpose: LegPurpose;
  /**
   * The sweep or refund it pays; for a gas top-up, the one whose transaction it fuels (when that
   * transaction was given up unsigned, nothing links it to a row any more: its own purpose id then).
   */
  purposeId: string | null;
  /** for a gas top-up: the address whose transaction it fuels (lower case) */
  fuels: string | null;
}

/** The leg a transaction (by hash) was signed for, or null when the engine never signed it. */
export async function legOfTransaction(
  db: Queryable,
  chain: string,
  network: string,
  txHash: string,
): Promise<RecordedLeg | null> {
  const rows = await db.query(
    `SELECT l.id, l.purpose, ${OWNER} AS owner, parent.sender_address AS fuels,
            (SELECT COALESCE((SELECT s.id::text FROM sweeps s WHERE s.transfer_id = parent.id),
                             (SELECT r.id::text FROM refunds r WHERE r.transfer_id = parent.id),
                             (SELECT pl.purpose_id::text FROM outbound_legs pl WHERE pl.transaction_id = parent.id ORDER BY pl.ordinal LIMIT 1))
            ) AS parent_owner
       FROM outbound_transactions t
       JOIN outbound_legs l ON l.transaction_id = t.id
       LEFT JOIN outbound_transactions parent ON parent.id = t.funds_transaction_id
      WHERE t.chain = $1 AND t.network = $2
        AND (lower(t.tx_hash) = lower($3)
             OR EXISTS (SELECT 1 FROM outbound_attempts a WHERE a.transaction_id = t.id AND lower(a.tx_hash) = lower($3)))`,
    [chain, network, txHash],
  );
  if (rows.length > 1) throw new Error(`transaction ${txHash} is recorded for ${rows.length} legs`);
  const [r] = rows;
  if (!r) return null;
  if (r.purpose !== 'gas') {
    return { id: r.id as string, purpose: purposeOf(r.purpose), purposeId: r.owner as string, fuels: null };
  }
  // a gas leg belongs to the transaction it fuels (its funds_transaction_id), whose row link may have moved on
  return {
    id: r.id as string,
    purpose: 'gas_topup',
    purposeId: (r.parent_owner as string | null) ?? null,
    fuels: (r.fuels as string).toLowerCase(),
  };
}
