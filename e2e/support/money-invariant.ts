// The ONE place the money-engine property test (e2e/money-engine.property.e2e-spec.ts) reads the
// engine's own tables. Everything else in that test sees the engine from outside: the public API
// (GET /v1/payments/:id, /v1/sweeps, /v1/refunds) and balances and transactions on the devnet.
// Two questions cannot be answered from outside, and both are asked here:
//   1. which live legs claim coins at an address right now (a refund or sweep that is planned or
//      signed but not final), and how much each claims;
//   2. which sweep or refund a transaction found on chain belongs to (a transaction broadcast by a
//      process killed before it recorded the hash is on chain, but not yet in the API).
// Today they read outbound_transfers / outbound_attempts (issue 18 before its rewrite). When the
// engine moves to outbound transactions with legs and a claims table (money contract, issue 18),
// re-point these two functions at it (claims keyed by chain and address; legs by attempt hash) and
// leave the property test as it is.

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

/** The not-yet-final states of an outbound transfer: its amount is still claimed from its source. */
const LIVE_STATES = ['planned', 'signed', 'submitted', 'replacing', 'mined'];

/**
 * The sweep or refund a transfer pays: the row whose transfer_id links it, else its purpose id (a
 * sweep whose first transfer was given up gets a transfer with a purpose id of its own; only
 * sweeps.transfer_id links that one). A SQL expression over the transfer aliased `t`.
 */
const OWNER = `COALESCE((SELECT s.id::text FROM sweeps s WHERE s.transfer_id = t.id),
                        (SELECT r.id::text FROM refunds r WHERE r.transfer_id = t.id),
                        t.purpose_id::text)`;

/** Every live leg drawing on `address` (chain, network) according to the engine's records. */
export async function liveLegsFrom(db: Queryable, chain: string, network: string, address: string): Promise<LiveLeg[]> {
  const rows = await db.query(
    `SELECT t.id, t.purpose, ${OWNER} AS owner, t.to_address, t.amount_mode, t.amount_atomic,
            array_remove(array_cat(array_agg(a.tx_hash), ARRAY[t.tx_hash]::varchar[]), NULL) AS hashes
       FROM outbound_transfers t
       LEFT JOIN outbound_attempts a ON a.transfer_id = t.id
      WHERE t.chain = $1 AND t.network = $2 AND lower(t.from_address) = lower($3) AND t.state = ANY($4)
      GROUP BY t.id`,
    [chain, network, address, LIVE_STATES],
  );
  return rows.map((r) => ({
    id: r.id as string,
    purpose: r.purpose as LegPurpose,
    purposeId: r.owner as string,
    toAddress: (r.to_address as string).toLowerCase(),
    amountAtomic: r.amount_mode === 'all' ? null : BigInt(r.amount_atomic as string),
    txHashes: [...new Set((r.hashes as string[]).map((x) => x.toLowerCase()))],
  }));
}

/** A transaction found on chain, as the engine recorded it. */
export interface RecordedLeg {
  id: string;
  purpose: LegPurpose;
  /**
   * The sweep or refund it pays; for a gas top-up, the one whose transfer it fuels (when that
   * transfer was given up unsigned, nothing links it to a row any more: its own purpose id then).
   */
  purposeId: string | null;
  /** for a gas top-up: the address whose transfer it fuels (lower case) */
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
    `SELECT t.id, t.purpose, ${OWNER} AS owner, parent.from_address AS fuels,
            (SELECT ${OWNER.replace(/\bt\./g, 'parent.')}) AS parent_owner
       FROM outbound_transfers t
       LEFT JOIN outbound_transfers parent ON parent.id = t.parent_id
      WHERE t.chain = $1 AND t.network = $2
        AND (lower(t.tx_hash) = lower($3)
             OR EXISTS (SELECT 1 FROM outbound_attempts a WHERE a.transfer_id = t.id AND lower(a.tx_hash) = lower($3)))`,
    [chain, network, txHash],
  );
  if (rows.length > 1) throw new Error(`transaction ${txHash} is recorded for ${rows.length} transfers`);
  const [r] = rows;
  if (!r) return null;
  if (r.purpose !== 'gas_topup') {
    return { id: r.id as string, purpose: r.purpose as LegPurpose, purposeId: r.owner as string, fuels: null };
  }
  // a top-up belongs to the transfer it fuels (its parent), whose row link may have moved on
  return {
    id: r.id as string,
    purpose: 'gas_topup',
    purposeId: (r.parent_owner as string | null) ?? null,
    fuels: (r.fuels as string).toLowerCase(),
  };
}
