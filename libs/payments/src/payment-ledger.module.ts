import { Module } from '@nestjs/common';
import { CheckoutSessionRepository } from './checkout-session.repository';
import { DocumentCounters } from './documents/document-counters';
import { DocumentIssuer } from './documents/document-issuer';
import { InvoiceRepository } from './documents/invoice.repository';
import { ReceiptRepository } from './documents/receipt.repository';
import { PaymentLedger } from './payment-ledger';
import { PaymentRepository } from './payment.repository';
import { RecoveryService } from './recovery.service';
import { RefundRepository } from './refunds/refund.repository';

const PROVIDERS = [
  PaymentRepository,
  CheckoutSessionRepository,
  PaymentLedger,
  RecoveryService,
  ReceiptRepository,
  InvoiceRepository,
  DocumentCounters,
  DocumentIssuer,
  RefundRepository,
];

/**
 * The payment ledger (architecture › libs/payments): repositories of payments, sessions, receipt
 * documents and invoices, the ledger that applies the engine's verdicts (with the documents they
 * cause), the gapless document numbering, and support recovery. Needs CoreModule (global:
 * database, SQL service, clock, chain registry).
 */
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class PaymentLedgerModule {}
