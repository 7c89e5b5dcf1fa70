import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { CreditService } from './credit.service';
import { WatchSetService } from './watch-set.service';

/**
 * The credit side of the listener: the watch set watchers read (WatchSetService) and the
 * matching they hand transfers to (CreditService, a TransferSink), which credits through the
 * payment ledger. Needs CoreModule (database, clock, chain registry), which is global.
 */
@Module({
  imports: [PaymentLedgerModule],
  providers: [CreditService, WatchSetService],
  exports: [CreditService, WatchSetService, PaymentLedgerModule],
})
export class CreditModule {}
