import { DynamicModule, Inject, Injectable, Logger, Module, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ChainConfig,
  ChainRegistry,
  DEFAULT_POOL_LEVELS,
  DepositAddressDeriver,
  PoolLevels,
  provisionDepositKeys,
  topUpDepositPools,
} from '@svc/chains';
import { SvcConfig } from '@svc/config';
import { ClockService, CoreModule } from '@svc/core';
import { PaymentLedgerModule, PayoutsDataModule, RefundLegs, SweepLegs } from '@svc/payments';
import {
  FeePolicy,
  macDestinations,
  PAYOUT_FEE_POLICY,
  provisionRefundWallets,
  RefundWallets,
  seedRefundWalletKeys,
  SignerModule,
} from '@svc/outbound';
import { opsServerProviders, RuntimeModule } from '@svc/runtime';
import { SigningRunner } from './signing-runner.service';

export const SIGNER_APP_OPTIONS = Symbol('SIGNER_APP_OPTIONS');

export interface SignerAppOptions {
  mnemonic: string;
  /** how often the pools are checked (default: SVC_JOB_INTERVAL_MS) */
  intervalMs: number;
  levels: PoolLevels;
  /** sign on an interval and when woken (off when a test drives SigningRunner.runOnce()) */
  autoStart: boolean;
  /** the fee policy it signs by, for every chain or per chain (default PAYOUT_FEE_POLICY) */
  feePolicy: Partial<FeePolicy> | ((chain: ChainConfig) => Partial<FeePolicy>);
}

/**
 * The seed's work for the seedless processes (issue 19 › Keys): at start it publishes the account
 * xpubs the API derives deposit addresses from (refusing a seed that is not the database's) and
 * fills the deposit-address pools of the families without public derivation; then it tops the
 * pools up to their low-water mark on every interval. It signs too (SigningRunner): the one process
 * that turns the seed into keys.
 */
@Injectable()
export class DepositKeysKeeper implements OnModuleDestroy {
  private readonly logger = new Logger('signer');
  private readonly deriver: DepositAddressDeriver;
  private readonly wallets: RefundWallets;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: DataSource,
    @Inject(SIGNER_APP_OPTIONS) private readonly options: SignerAppOptions,
    clock: ClockService,
  ) {
    this.deriver = new DepositAddressDeriver(options.mnemonic);
    this.wallets = new RefundWallets(db, seedRefundWalletKeys(options.mnemonic), clock);
  }

  /**
   * Publishes the keys and fills the pools, then keeps them topped up. Called by createSignerApp
   * once the application is up, not as a Nest bootstrap hook: a refused seed must close the
   * application (its ops server and database pool), and Nest 11 closes nothing after a failed init.
   */
  async start(): Promise<void> {
    const added = await provisionDepositKeys(this.db.manager, this.deriver, this.options.levels);
    this.logger.log(`public account keys published; pools topped up ${JSON.stringify(added)}`);
    await this.provisionWallets();
    this.timer = setInterval(() => {
      this.running ??= this.topUp().finally(() => (this.running = null));
    }, this.options.intervalMs);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async topUp(): Promise<void> {
    try {
      const added = await topUpDepositPools(this.db.manager, this.deriver, this.options.levels);
      if (Object.keys(added).length) this.logger.log(`pools topped up ${JSON.stringify(added)}`);
    } catch (err) {
      this.logger.error(`topping up the deposit-address pools failed: ${(err as Error).message}`);
    }
    await this.provisionWallets();
  }

  /** Refund wallets' Sui addresses (hardened ed25519: only the seed derives them), for the API to list. */
  private async provisionWallets(): Promise<void> {
    try {
      const added = await provisionRefundWallets(this.wallets, this.db);
      if (added) this.logger.log(`Sui refund wallets derived for ${added} workspace(s)`);
    } catch (err) {
      this.logger.error(`deriving the Sui refund wallets failed: ${(err as Error).message}`);
    }
  }
}

@Module({})
export class SignerAppModule {
  static forRoot(config: SvcConfig, options: Partial<SignerAppOptions> = {}): DynamicModule {
    if (!config.mnemonic) throw new Error('the signer needs the seed (SVC_MNEMONIC)');
    const resolved: SignerAppOptions = {
      mnemonic: config.mnemonic,
      intervalMs: config.jobIntervalMs,
      levels: DEFAULT_POOL_LEVELS,
      autoStart: true,
      feePolicy: PAYOUT_FEE_POLICY,
      ...options,
    };
    // issue 19 › Keys: the signer pays only destinations the API authorised with SVC_DESTINATION_KEY
    if (!config.destinationKey) throw new Error('the signer needs SVC_DESTINATION_KEY');
    const destinations = macDestinations({ key: config.destinationKey, devClock: config.devClock });
    const log = new Logger('signer');
    return {
      module: SignerAppModule,
      imports: [
        CoreModule.forRoot(config),
        RuntimeModule.forRoot(config, 'signer'),
        PaymentLedgerModule,
        PayoutsDataModule,
        SignerModule.forRootAsync({
          inject: [DataSource, ClockService, ChainRegistry],
          useFactory: (dataSource: DataSource, clock: ClockService, registry: ChainRegistry) => ({
            dataSource,
            clock,
            registry,
            mnemonic: resolved.mnemonic,
            feePolicy: resolved.feePolicy,
            crashAt: config.signerCrashAt,
            destinations,
            logger: {
              log: (m: string) => log.log(m),
              warn: (m: string) => log.warn(m),
              error: (m: string) => log.error(m),
            },
          }),
        }),
      ],
      providers: [
        { provide: SIGNER_APP_OPTIONS, useValue: resolved },
        DepositKeysKeeper,
        // sweeps and refunds follow their legs inside the engine's transactions (no trackers)
        SweepLegs,
        RefundLegs,
        SigningRunner,
        // its own /healthz and /metrics on SIGNER_PORT (docs/operations.md › Metrics)
        ...opsServerProviders(config.opsPorts.signer, config.opsHost),
      ],
    };
  }
}
