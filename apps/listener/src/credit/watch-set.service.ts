// The addresses the listener watches per (chain, network): every payment still inside the spec's
// watch rules (spec: Payment › Other rules › watch window; Limits › watched payments: those
// counts are a floor, not a ceiling here, so nothing is capped).
//
// Cheap at 1,000,000 addresses (npm run bench:watchset, docs/performance.md):
// - The full set is read in pages of PAGE_ROWS payments in id order (keyset on the partial index
//   IDX_payments_watch_page, an index-only scan), each page one short statement aggregated into one string (no per-row
//   decoding), never one statement over the whole set (issue 21, item 1). It is re-read that way
//   in the background every RELOAD_MS; the re-read also drops payments that left the rules.
// - In between, every call first reads only the payments inserted since the previous read: rows
//   whose inserting transaction (`payments.recorded_xid`) had not finished when that read took its
//   snapshot. So the set a call returns holds every payment committed before the call (a payment
//   whose address was shown to a buyer), whatever the dev clock says, and a burst of inserts is
//   read once, not again and again.
// Payments enter the watch rules only when they are created, so nothing else needs picking up; a
// payment that left the rules but is still in the set costs one credit attempt that the credit
// transaction refuses under its lock.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainKind, ChainRegistry, watchAddress } from '@svc/chains';
import { LATE_TRANSFER_WINDOW_MS, Network, PaymentStatus, WATCHED_PAYMENT_STATUSES } from '@svc/domain';
import { ClockService } from '@svc/core';
import type { WatchSet } from '@svc/chains';

/** A watched payment as the database has it now (the credit transaction re-reads it under lock anyway). */
export interface WatchedPayment {
  paymentId: string;
  workspaceId: string;
  /** the watch-set form: EVM lower-case 0x…, Sui 0x + 64 lower-case hex */
  address: string;
  token: string;
  tokenAddress: string | null;
  status: PaymentStatus;
  expiresAt: Date;
}

/** How often the whole set is re-read, page by page (in the background; only the first read is waited for). */
export const RELOAD_MS = 300_000;

/** Payments per page of a full read. */
export const PAGE_ROWS = 20_000;

/** The watched statuses as SQL literals, so the planner matches the partial index's predicate. */
const WATCHED_SQL = WATCHED_PAYMENT_STATUSES.map((status) => `'${status}'`).join(', ');

interface RailState {
  kind: ChainKind | undefined;
  addresses: Set<string>;
  /** address → payment id */
  ids: Map<string, string>;
  /** xmin of the snapshot of the newest read whose rows are in the maps */
  horizon: string;
  loadedAt: number;
  reloading: Promise<void> | null;
  /** what deltas added while a re-read ran: carried over into the re-read set */
  addedDuringReload: Array<[string, string]> | null;
  delta: Promise<void> | null;
  queuedDelta: Promise<void> | null;
}

interface Read {
  horizon: string;
  /** "address id,address id,…" */
  rows: string;
}

@Injectable()
export class WatchSetService implements WatchSet {
  private readonly rails = new Map<string, Promise<RailState>>();

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
  ) {}

  /**
   * Normalized addresses of the payments still watched on (chain, network), including every
   * payment committed before this call. The set is shared and updated in place: read it, never
   * change it.
   */
  async addresses(chain: string, network: Network): Promise<Set<string>> {
    return (await this.fresh(chain, network)).addresses;
  }

  /** The watched payment at an address (any spelling of it), or null. */
  async lookup(chain: string, network: Network, address: string): Promise<WatchedPayment | null> {
    const state = await this.fresh(chain, network);
    const key = state.kind ? watchAddress(state.kind, address) : address;
    const id = key === null ? undefined : state.ids.get(key);
    if (key === null || id === undefined) return null;
    const rows: Array<{
      workspace_id: string;
      token: string;
      token_address: string | null;
      status: PaymentStatus;
      expires_at: Date;
    }> = await this.db.query(
      `SELECT workspace_id, token, token_address, status, expires_at FROM payments WHERE id = $1`,
      [id],
    );
    if (!rows.length) return null;
    const r = rows[0];
    return {
      paymentId: id,
      workspaceId: r.workspace_id,
      address: key,
      token: r.token,
      tokenAddress: r.token_address,
      status: r.status,
      expiresAt: r.expires_at,
    };
  }

  /** Forgets everything read (tests; a process that wants a full read now). */
  reset(): void {
    this.rails.clear();
  }

  private async fresh(chain: string, network: Network): Promise<RailState> {
    const key = `${chain}/${network}`;
    let pending = this.rails.get(key);
    if (!pending) {
      pending = this.load(chain, network);
      this.rails.set(key, pending);
      pending.catch(() => this.rails.delete(key));
      return pending; // a full read is as fresh as a delta
    }
    const state = await pending;
    if (Date.now() - state.loadedAt >= RELOAD_MS && !state.reloading) this.reload(chain, network, state);
    await this.delta(chain, network, state);
    return state;
  }

  private reload(chain: string, network: Network, state: RailState): void {
    state.addedDuringReload = [];
    state.reloading = this.load(chain, network)
      .then((next) => {
        // What the deltas found while the re-read ran stays; later deltas look back from the
        // re-read's own snapshot, so nothing inserted meanwhile is lost.
        for (const [address, id] of state.addedDuringReload ?? []) add(next, address, id);
        Object.assign(state, {
          addresses: next.addresses,
          ids: next.ids,
          horizon: next.horizon,
          loadedAt: next.loadedAt,
        });
      })
      .catch(() => undefined) // keep serving the current set; the next call tries again
      .finally(() => {
        state.reloading = null;
        state.addedDuringReload = null;
      });
  }

  /**
   * A read that starts after this call. Concurrent callers share one: if a read is already running
   * (it may have taken its snapshot before this call), one more is queued behind it.
   */
  private delta(chain: string, network: Network, state: RailState): Promise<void> {
    if (!state.delta) {
      state.delta = this.runDelta(chain, network, state).finally(() => (state.delta = null));
      return state.delta;
    }
    state.queuedDelta ??= state.delta
      .catch(() => undefined)
      .then(() => {
        state.queuedDelta = null;
        return this.delta(chain, network, state);
      });
    return state.queuedDelta;
  }

  private async runDelta(chain: string, network: Network, state: RailState): Promise<void> {
    const read = await this.read(chain, network, state.horizon);
    for (const [address, id] of parse(state.kind, read.rows)) {
      add(state, address, id);
      state.addedDuringReload?.push([address, id]);
    }
    if (BigInt(read.horizon) > BigInt(state.horizon)) state.horizon = read.horizon;
  }

  private async load(chain: string, network: Network): Promise<RailState> {
    const kind = this.chains.get(chain, network)?.kind;
    // The horizon is taken before the first page: a payment committed while the pages are read
    // has recorded_xid >= it, so the next delta reads it even if its page was already passed.
    const [{ horizon }]: Array<{ horizon: string }> = await this.db.query(
      `SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS horizon`,
    );
    const state: RailState = {
      kind,
      addresses: new Set(),
      ids: new Map(),
      horizon,
      loadedAt: Date.now(),
      reloading: null,
      addedDuringReload: null,
      delta: null,
      queuedDelta: null,
    };
    const cutoff = this.watchCutoff();
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const [page]: Array<{ rows: string | null; n: number }> = await this.db.query(
        `SELECT string_agg(payment_address || ' ' || id::text, ',' ORDER BY id) AS rows, count(*)::int AS n
         FROM (SELECT payment_address, id FROM payments
               WHERE chain = $1 AND network = $2 AND status IN (${WATCHED_SQL}) AND expires_at > $3 AND id > $4
               ORDER BY id LIMIT $5) AS page`,
        [chain, network, cutoff, after, PAGE_ROWS],
      );
      let last: string | null = null;
      for (const [address, id] of parse(kind, page.rows ?? '')) {
        add(state, address, id);
        last = id;
      }
      if (page.n < PAGE_ROWS || last === null) break;
      after = last;
    }
    state.loadedAt = Date.now();
    return state;
  }

  /** spec: Other rules › watch window: open payments and expired ones, for 7 days after expiresAt. */
  private watchCutoff(): Date {
    return new Date(this.clock.now().getTime() - LATE_TRANSFER_WINDOW_MS);
  }

  /**
   * The payments recorded since `since` that are inside the watch rules, with the xmin of the
   * statement's own snapshot: a later read of rows with recorded_xid >= that horizon sees every
   * insert this one could not. Uses IDX_payments_recorded (chain, network, recorded_xid).
   */
  private async read(chain: string, network: Network, since: string): Promise<Read> {
    const rows: Read[] = await this.db.query(
      `SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS horizon,
         (SELECT coalesce(string_agg(payment_address || ' ' || id::text, ','), '') FROM payments
          WHERE chain = $1 AND network = $2 AND recorded_xid >= $3 AND status IN (${WATCHED_SQL}) AND expires_at > $4) AS rows`,
      [chain, network, since, this.watchCutoff()],
    );
    return rows[0];
  }
}

function add(state: Pick<RailState, 'addresses' | 'ids'>, address: string, id: string): void {
  state.addresses.add(address);
  state.ids.set(address, id);
}

function* parse(kind: ChainKind | undefined, rows: string): Generator<[string, string]> {
  if (rows === '') return;
  for (const row of rows.split(',')) {
    const space = row.indexOf(' ');
    const stored = row.slice(0, space);
    // Deposit addresses are stored in the family's deposit form; the watch form is the codec's.
    const address = kind ? (watchAddress(kind, stored) ?? stored) : stored;
    yield [address, row.slice(space + 1)];
  }
}
