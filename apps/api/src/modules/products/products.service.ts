import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { ProductEntity, ProductNetworkRow } from '@svc/db';
import {
  formatUsdCents,
  isUuid,
  Network,
  normalizeDecimal,
  parseUsdCents,
  PricingMode,
  productSlug,
  TOKEN_AMOUNT_RE,
  toAtomic,
  USD_FLOOR_CENTS,
} from '@svc/domain';
import { badRequest, conflict, notFound, ClockService } from '@svc/core';
import { CheckoutSettingsService } from '../checkout/checkout-settings.service';
import { CreateProductDto } from './dto/create-product.dto';
import { NetworkRowDto } from './dto/product-fields';
import { IMMUTABLE_PRODUCT_FIELDS, UpdateProductDto } from './dto/update-product.dto';
import * as msg from './products.errors';

export type ProductStatusFilter = 'active' | 'archived' | 'all';

interface RailInput {
  pricingMode: PricingMode;
  chain: string;
  network: Network;
  token: string;
  price: string;
  networks?: NetworkRowDto[];
  enabledChains?: string[];
}

@Injectable()
export class ProductsService {
  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly settings: CheckoutSettingsService,
    private readonly clock: ClockService,
  ) {}

  async create(workspaceId: string, dto: CreateProductDto): Promise<ProductEntity> {
    const pricingMode = dto.pricingMode ?? 'fixed';
    const network = dto.network ?? 'mainnet';
    this.assertKnownChain(dto.chain);
    const token = this.symbolOf(dto.chain, network, dto.token);
    let price = '0';
    let minAmount: string | null = null;
    let maxAmount: string | null = null;
    if (pricingMode === 'fixed') {
      if (dto.minAmount !== undefined) throw badRequest(msg.boundOnFixed('minAmount'));
      if (dto.maxAmount !== undefined) throw badRequest(msg.boundOnFixed('maxAmount'));
      if (dto.price === undefined) throw badRequest(msg.PRICE_REQUIRED);
      price = this.parsePrice('price', dto.price, dto.chain, network, token);
    } else {
      if (dto.price !== undefined) throw badRequest(msg.PRICE_ON_CUSTOM);
      [minAmount, maxAmount] = this.checkBounds(
        parseBound('minAmount', dto.minAmount),
        parseBound('maxAmount', dto.maxAmount),
      );
    }
    const rails = this.resolveRails({
      pricingMode,
      chain: dto.chain,
      network,
      token,
      price,
      networks: dto.networks,
      enabledChains: dto.enabledChains,
    });
    await this.settings.assertOnReturnOrigins(workspaceId, { successUrl: dto.successUrl, cancelUrl: dto.cancelUrl });
    const now = this.clock.now();
    const product: ProductEntity = {
      id: randomUUID(),
      workspaceId,
      slug: productSlug(dto.name, randomBytes(3).toString('hex')),
      name: dto.name,
      description: dto.description ?? null,
      imageUrl: dto.imageUrl ?? null,
      kind: 'one_off',
      pricingMode,
      chain: dto.chain,
      network,
      token,
      price,
      minAmount,
      maxAmount,
      networks: rails.networks,
      enabledChains: rails.enabledChains,
      successUrl: dto.successUrl ?? null,
      cancelUrl: dto.cancelUrl ?? null,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    await this.db.getRepository(ProductEntity).insert(product);
    return this.get(workspaceId, product.id);
  }

  async list(workspaceId: string, status: ProductStatusFilter): Promise<ProductEntity[]> {
    return this.db.getRepository(ProductEntity).find({
      where: status === 'all' ? { workspaceId } : { workspaceId, status },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Another workspace's product is reported exactly like a missing one (404). */
  async get(workspaceId: string, id: string, tx: EntityManager = this.db.manager): Promise<ProductEntity> {
    const product = isUuid(id) ? await tx.findOne(ProductEntity, { where: { id, workspaceId } }) : null;
    if (!product) throw notFound(msg.productNotFound(id));
    return product;
  }

  async findBySlug(slug: string, tx: EntityManager = this.db.manager): Promise<ProductEntity | null> {
    return slug.length <= 100 ? tx.findOne(ProductEntity, { where: { slug } }) : null;
  }

  async update(workspaceId: string, id: string, dto: UpdateProductDto): Promise<ProductEntity> {
    for (const field of IMMUTABLE_PRODUCT_FIELDS) {
      if (dto[field] !== undefined) throw badRequest(msg.immutableField(field));
    }
    return this.db.transaction(async (tx) => {
      if (!isUuid(id)) throw notFound(msg.productNotFound(id));
      const product = await tx.findOne(ProductEntity, {
        where: { id, workspaceId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!product) throw notFound(msg.productNotFound(id));
      const patch: Partial<ProductEntity> = {};
      if (dto.name !== undefined) patch.name = dto.name;
      if (dto.description !== undefined) patch.description = dto.description;
      if (dto.imageUrl !== undefined) patch.imageUrl = dto.imageUrl;
      if (dto.status !== undefined) patch.status = dto.status;
      if (dto.successUrl !== undefined) patch.successUrl = dto.successUrl;
      if (dto.cancelUrl !== undefined) patch.cancelUrl = dto.cancelUrl;
      if (dto.minAmount !== undefined || dto.maxAmount !== undefined) {
        if (product.pricingMode === 'fixed')
          throw badRequest(msg.boundOnFixed(dto.minAmount !== undefined ? 'minAmount' : 'maxAmount'));
        // spec: PATCH › "the pair is re-checked against the stored other side"
        const min =
          dto.minAmount !== undefined
            ? parseBound('minAmount', dto.minAmount ?? undefined)
            : storedCents(product.minAmount);
        const max =
          dto.maxAmount !== undefined
            ? parseBound('maxAmount', dto.maxAmount ?? undefined)
            : storedCents(product.maxAmount);
        [patch.minAmount, patch.maxAmount] = this.checkBounds(min, max);
      }
      if (dto.networks !== undefined || dto.enabledChains !== undefined) {
        const rails = this.resolveRails({
          pricingMode: product.pricingMode,
          chain: product.chain,
          network: product.network,
          token: product.token,
          price: product.price,
          networks: dto.networks,
          enabledChains: dto.enabledChains,
        });
        patch.networks = rails.networks;
        patch.enabledChains = rails.enabledChains;
      }
      await this.settings.assertOnReturnOrigins(
        workspaceId,
        { successUrl: dto.successUrl, cancelUrl: dto.cancelUrl },
        tx,
      );
      patch.updatedAt = this.clock.now();
      await tx.update(ProductEntity, { id }, patch);
      return this.get(workspaceId, id, tx);
    });
  }

  async archive(workspaceId: string, id: string): Promise<ProductEntity> {
    const product = await this.get(workspaceId, id);
    if (product.status === 'archived') return product;
    await this.db.getRepository(ProductEntity).update({ id }, { status: 'archived', updatedAt: this.clock.now() });
    return this.get(workspaceId, id);
  }

  /** spec: States › Product: deletion is only of an archived product that no session ever used. */
  async delete(workspaceId: string, id: string): Promise<{ id: string; object: 'product'; deleted: true }> {
    return this.db.transaction(async (tx) => {
      const product = await this.get(workspaceId, id, tx);
      if (product.status !== 'archived') throw conflict('Only an archived product can be deleted: archive it first.');
      const [{ used }]: Array<{ used: boolean }> = await tx.query(
        `SELECT EXISTS (SELECT 1 FROM checkout_sessions WHERE product_id = $1)
             OR EXISTS (SELECT 1 FROM payments WHERE product_id = $1) AS used`,
        [id],
      );
      if (used)
        throw conflict(
          'This product has been used by a checkout session or payment, so it cannot be deleted; it stays archived.',
        );
      await tx.delete(ProductEntity, { id });
      return { id, object: 'product', deleted: true };
    });
  }

  /** The effective bounds of a custom_amount product in cents (spec: effective minimum). */
  effectiveBounds(product: ProductEntity): { min: bigint; max: bigint | null } {
    const min = storedCents(product.minAmount);
    return {
      min: min !== undefined && min > USD_FLOOR_CENTS ? min : USD_FLOOR_CENTS,
      max: storedCents(product.maxAmount) ?? null,
    };
  }

  private assertKnownChain(chain: string): void {
    if (!this.chains.isKnownChain(chain)) {
      const known = [...new Set(this.chains.all().map((c) => c.chain))];
      throw badRequest(`chain ${chain} is not supported; use one of: ${known.join(', ')}.`);
    }
  }

  /** A token is stored as its registered symbol; an unregistered one as sent. */
  private symbolOf(chain: string, network: Network, token: string): string {
    return this.chains.findToken(chain, network, token)?.symbol ?? token;
  }

  private parsePrice(field: string, value: string, chain: string, network: Network, symbol: string): string {
    if (!TOKEN_AMOUNT_RE.test(value) || /^[0.]+$/.test(value)) throw badRequest(msg.priceFormat(field));
    const token = this.chains.findToken(chain, network, symbol);
    if (token && toAtomic(value, token.decimals) === null) {
      throw badRequest(
        `${field} has more decimal places than ${token.symbol} on ${chain} supports (${token.decimals}).`,
      );
    }
    return normalizeDecimal(value);
  }

  private checkBounds(min: bigint | undefined, max: bigint | undefined): [string | null, string | null] {
    if (min !== undefined && max !== undefined && min > max) throw badRequest(msg.MIN_ABOVE_MAX);
    return [min === undefined ? null : formatUsdCents(min), max === undefined ? null : formatUsdCents(max)];
  }

  /**
   * The buyer's choices: `networks` rows as sent (they also set enabledChains and must include
   * the product's own chain), else `enabledChains` at the product's own token and price.
   * custom_amount products pass the rail rule on every choice (spec: Resources › Product › Rail rule).
   */
  private resolveRails(input: RailInput): { networks: ProductNetworkRow[]; enabledChains: string[] } {
    const custom = input.pricingMode === 'custom_amount';
    let rows: ProductNetworkRow[];
    if (input.networks !== undefined) {
      rows = input.networks.map((row, i) => {
        this.assertKnownChain(row.chain);
        const token = this.symbolOf(row.chain, input.network, row.token);
        if (custom) {
          if (row.price !== undefined)
            throw badRequest(`networks[${i}].price is not accepted on a custom_amount product.`);
          return { chain: row.chain, token, price: null };
        }
        if (row.price === undefined) throw badRequest(`networks[${i}].price is required on a fixed-price product.`);
        return {
          chain: row.chain,
          token,
          price: this.parsePrice(`networks[${i}].price`, row.price, row.chain, input.network, token),
        };
      });
      if (!rows.some((r) => r.chain === input.chain)) throw badRequest(msg.NETWORKS_OWN_CHAIN(input.chain));
      const seen = new Set<string>();
      for (const r of rows) {
        const key = `${r.chain}/${r.token}`;
        if (seen.has(key)) throw badRequest(`networks lists ${key} twice.`);
        seen.add(key);
      }
    } else {
      const chains = [input.chain, ...(input.enabledChains ?? []).filter((c) => c !== input.chain)];
      chains.forEach((c) => this.assertKnownChain(c));
      rows = [...new Set(chains)].map((chain) => ({ chain, token: input.token, price: custom ? null : input.price }));
    }
    if (custom) {
      const problems = [{ chain: input.chain, token: input.token }, ...rows]
        .map((r) => this.chains.railProblem(r.chain, input.network, r.token))
        .filter((p): p is string => p !== null);
      if (problems.length) throw badRequest(problems[0]);
    }
    return { networks: rows, enabledChains: [...new Set(rows.map((r) => r.chain))] };
  }
}

function parseBound(field: 'minAmount' | 'maxAmount', value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  const cents = parseUsdCents(value);
  if (cents === null) throw badRequest(msg.usdFormatMessage(field));
  if (cents < USD_FLOOR_CENTS) throw badRequest(msg.usdFloorMessage(field));
  return cents;
}

function storedCents(value: string | null): bigint | undefined {
  return value === null ? undefined : (parseUsdCents(value) ?? undefined);
}
