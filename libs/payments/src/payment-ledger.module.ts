import { Module } from '@nestjs/common';
import { CheckoutSessionRepository } from './checkout-session.repository';
import { PaymentLedger } from './payment-ledger';
import { PaymentRepository } from './payment.repository';
import { RecoveryService } from './recovery.service';

/**
 * The payment ledger (architecture › libs/payments): repositories of payments and sessions, the
 * ledger that applies the engine's verdicts, and support recovery. Needs CoreModule (global:
 * database, SQL service, clock, chain registry).
 */
@Module({
  providers: [PaymentRepository, CheckoutSessionRepository, PaymentLedger, RecoveryService],
  exports: [PaymentRepository, CheckoutSessionRepository, PaymentLedger, RecoveryService],
})
export class PaymentLedgerModule {}
