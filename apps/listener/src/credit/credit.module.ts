import { Module } from '@nestjs/common';
import { CreditService } from './credit.service';
import { RecoveryService } from './recovery.service';
import { WatchSetService } from './watch-set.service';

/**
 * The credit side of the listener: the watch set watchers read (WatchSetService), the credit
 * transaction they hand transfers to (CreditService, a TransferSink) and recovery. Needs
 * CoreModule (database, clock, chain registry), which is global.
 */
@Module({
  providers: [CreditService, WatchSetService, RecoveryService],
  exports: [CreditService, WatchSetService, RecoveryService],
})
export class CreditModule {}
