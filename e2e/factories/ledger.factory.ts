// Fixture factories of the medium tier: workspaces, products, payments and checkout sessions
// inserted directly (no HTTP), with sensible defaults; override what a test is about.
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChainRegistry, DepositAddressDeriver, ObservedTransfer } from '@svc/chains';
import { CheckoutSessionEntity, PaymentEntity, ProductEntity, WorkspaceEntity } from '@svc/db';
import type { Medium } from '../support/medium';

export async function insertWorkspace(db: DataSource, name = `ws-${randomBytes(3).toString('hex')}`): Promise<string> {
  const id = randomUUID();
  await db.manager.insert(WorkspaceEntity, { id, name });
  return id;
}

export async function insertProduct(
  db: DataSource,
  workspaceId: string,
  overrides: Partial<ProductEntity> = {},
): Promise<ProductEntity> {
  const now = new Date();
  const product: ProductEntity = {
    id: randomUUID(),
    workspaceId,
    slug: `lamp-${randomBytes(3).toString('hex')}`,
    name: 'Lamp',
    description: null,
    imageUrl: null,
    kind: 'one_off',
    pricingMode: 'fixed',
    chain: 'bnb',
    network: 'mainnet',
    token: 'USDC',
    price: '37',
    minAmount: null,
    maxAmount: null,
    networks: [],
    enabledChains: ['bnb'],
    successUrl: null,
    cancelUrl: null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await db.manager.insert(ProductEntity, product);
  return product;
}

/**
 * A payment at a fresh deposit address (index from the real sequence, address from the test
 * mnemonic), waiting for 10 USDC (18 decimals) on bnb/mainnet by default, expiring in 30 minutes
 * of the service clock.
 */
export async function insertPayment(
  m: Medium,
  workspaceId: string,
  overrides: Partial<PaymentEntity> = {},
): Promise<PaymentEntity> {
  const [{ i }]: Array<{ i: string }> = await m.db.query(`SELECT nextval('deposit_address_index_seq') AS i`);
  const index = BigInt(i);
  const now = m.clock.now();
  const usdc = m.app.get(ChainRegistry).findToken('bnb', 'mainnet', 'USDC');
  const payment = await m.db.transaction((tx) =>
    m.payments.insert(tx, {
      id: randomUUID(),
      workspaceId,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      tokenAddress: usdc?.address ?? null,
      decimals: 18,
      amount: '10',
      currency: 'USDC',
      expectedAmountAtomic: 10n * 10n ** 18n,
      paymentAddress: new DepositAddressDeriver(m.config.mnemonic as string).derive('evm', index),
      addressKind: 'evm',
      addressIndex: index,
      idempotencyKey: null,
      idempotencyScope: null,
      metadata: {},
      productId: null,
      checkoutSessionId: null,
      expiresAt: new Date(now.getTime() + 30 * 60_000),
      createdAt: now,
      updatedAt: now,
      ...overrides,
    }),
  );
  if (!payment) throw new Error('insertPayment: idempotency scope taken');
  return payment;
}

/** A checkout session (open, unbound, 30 minutes) by default; bind a payment with `paymentId` and status `processing`. */
export async function insertSession(
  m: Medium,
  workspaceId: string,
  overrides: Partial<CheckoutSessionEntity> = {},
): Promise<CheckoutSessionEntity> {
  const session = sessionRow(workspaceId, m.clock.now(), overrides);
  // (json metadata: TypeORM's deep-partial insert type cannot express Record<string, unknown>)
  await m.db.manager.insert(CheckoutSessionEntity, session as never);
  return session;
}

/** An open product session's row as the API writes it, not inserted (`insertSession` inserts one). */
export function sessionRow(
  workspaceId: string,
  now: Date,
  overrides: Partial<CheckoutSessionEntity> = {},
): CheckoutSessionEntity {
  return {
    id: `cs_${randomBytes(16).toString('hex')}`,
    workspaceId,
    source: 'product',
    productId: null,
    invoiceId: null,
    invoiceNumber: null,
    status: 'open',
    reference: 'order-1',
    metadata: { order: 1 },
    referenceOrigin: 'server',
    amount: null,
    pinnedChain: null,
    network: 'mainnet',
    locale: null,
    successUrl: null,
    pendingUrl: null,
    cancelUrl: null,
    expiredUrl: null,
    failedUrl: null,
    returnUrl: null,
    idempotencyKey: null,
    paymentId: null,
    late: false,
    completedAt: null,
    expiresAt: new Date(now.getTime() + 30 * 60_000),
    redeemedAt: null,
    livemode: true,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** A session bound to a fresh payment minted for it (as redeem leaves them). */
export async function insertSessionWithPayment(
  m: Medium,
  workspaceId: string,
  paymentOverrides: Partial<PaymentEntity> = {},
): Promise<{ session: CheckoutSessionEntity; payment: PaymentEntity }> {
  const session = await insertSession(m, workspaceId, { status: 'processing', redeemedAt: m.clock.now() });
  const payment = await insertPayment(m, workspaceId, {
    checkoutSessionId: session.id,
    idempotencyKey: `${session.id}:bnb`,
    metadata: { svc: { sessionId: session.id, reference: session.reference } },
    ...paymentOverrides,
  });
  await m.db.query(`UPDATE checkout_sessions SET payment_id = $2 WHERE id = $1`, [session.id, payment.id]);
  return { session: { ...session, paymentId: payment.id }, payment };
}

let logIndex = 0;

/** A transfer to the payment as a watcher would report it (final by default: 15 confirmations). */
export function observedTransfer(payment: PaymentEntity, overrides: Partial<ObservedTransfer> = {}): ObservedTransfer {
  return {
    chain: payment.chain,
    network: payment.network,
    txHash: `0x${randomBytes(32).toString('hex')}`,
    logIndex: logIndex++,
    fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    toAddress: payment.paymentAddress,
    tokenAddress: payment.tokenAddress,
    amountAtomic: payment.expectedAmountAtomic ?? 0n,
    blockNumber: 100n,
    confirmations: 15,
    ...overrides,
  };
}

/** The outbox rows of a workspace, oldest first (rows of one transaction share a time: compare those as a set). */
export async function outboxOf(
  db: DataSource,
  workspaceId: string,
): Promise<Array<{ type: string; data: Record<string, any> }>> {
  return db.query(`SELECT type, data FROM events WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
}
