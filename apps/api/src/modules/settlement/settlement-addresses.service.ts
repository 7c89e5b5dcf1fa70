// money contract › Settlement addresses: introduce an address (pending through the cool-down),
// choose the default among active ones, cancel or retire, and route products per rail. Every
// change of a rail's default runs under the rail's lock; the database keeps one default per rail.
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChainRegistry, parseSettlementAddress } from '@svc/chains';
import { badRequest, ClockService, conflict, inRetriedTransaction, notFound, SVC_CONFIG, SvcConfig } from '@svc/core';
import { ProductSettlementRouteEntity, SettlementAddressEntity } from '@svc/db';
import { assertUnreachable, decideSettlementRemoval, isUuid, Network, ONLY_ACTIVE_CAN_BE_DEFAULT } from '@svc/domain';
import { destinationKeyOf } from '@svc/config';
import { appendEvents, SettlementAddressRepository, settlementAddressEvent, settlementAddressMac } from '@svc/payments';
import { ProductsService } from '../products/products.service';
import { CreateSettlementAddressDto } from './dto/create-settlement-address.dto';
import { PutSettlementRoutesDto } from './dto/put-settlement-routes.dto';
import * as msg from './settlement.errors';

@Injectable()
export class SettlementAddressesService {
  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly clock: ClockService,
    private readonly addresses: SettlementAddressRepository,
    private readonly products: ProductsService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /** Created `pending`, active once the cool-down (service clock) has passed; settlement.address_added at once. */
  async create(workspaceId: string, dto: CreateSettlementAddressDto): Promise<SettlementAddressEntity> {
    const network = dto.network ?? 'mainnet';
    const rail = this.chains.get(dto.chain, network);
    if (!rail) throw badRequest(msg.unknownRail(dto.chain, network));
    const parsed = parseSettlementAddress(rail.kind, rail.chain, dto.address);
    if ('error' in parsed) throw badRequest(parsed.error);
    const address = parsed.address;
    // Sweeping into one of our own deposit addresses would look like a payment to it.
    const [{ taken }]: Array<{ taken: boolean }> = await this.db.query(
      'SELECT EXISTS (SELECT 1 FROM payments WHERE payment_address = $1) AS taken',
      [address],
    );
    if (taken) throw badRequest(msg.depositAddressRefused(address));
    const now = this.clock.now();
    const entity: SettlementAddressEntity = {
      id: randomUUID(),
      workspaceId,
      chain: rail.chain,
      network,
      address,
      label: dto.label?.trim() || null,
      status: 'pending',
      isDefault: false,
      activatesAt: new Date(now.getTime() + this.config.settlementCooldownSeconds * 1000),
      destinationMac: null,
      activatedAt: null,
      retiredAt: null,
      createdAt: now,
      updatedAt: now,
    };
    // docs/money-out.md › Destinations: the signer pays this address only with the MAC the API gives it here
    entity.destinationMac = settlementAddressMac(destinationKeyOf(this.config), entity);
    return this.db.transaction(async (tx) => {
      if (!(await this.addresses.insert(tx, entity))) {
        const existing = await this.addresses.findLive(tx, workspaceId, { chain: rail.chain, network }, address);
        throw conflict(msg.duplicateAddress(address, rail.chain, network, existing?.id ?? 'unknown'));
      }
      await appendEvents(tx, workspaceId, [settlementAddressEvent('settlement.address_added', entity)], now);
      return entity;
    });
  }

  list(workspaceId: string, filters: { chain?: string; network?: Network }): Promise<SettlementAddressEntity[]> {
    return this.addresses.list(workspaceId, filters);
  }

  async get(workspaceId: string, id: string): Promise<SettlementAddressEntity> {
    const a = isUuid(id) ? await this.addresses.get(workspaceId, id) : null;
    if (!a) throw notFound(msg.settlementAddressNotFound(id));
    return a;
  }

  /** Only an active address can be the default; the rail's previous default stops being one. */
  async setDefault(workspaceId: string, id: string): Promise<SettlementAddressEntity> {
    const found = await this.get(workspaceId, id);
    return inRetriedTransaction(this.db, async (tx) => {
      await this.addresses.lockRail(tx, workspaceId, found);
      const a = await this.addresses.lock(tx, workspaceId, id);
      if (!a) throw notFound(msg.settlementAddressNotFound(id));
      if (a.status !== 'active') throw conflict(ONLY_ACTIVE_CAN_BE_DEFAULT);
      await this.addresses.setDefault(tx, a, this.clock.now());
      return a;
    });
  }

  /**
   * pending: deleted (null: 204). active and not the default: retired. The default while another
   * address is active: 409. The only active address: retired, and the rail's payouts wait (held).
   */
  async remove(workspaceId: string, id: string): Promise<SettlementAddressEntity | null> {
    const found = await this.get(workspaceId, id);
    return inRetriedTransaction(this.db, async (tx) => {
      await this.addresses.lockRail(tx, workspaceId, found);
      const a = await this.addresses.lock(tx, workspaceId, id);
      if (!a) throw notFound(msg.settlementAddressNotFound(id));
      const decision = decideSettlementRemoval(a, await this.addresses.countActive(tx, workspaceId, a));
      switch (decision.kind) {
        case 'delete':
          await this.addresses.deletePending(tx, a.id);
          return null;
        case 'retire':
          await this.addresses.retire(tx, a, this.clock.now());
          return a;
        case 'already_retired':
          return a;
        case 'conflict':
          throw conflict(decision.message);
        default:
          return assertUnreachable(decision);
      }
    });
  }

  async routes(workspaceId: string, productId: string): Promise<ProductSettlementRouteEntity[]> {
    const product = await this.products.get(workspaceId, productId);
    return this.addresses.routes(product.id);
  }

  /** Replaces the product's routes; each address must be active on the route's rail (409 otherwise). */
  async putRoutes(
    workspaceId: string,
    productId: string,
    dto: PutSettlementRoutesDto,
  ): Promise<ProductSettlementRouteEntity[]> {
    const routes = dto.routes.map((r) => ({
      chain: r.chain,
      network: r.network ?? ('mainnet' as Network),
      settlementAddressId: r.settlementAddressId,
    }));
    const seen = new Set<string>();
    for (const r of routes) {
      const key = `${r.chain}/${r.network}`;
      if (seen.has(key)) throw badRequest(msg.duplicateRoute(r.chain, r.network));
      seen.add(key);
    }
    const product = await this.products.get(workspaceId, productId);
    await inRetriedTransaction(this.db, async (tx) => {
      const ids = [...new Set(routes.map((r) => r.settlementAddressId).filter(isUuid))];
      // shared locks: a concurrent retire waits until these routes are written (and then removes them)
      const locked = new Map((await this.addresses.lockShared(tx, workspaceId, ids)).map((a) => [a.id, a]));
      for (const r of routes) {
        const a = locked.get(r.settlementAddressId);
        if (!a || a.status !== 'active' || a.chain !== r.chain || a.network !== r.network) {
          throw conflict(msg.notActiveOnRail(r.settlementAddressId, r.chain, r.network));
        }
      }
      await this.addresses.replaceRoutes(tx, workspaceId, product.id, routes, this.clock.now());
    });
    return this.addresses.routes(product.id);
  }
}
