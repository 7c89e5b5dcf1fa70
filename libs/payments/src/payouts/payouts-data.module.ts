import { Module } from '@nestjs/common';
import { SweepRepository } from './sweep.repository';
import { SettlementActivation } from '../settlement/settlement-activation';
import { SettlementAddressRepository } from '../settlement/settlement-address.repository';

/**
 * Settlement addresses and sweeps as data (money contract › Settlement addresses, › Payouts): the
 * repositories the API, the listener's activation job and the payout process share. No keys and
 * no chain access here: signing is the signer's (apps/signer). Needs CoreModule (global).
 */
@Module({
  providers: [SettlementAddressRepository, SweepRepository, SettlementActivation],
  exports: [SettlementAddressRepository, SweepRepository, SettlementActivation],
})
export class PayoutsDataModule {}
