import { DynamicModule, Global, Injectable, Logger, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvmAccounts, loadAccountXpubs, PublicDepositAddresses } from '@svc/chains';
import { unavailable } from './errors';

export const SIGNER_KEYS_MISSING =
  "Deposit addresses are not available yet: the signer has not published this database's public account keys. " +
  'Start the signer (npm run start:signer; npm start runs it), which alone holds SVC_MNEMONIC.';

/**
 * The public key material the signer published in the database (account_xpubs): what the API
 * derives deposit addresses and the EVM accounts' addresses from. No seed, no private key
 * (issue 19 › Keys). Read at start and, while still missing (the signer starts beside the API),
 * again every second; a request before then gets 503 SIGNER_KEYS_MISSING.
 */
@Injectable()
export class PublishedKeys implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('keys');
  private xpubs = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: DataSource) {}

  async onModuleInit(): Promise<void> {
    // a failed read (e.g. the database is still being migrated) is retried like missing keys
    await this.refresh().catch((err: Error) =>
      this.logger.warn(`reading the public account keys failed: ${err.message}`),
    );
    if (this.xpubs.size) return;
    this.logger.warn(
      'waiting for the signer to publish the public account keys (deposit addresses answer 503 until then)',
    );
    this.timer = setInterval(() => {
      this.refresh().then(
        () => {
          if (this.xpubs.size && this.timer) {
            clearInterval(this.timer);
            this.timer = undefined;
            this.logger.log('public account keys loaded');
          }
        },
        (err: Error) => this.logger.warn(`reading the public account keys failed: ${err.message}`),
      );
    }, 1_000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    this.xpubs = await loadAccountXpubs(this.db.manager);
  }

  /** The xpub of an account path; 503 while the signer has not published it. */
  xpub(path: string): string {
    const x = this.xpubs.get(path);
    if (!x) throw unavailable(SIGNER_KEYS_MISSING);
    return x;
  }

  /**
   * What the signer published under a path (an xpub, or an address such as the Sui gas tank's),
   * read again once when it is missing (a signer of a newer release may have added it); 503 while missing.
   */
  async published(path: string): Promise<string> {
    if (!this.xpubs.has(path)) await this.refresh();
    return this.xpub(path);
  }
}

/**
 * What the API holds instead of the seed: deposit addresses and the EVM accounts' addresses from
 * the published xpubs. Global, so any module of the importing process can inject them.
 */
@Global()
@Module({})
export class DepositKeysModule {
  static forRoot(): DynamicModule {
    return {
      module: DepositKeysModule,
      providers: [
        PublishedKeys,
        {
          provide: PublicDepositAddresses,
          inject: [PublishedKeys],
          useFactory: (keys: PublishedKeys) => new PublicDepositAddresses((path) => keys.xpub(path)),
        },
        {
          provide: EvmAccounts,
          inject: [PublishedKeys],
          useFactory: (keys: PublishedKeys) => EvmAccounts.fromXpubs((path) => keys.xpub(path)),
        },
      ],
      exports: [PublishedKeys, PublicDepositAddresses, EvmAccounts],
    };
  }
}
