import { OpsServerService, opsServerProviders, RuntimeModule } from '@svc/runtime';
import { PayoutsMetrics } from './payouts-metrics';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { ClockService, CoreModule, SvcConfig } from '@svc/core';
import { PaymentLedgerModule, PayoutsDataModule } from '@svc/payments';
import { macDestinations, SignerModule } from '@svc/signer';
import { PayoutPlanner } from './payout-planner.service';
import { PayoutRunner } from './payout-runner.service';
import { DEFAULT_PAYOUTS_OPTIONS, PAYOUTS_OPTIONS, PayoutsOptions } from './payouts.options';
import { RefundPlanner } from './refund-planner.service';
import { RefundLegs } from './refund-legs.handler';
import { SweepLegs } from './sweep-legs.handler';

/**
 * The payout process (`npm run start:payouts`): the only process besides the API that holds the
 * seed, and the only one that turns it into spending keys (money contract › Payouts 6).
 */
@Module({})
export class PayoutsModule {
  static forRoot(config: SvcConfig, options: Partial<PayoutsOptions> = {}): DynamicModule {
    if (!config.mnemonic) throw new Error('the payout process needs the seed (SVC_MNEMONIC)');
    const mnemonic = config.mnemonic;
    // issue 19 › Keys: the signer pays only destinations the API authorised with SVC_DESTINATION_KEY
    if (!config.destinationKey) throw new Error('the payout process needs SVC_DESTINATION_KEY (it signs)');
    const destinations = macDestinations({ key: config.destinationKey, devClock: config.devClock });
    const tuning: PayoutsOptions = { ...DEFAULT_PAYOUTS_OPTIONS, ...options };
    const signerLog = new Logger('signer');
    return {
      module: PayoutsModule,
      imports: [
        CoreModule.forRoot(config),
        RuntimeModule.forRoot(config, 'payouts'),
        PaymentLedgerModule,
        PayoutsDataModule,
        SignerModule.forRootAsync({
          inject: [DataSource, ClockService, ChainRegistry],
          useFactory: (dataSource: DataSource, clock: ClockService, registry: ChainRegistry) => ({
            dataSource,
            clock,
            registry,
            mnemonic,
            feePolicy: tuning.feePolicy,
            crashAt: config.signerCrashAt,
            destinations,
            logger: {
              log: (m: string) => signerLog.log(m),
              warn: (m: string) => signerLog.warn(m),
              error: (m: string) => signerLog.error(m),
            },
          }),
        }),
      ],
      providers: [
        { provide: PAYOUTS_OPTIONS, useValue: tuning },
        // sweeps and refunds follow their legs inside the signer's transactions (no trackers)
        SweepLegs,
        RefundLegs,
        RefundPlanner,
        PayoutPlanner,
        PayoutRunner,
        PayoutsMetrics,
        ...opsServerProviders(config.opsPorts.payouts, config.opsHost),
      ],
      exports: [PayoutRunner, SignerModule, OpsServerService],
    };
  }
}
