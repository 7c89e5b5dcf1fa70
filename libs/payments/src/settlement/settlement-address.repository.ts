// Queries of settlement addresses and product routes (house style 5). Writes take the caller's
// transaction. Every change of a rail's default (set default, retire, activation) first takes the
// rail's transaction-scoped advisory lock, so concurrent changes queue instead of colliding on the
// one-default index (which stays the guarantee).
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { ProductSettlementRouteEntity, SettlementAddressEntity } from '@svc/db';
import type { Network } from '@svc/domain';

export interface Rail {
  chain: string;
  network: Network;
}

export interface SettlementAddressFilters {
  chain?: string;
  network?: Network;
}

const LOCK_NAMESPACE = 'svc.settlement';

@Injectable()
export class SettlementAddressRepository {
  constructor(private readonly db: DataSource) {}

  // ------------------------------------------------------------------ reads

  /** Newest first (money contract: `GET /v1/settlement-addresses`). */
  list(workspaceId: string, f: SettlementAddressFilters): Promise<SettlementAddressEntity[]> {
    return this.db.manager.find(SettlementAddressEntity, {
      where: {
        workspaceId,
        ...(f.chain !== undefined ? { chain: f.chain } : {}),
        ...(f.network !== undefined ? { network: f.network } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  get(workspaceId: string, id: string, tx: EntityManager = this.db.manager): Promise<SettlementAddressEntity | null> {
    return tx.findOne(SettlementAddressEntity, { where: { id, workspaceId } });
  }

  /** The address a payout of this payment goes to: the product's route for the rail, else the rail's default; both active. */
  async destination(
    workspaceId: string,
    productId: string | null,
    rail: Rail,
    tx: EntityManager = this.db.manager,
  ): Promise<SettlementAddressEntity | null> {
    if (productId) {
      const routed: SettlementAddressEntity[] = await tx
        .createQueryBuilder(SettlementAddressEntity, 'a')
        .innerJoin(ProductSettlementRouteEntity, 'r', 'r.settlement_address_id = a.id')
        .where('r.product_id = :productId AND r.chain = :chain AND r.network = :network', { productId, ...rail })
        .andWhere(`a.workspace_id = :workspaceId AND a.status = 'active'`, { workspaceId })
        .getMany();
      if (routed.length) return routed[0];
    }
    return tx.findOne(SettlementAddressEntity, {
      where: { workspaceId, chain: rail.chain, network: rail.network, status: 'active', isDefault: true },
    });
  }

  routes(productId: string): Promise<ProductSettlementRouteEntity[]> {
    return this.db.manager.find(ProductSettlementRouteEntity, {
      where: { productId },
      order: { chain: 'ASC', network: 'ASC' },
    });
  }

  /** Active addresses of the workspace on a rail. */
  countActive(tx: EntityManager, workspaceId: string, rail: Rail): Promise<number> {
    return tx.count(SettlementAddressEntity, {
      where: { workspaceId, chain: rail.chain, network: rail.network, status: 'active' },
    });
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** Serialises changes of one workspace's rail (its default) until the transaction ends. */
  async lockRail(tx: EntityManager, workspaceId: string, rail: Rail): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
      LOCK_NAMESPACE,
      `${workspaceId}|${rail.chain}|${rail.network}`,
    ]);
  }

  lock(tx: EntityManager, workspaceId: string, id: string): Promise<SettlementAddressEntity | null> {
    return tx.findOne(SettlementAddressEntity, { where: { id, workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Locks these addresses against a concurrent retire while routes to them are written. */
  lockShared(tx: EntityManager, workspaceId: string, ids: string[]): Promise<SettlementAddressEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return tx.find(SettlementAddressEntity, {
      where: { workspaceId, id: In(ids) },
      lock: { mode: 'pessimistic_read' },
    });
  }

  /** Inserts a new address; false when the same address is already pending or active on the rail. */
  async insert(tx: EntityManager, a: SettlementAddressEntity): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .insert()
      .into(SettlementAddressEntity)
      .values(a)
      .orIgnore()
      .returning(['id'])
      .execute();
    return result.raw.length === 1;
  }

  /** The pending or active address with this spelling on the rail (the one a duplicate collides with). */
  findLive(
    tx: EntityManager,
    workspaceId: string,
    rail: Rail,
    address: string,
  ): Promise<SettlementAddressEntity | null> {
    return tx.findOne(SettlementAddressEntity, {
      where: { workspaceId, chain: rail.chain, network: rail.network, address, status: In(['pending', 'active']) },
    });
  }

  /** Makes `id` the rail's only default (the caller holds the rail lock and checked it is active). */
  async setDefault(tx: EntityManager, a: SettlementAddressEntity, now: Date): Promise<void> {
    await tx.query(
      `UPDATE settlement_addresses SET is_default = false, updated_at = $5
       WHERE workspace_id = $1 AND chain = $2 AND network = $3 AND is_default AND id <> $4`,
      [a.workspaceId, a.chain, a.network, a.id, now],
    );
    if (!a.isDefault) {
      await tx.update(SettlementAddressEntity, { id: a.id }, { isDefault: true, updatedAt: now });
      Object.assign(a, { isDefault: true, updatedAt: now });
    }
  }

  /** active → retired; its product routes go with it (payouts fall back to the rail's default). */
  async retire(tx: EntityManager, a: SettlementAddressEntity, now: Date): Promise<void> {
    await tx.delete(ProductSettlementRouteEntity, { settlementAddressId: a.id });
    await tx.update(
      SettlementAddressEntity,
      { id: a.id },
      { status: 'retired', isDefault: false, retiredAt: now, updatedAt: now },
    );
    Object.assign(a, { status: 'retired', isDefault: false, retiredAt: now, updatedAt: now });
  }

  /** A cancelled pending address is deleted (money contract). */
  async deletePending(tx: EntityManager, id: string): Promise<void> {
    await tx.delete(SettlementAddressEntity, { id, status: 'pending' });
  }

  async replaceRoutes(
    tx: EntityManager,
    workspaceId: string,
    productId: string,
    routes: Array<Rail & { settlementAddressId: string }>,
    now: Date,
  ): Promise<void> {
    await tx.delete(ProductSettlementRouteEntity, { productId });
    if (!routes.length) return;
    await tx.insert(
      ProductSettlementRouteEntity,
      routes.map((r) => ({ productId, workspaceId, ...r, createdAt: now })),
    );
  }

  // ------------------------------------------------------------------ activation (the time-driven job)

  /** Pending addresses whose cool-down is over, oldest first. */
  async due(now: Date, limit: number): Promise<Array<{ id: string; workspaceId: string } & Rail>> {
    const rows: Array<{ id: string; workspace_id: string; chain: string; network: Network }> = await this.db.query(
      `SELECT id, workspace_id, chain, network FROM settlement_addresses
       WHERE status = 'pending' AND activates_at <= $1 ORDER BY activates_at, id LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, chain: r.chain, network: r.network }));
  }

  /** pending → active, guarded; the first active address of a rail (no default yet) becomes its default. */
  async activate(tx: EntityManager, id: string, now: Date): Promise<SettlementAddressEntity | null> {
    const a = await tx.findOne(SettlementAddressEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!a || a.status !== 'pending' || a.activatesAt.getTime() > now.getTime()) return null;
    const hasDefault = await tx.exists(SettlementAddressEntity, {
      where: { workspaceId: a.workspaceId, chain: a.chain, network: a.network, isDefault: true },
    });
    Object.assign(a, { status: 'active', isDefault: !hasDefault, activatedAt: now, updatedAt: now });
    await tx.update(
      SettlementAddressEntity,
      { id },
      { status: 'active', isDefault: a.isDefault, activatedAt: now, updatedAt: now },
    );
    return a;
  }
}
