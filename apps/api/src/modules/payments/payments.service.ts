import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry, UNREGISTERED_CHAIN_KIND } from '@svc/chains';
import { badRequest, ClockService, conflict, notFound } from '@svc/core';
import { PaymentEntity } from '@svc/db';
import { isUuid, Network, normalizeDecimal, SIGNED_DECIMAL_RE, toAtomic } from '@svc/domain';
import { PaymentRepository } from '@svc/payments';
import { LoggedRequest } from '@svc/runtime';
import type { KeyCheck } from '../auth/auth.decorators';
import { AddressAllocator } from './address-allocator.service';
import { CreatePaymentDto } from './dto/create-payment.dto';

/** spec: Limits › payment expiry, fixed 30 minutes. */
export const PAYMENT_TTL_MS = 30 * 60 * 1000;

/** Everything a new payment needs; the rail is already resolved and validated by the caller. */
export interface MintPayment {
  workspaceId: string;
  chain: string;
  network: Network;
  token: string;
  amount: string;
  currency: string;
  idempotencyKey: string | null;
  idempotencyScope: string | null;
  metadata: Record<string, unknown>;
  productId: string | null;
  checkoutSessionId: string | null;
}

export interface MintResult {
  payment: PaymentEntity;
  /** false when an idempotency scope matched an existing payment */
  created: boolean;
}

@Injectable()
export class PaymentsService {
  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly addresses: AddressAllocator,
    private readonly clock: ClockService,
    private readonly repository: PaymentRepository,
  ) {}

  /**
   * POST /v1/payments (spec: Endpoints › Payments). With `keyCheck` (a key served from the guard's
   * cache, not yet confirmed not revoked) the payment's insert checks the key row itself (mint).
   */
  async createDirect(
    workspaceId: string,
    dto: CreatePaymentDto,
    req?: LoggedRequest,
    keyCheck?: KeyCheck,
  ): Promise<MintResult> {
    const network = dto.network ?? 'mainnet';
    switch (this.chains.classifyPaymentChain(dto.chain)) {
      case 'rejected':
        throw badRequest(`chain ${dto.chain} is not supported: payments on it are rejected.`);
      case 'unknown':
        throw badRequest(`chain ${dto.chain} is not a known chain.`);
      case 'registered':
      case 'accepted':
        break;
    }
    if (!SIGNED_DECIMAL_RE.test(dto.amount))
      throw badRequest('amount must be a decimal string in token units, e.g. 10 or 0.5.');
    const metadata = dto.metadata ?? {};
    if (Array.isArray(dto.metadata)) throw badRequest('metadata must be a JSON object.');
    if (dto.idempotencyKey !== undefined) {
      const existing = await this.findByScope(workspaceId, dto.idempotencyKey);
      if (existing) return { payment: this.replay(existing, dto.chain, network), created: false };
    }
    const result = await this.mint(
      this.db.manager,
      {
        workspaceId,
        chain: dto.chain,
        network,
        token: dto.token,
        amount: dto.amount,
        currency: dto.currency.toUpperCase(),
        idempotencyKey: dto.idempotencyKey ?? null,
        idempotencyScope: dto.idempotencyKey ?? null,
        metadata,
        productId: null,
        checkoutSessionId: null,
      },
      req,
      keyCheck,
    );
    return result.created ? result : { payment: this.replay(result.payment, dto.chain, network), created: false };
  }

  /**
   * Inserts a payment at a fresh address. With an idempotency scope the database decides
   * between concurrent creates (ON CONFLICT), so a replay never mints a second payment.
   * With `keyCheck`, the insert goes in only while the key is not revoked (one statement); a claim
   * from the address pool (a write) waits for the key's revocation round trip first, and an insert
   * that did not go in reads the key again before anything else (401 when revoked).
   */
  async mint(tx: EntityManager, input: MintPayment, req?: LoggedRequest, keyCheck?: KeyCheck): Promise<MintResult> {
    const token = this.chains.findToken(input.chain, input.network, input.token);
    let expectedAmountAtomic: bigint | null = null;
    if (token) {
      expectedAmountAtomic = toAtomic(input.amount, token.decimals);
      if (expectedAmountAtomic === null) {
        throw badRequest(
          `amount has more decimal places than ${token.symbol} on ${input.chain} supports (${token.decimals}).`,
        );
      }
    }
    const kind = this.chains.addressKind(input.chain, input.network) ?? UNREGISTERED_CHAIN_KIND;
    if (keyCheck && this.addresses.claimsFromPool(kind)) await keyCheck.confirm();
    const address = await this.addresses.allocate(kind, tx, req);
    const now = this.clock.now();
    const inserted = await this.repository.insert(
      tx,
      {
        id: randomUUID(),
        workspaceId: input.workspaceId,
        chain: input.chain,
        network: input.network,
        token: token?.symbol ?? input.token,
        tokenAddress: token?.address ?? null,
        decimals: token?.decimals ?? null,
        amount: normalizeDecimal(input.amount),
        currency: input.currency,
        expectedAmountAtomic,
        paymentAddress: address.address,
        addressKind: address.kind,
        addressIndex: address.index,
        idempotencyKey: input.idempotencyKey,
        idempotencyScope: input.idempotencyScope,
        metadata: input.metadata,
        productId: input.productId,
        checkoutSessionId: input.checkoutSessionId,
        expiresAt: new Date(now.getTime() + PAYMENT_TTL_MS),
        createdAt: now,
        updatedAt: now,
      },
      keyCheck?.keyHash ?? null,
    );
    if (keyCheck && inserted) keyCheck.written();
    else if (keyCheck) await keyCheck.recheck();
    if (inserted) return { payment: inserted, created: true };
    const existing = await this.repository.findByScope(input.workspaceId, input.idempotencyScope as string, tx);
    if (!existing) throw new Error('idempotency conflict without a stored payment');
    return { payment: existing, created: false };
  }

  /** spec: "the same key with the same chain and network returns the original payment unchanged". */
  private replay(existing: PaymentEntity, chain: string, network: Network): PaymentEntity {
    if (existing.chain !== chain || existing.network !== network) {
      throw conflict(
        `idempotencyKey ${existing.idempotencyKey} was already used for a payment on ${existing.chain}/${existing.network}; ` +
          'use a new key for another chain or network.',
      );
    }
    return existing;
  }

  async get(workspaceId: string, id: string): Promise<PaymentEntity> {
    const payment = isUuid(id) ? await this.repository.findInWorkspace(workspaceId, id) : null;
    if (!payment) throw notFound(`No such payment: ${id}.`);
    return payment;
  }

  /** get(), with its checkout session's reference and its transfers, in one statement. */
  async getWithRelations(workspaceId: string, id: string) {
    const found = isUuid(id) ? await this.repository.findInWorkspaceWithRelations(workspaceId, id) : null;
    if (!found) throw notFound(`No such payment: ${id}.`);
    return found;
  }

  async getPublic(id: string): Promise<PaymentEntity> {
    const payment = isUuid(id) ? await this.repository.findById(id) : null;
    if (!payment) throw notFound(`No such payment: ${id}.`);
    return payment;
  }

  findByScope(workspaceId: string, scope: string, tx: EntityManager = this.db.manager): Promise<PaymentEntity | null> {
    return this.repository.findByScope(workspaceId, scope, tx);
  }
}
