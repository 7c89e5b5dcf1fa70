import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { SvcConfig } from '@svc/config';
import { ClockService, DomainError, DomainErrorCode, SqlService } from '@svc/core';
import { assertUnreachable, isUuid } from '@svc/domain';
import {
  CheckoutSessionRepository,
  DocumentCounters,
  DocumentIssuer,
  InvoiceRepository,
  PaymentLedger,
  PaymentRepository,
  ReceiptRepository,
  RecoveryService,
  RefundRepository,
} from '@svc/payments';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { connect } from './database';

export interface RecoverArgs {
  paymentId: string;
  txHash: string;
  json: boolean;
}

/** The spec's 409 for recovery (refunded payment, not final yet, wrong address or token): exit code 3. */
export class RecoveryRefused extends Error {}
/** No such payment, transaction not on chain, chain data unreadable: exit code 1. */
export class RecoveryFailed extends Error {}

export function parseRecoverArgs(args: string[]): RecoverArgs {
  const values = parseOptions('recover', args, {
    payment: { type: 'string' },
    tx: { type: 'string' },
    json: { type: 'boolean' },
  });
  const paymentId = requireOption('recover', 'payment', values.payment);
  const txHash = requireOption('recover', 'tx', values.tx);
  if (!isUuid(paymentId)) throw new UsageError(`recover: --payment must be a payment UUID, got "${paymentId}".`);
  return { paymentId, txHash, json: values.json === true };
}

/**
 * runtime contract › Operator CLI › `recover`: the support recovery action of the spec, credited
 * through the listener's own credit transaction. The services are built here, after the database
 * is connected (the CLI's container connects only when a command needs it).
 */
export class RecoverCommand {
  constructor(
    private readonly db: DataSource,
    private readonly config: SvcConfig,
  ) {}

  async run({ paymentId, txHash, json }: RecoverArgs): Promise<void> {
    await connect(this.db);
    const clock = new ClockService(this.db, this.config);
    await clock.onModuleInit(); // reads the dev clock when SVC_DEV_CLOCK=1
    try {
      const chains = ChainRegistry.fromFile(this.config.chainsFile);
      const sql = new SqlService(this.db);
      const payments = new PaymentRepository(this.db, sql);
      const documents = new DocumentIssuer(
        new ReceiptRepository(this.db, sql),
        new InvoiceRepository(this.db, sql),
        new DocumentCounters(sql),
        payments,
        this.config,
      );
      const ledger = new PaymentLedger(
        payments,
        new CheckoutSessionRepository(this.db, sql),
        chains,
        clock,
        documents,
        new RefundRepository(this.db),
      );
      const recovery = new RecoveryService(this.db, chains, payments, ledger);
      const result = await recovery.recover(paymentId, txHash).catch((err: unknown) => {
        throw err instanceof DomainError ? recoveryFailure(err.code, err.message) : err;
      });
      if (json) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
        return;
      }
      process.stdout.write(
        result.outcome === 'credited'
          ? `Credited ${result.txHash} to payment ${result.paymentId}: ${result.previousStatus} → ${result.status}, received ${result.receivedAmount}` +
              `${result.events.length ? ` (${result.events.join(', ')})` : ''}.\n`
          : `Already credited: ${result.txHash} on payment ${result.paymentId} (${result.status}, received ${result.receivedAmount}); nothing changed.\n`,
      );
    } finally {
      clock.onModuleDestroy();
    }
  }
}

/** The domain error of a recovery as the CLI reports it: the spec's 409 exits 3, the rest 1. */
function recoveryFailure(code: DomainErrorCode, message: string): Error {
  switch (code) {
    case 'conflict':
      return new RecoveryRefused(`refused (409): ${message}`);
    case 'not_found':
    case 'unavailable':
    case 'invalid_input':
    case 'unauthenticated':
    case 'forbidden':
    case 'gone':
    case 'rate_limited':
      return new RecoveryFailed(message);
    default:
      return assertUnreachable(code);
  }
}
