import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ChainKind, claimPooledAddress, PublicDepositAddresses, XpubAddressWorker } from '@svc/chains';
import { unavailable } from '@svc/core';
import { LoggedRequest, RequestLogger } from '@svc/runtime';

/** Indexes reserved at once for a create that finds none derived ahead. */
const BLOCK = 32;
/** Indexes reserved at once for deriving ahead, derived by the worker in one message. */
const AHEAD_BLOCK = 8 * BLOCK;
/** Addresses derived ahead per family: another AHEAD_BLOCK is reserved when fewer than this are ready. */
const READY_LOW_WATER = AHEAD_BLOCK;
/** BIP-32 non-hardened children (and Sui's hardened `i'`) take indexes below 2^31. */
export const ADDRESS_INDEX_LIMIT = 2n ** 31n;
export const ADDRESSES_EXHAUSTED =
  'Deposit addresses are exhausted: the address index reached 2^31, the BIP-32 limit, so no new payment ' +
  'can be created with this seed.';
export const DEPOSIT_POOL_EMPTY =
  'No deposit address is available on this chain right now: its pool of pre-derived addresses is empty. ' +
  'The signer refills it (npm run start:signer; npm start runs it); try again shortly.';

export interface AllocatedAddress {
  kind: ChainKind;
  index: bigint;
  address: string;
}

/**
 * Fresh single-use deposit addresses (spec: What the service does 1), without the seed (issue 19 ›
 * Keys): a family with public derivation gets address i from the account xpub the signer
 * published; a family whose every level is hardened claims a pre-derived address from the pool the
 * signer keeps filled (in the caller's transaction, so a rollback returns it). Indexes come from one
 * database sequence, fetched in blocks so a payment create does not pay a round trip for it;
 * an index is handed out once per process and the sequence never repeats, so no two payments
 * share an address (unused indexes of a stopped process are simply skipped).
 *
 * EVM addresses are derived ahead (issue 23 › API): blocks of indexes reserved in the background
 * are derived in a worker thread (XpubAddressWorker), and a create takes a ready address, so the
 * curve multiplication is off the request path. A create never waits for the worker: with none
 * ready (at start, or once the worker died: logged once, never restarted) it takes an index and
 * derives inline as before. A block that was reserved but not derived goes to the inline indexes.
 *
 * A block is fetched on the caller's own transaction connection: a redeem holds a pooled
 * connection while it allocates, and waiting for a second one from the same pool deadlocks once
 * every connection is such a redeem. The background blocks take a pooled connection while holding none.
 *
 * A warning about a block derived ahead carries the `req` of the request whose create started it.
 */
@Injectable()
export class AddressAllocator implements OnModuleDestroy {
  private readonly logger = new RequestLogger('payments');
  private pool: bigint[] = [];
  private refill: Promise<void> | null = null;
  private exhausted = false;
  /** derived ahead, per family: each entry handed out once (taken off the list synchronously) */
  private readonly ready = new Map<ChainKind, Array<{ index: bigint; address: string }>>();
  private readonly deriving = new Map<ChainKind, Promise<void>>();
  private worker: XpubAddressWorker | null = null;
  private workerGone = false;
  /** a failure of the background block is logged once until one succeeds again */
  private aheadFailing = false;
  private closed = false;

  constructor(
    private readonly db: DataSource,
    private readonly addresses: PublicDepositAddresses,
  ) {}

  /** Whether `allocate` claims a pre-derived address from the pool (a write, in the caller's transaction). */
  claimsFromPool(kind: ChainKind): boolean {
    return !this.addresses.isPublic(kind);
  }

  async allocate(kind: ChainKind, tx: EntityManager = this.db.manager, req?: LoggedRequest): Promise<AllocatedAddress> {
    if (!this.addresses.isPublic(kind)) {
      const claimed = await claimPooledAddress(tx, kind);
      if (!claimed) throw unavailable(DEPOSIT_POOL_EMPTY);
      return { kind, ...claimed };
    }
    const ready = this.ready.get(kind);
    const taken = ready?.shift();
    if (!ready || ready.length < READY_LOW_WATER) this.deriveAhead(kind, req);
    if (taken) return { kind, ...taken };
    for (;;) {
      const index = await this.nextIndex(tx);
      if (index !== null) return { kind, index, address: this.addresses.address(kind, index) };
      // the last indexes may still be in the worker: they are this create's (derived, or back
      // in the inline indexes if the worker died), and only then is the end of the indexes final
      const inFlight = this.deriving.get(kind);
      if (!inFlight) throw unavailable(ADDRESSES_EXHAUSTED);
      await inFlight;
      const late = this.ready.get(kind)?.shift();
      if (late) return { kind, ...late };
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.worker?.close();
    await Promise.all(this.deriving.values());
  }

  /** Starts deriving a block of `kind` ahead in the worker, unless one is under way or it cannot be. */
  private deriveAhead(kind: ChainKind, req: LoggedRequest | undefined): void {
    if (this.closed || this.workerGone || this.exhausted || this.deriving.has(kind)) return;
    let xpub: string | null;
    try {
      xpub = this.addresses.evmXpub(kind);
    } catch {
      return; // not published yet: the inline path answers 503 as before
    }
    if (xpub === null) return;
    const work = this.deriveBlock(kind, xpub, req).finally(() => this.deriving.delete(kind));
    this.deriving.set(kind, work);
  }

  private async deriveBlock(kind: ChainKind, xpub: string, req: LoggedRequest | undefined): Promise<void> {
    let indexes: bigint[];
    try {
      // one statement for several chunks: under load the background waits for a pooled connection
      // like every request, so it asks for enough to cover that wait
      indexes = await this.fetchBlock(this.db.manager, AHEAD_BLOCK);
    } catch (err) {
      this.aheadFailed(err as Error, req);
      return;
    }
    if (this.closed) return void this.pool.push(...indexes);
    this.worker ??= new XpubAddressWorker();
    const worker = this.worker;
    try {
      // the whole block in one message each way: the main thread pays per message (its wake-up and
      // dispatch, some 40–60 µs), hardly per address
      const addresses = await worker.derive(
        xpub,
        indexes.map((i) => Number(i)),
      );
      const ready = this.ready.get(kind) ?? [];
      indexes.forEach((index, k) => ready.push({ index, address: addresses[k] }));
      this.ready.set(kind, ready);
      this.aheadFailing = false;
    } catch (err) {
      // reserved and never handed out: the inline path uses them (an index is still used at most once)
      this.pool.push(...indexes);
      if (!worker.alive) this.workerDied(err as Error, req);
      else this.aheadFailed(err as Error, req);
    }
  }

  private workerDied(err: Error, req: LoggedRequest | undefined): void {
    if (this.closed || this.workerGone) return;
    this.workerGone = true;
    this.logger
      .during(req)
      .warn(
        `deriving deposit addresses ahead stopped (${err.message}); they are derived on the request path from now on`,
      );
  }

  private aheadFailed(err: Error, req: LoggedRequest | undefined): void {
    if (this.closed || this.aheadFailing) return;
    this.aheadFailing = true;
    this.logger.during(req).warn(`deriving deposit addresses ahead failed: ${err.message}`);
  }

  /** The next reserved index, fetching a block when none is left; null once the indexes are exhausted. */
  private async nextIndex(tx: EntityManager): Promise<bigint | null> {
    for (;;) {
      const index = this.pool.shift();
      if (index !== undefined) return index;
      if (this.exhausted) return null;
      this.refill ??= this.fetchBlock(tx, BLOCK)
        .then((indexes) => void this.pool.push(...indexes))
        .finally(() => (this.refill = null));
      await this.refill;
    }
  }

  /** A block of fresh indexes from the sequence (below the BIP-32 limit; reaching it marks the end). */
  private async fetchBlock(tx: EntityManager, size: number): Promise<bigint[]> {
    const rows: Array<{ i: string }> = await tx.query(
      `SELECT nextval('deposit_address_index_seq') AS i FROM generate_series(1, $1)`,
      [size],
    );
    const indexes = rows.map((r) => BigInt(r.i));
    if (indexes.some((i) => i >= ADDRESS_INDEX_LIMIT)) this.exhausted = true;
    return indexes.filter((i) => i < ADDRESS_INDEX_LIMIT);
  }
}
