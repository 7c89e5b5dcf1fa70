import { OpsServerService, opsServerProviders, RuntimeModule } from '@svc/runtime';
import { PayoutsMetrics } from './payouts-metrics';
import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { ClockService, CoreModule, DepositKeysModule, PublishedKeys, SvcConfig } from '@svc/core';
import { PaymentLedgerModule, PayoutsDataModule, RefundLegs, SweepLegs } from '@svc/payments';
import { SignerModule } from '@svc/outbound';
import { PayoutPlanner } from './payout-planner.service';
import { PayoutRunner } from './payout-runner.service';
import { DEFAULT_PAYOUTS_OPTIONS, PAYOUTS_OPTIONS, PayoutsOptions } from './payouts.options';
import { RefundPlanner } from './refund-planner.service';

/**
 * The payout process (`npm run start:payouts`): it decides what is paid out and refunded from where
 * (sweeps, refunds, their outbound legs and claims) and holds no key material (issue 19 › Keys):
 * addresses come from what the signer published, and apps/signer, the only process that reads the
 * seed, signs what it planned. Any number of copies may run.
 */
@Module({})
export class PayoutsModule {
  static forRoot(config: SvcConfig, options: Partial<PayoutsOptions> = {}): DynamicModule {
    // issue 19 › Keys: the seed stays in apps/signer (main.ts loads the configuration without it)
    if (config.mnemonic)
      throw new Error('the payout process is not given the seed: only the signer (apps/signer) reads it');
    const tuning: PayoutsOptions = { ...DEFAULT_PAYOUTS_OPTIONS, ...options };
    return {
      module: PayoutsModule,
      imports: [
        CoreModule.forRoot(config),
        RuntimeModule.forRoot(config, 'payouts'),
        DepositKeysModule.forRoot(),
        PaymentLedgerModule,
        PayoutsDataModule,
        SignerModule.forRootAsync({
          inject: [DataSource, ClockService, ChainRegistry, PublishedKeys],
          useFactory: (dataSource: DataSource, clock: ClockService, registry: ChainRegistry, keys: PublishedKeys) => ({
            dataSource,
            clock,
            registry,
            published: (path: string) => keys.xpub(path),
            feePolicy: tuning.feePolicy,
          }),
        }),
      ],
      providers: [
        { provide: PAYOUTS_OPTIONS, useValue: tuning },
        // a transaction the planner gives up releases its sweep or refund in the same db transaction
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
