// The signer inside a Nest process (the worker or a payout process, later): the process hands in
// its DataSource, clock, seed and chain registry through a factory; nothing here reads apps/*.
import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import type { Clock, SignerOptions } from './context';
import { EvmKeyring } from './keys/keyring';
import { SuiKeyring } from './keys/sui-keyring';
import { OutboundService } from './outbound/outbound.service';
import { RefundWallets, seedRefundWalletKeys } from './refund-wallets';

export interface SignerModuleOptions extends SignerOptions {
  dataSource: DataSource;
  clock: Clock;
  mnemonic: string;
  registry: ChainRegistry;
}

export const SIGNER_MODULE_OPTIONS = Symbol('SIGNER_MODULE_OPTIONS');

@Module({})
export class SignerModule {
  static forRootAsync(options: {
    imports?: ModuleMetadata['imports'];
    inject?: any[];
    useFactory: (...args: any[]) => SignerModuleOptions | Promise<SignerModuleOptions>;
  }): DynamicModule {
    return {
      module: SignerModule,
      imports: options.imports ?? [],
      providers: [
        { provide: SIGNER_MODULE_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        {
          provide: OutboundService,
          inject: [SIGNER_MODULE_OPTIONS],
          useFactory: (o: SignerModuleOptions) =>
            new OutboundService(o.dataSource, o.registry, new EvmKeyring(o.mnemonic), o.clock, {
              suiKeyring: new SuiKeyring(o.mnemonic),
              ...o,
            }),
        },
        {
          provide: RefundWallets,
          inject: [SIGNER_MODULE_OPTIONS],
          useFactory: (o: SignerModuleOptions) =>
            new RefundWallets(o.dataSource, seedRefundWalletKeys(o.mnemonic), o.clock),
        },
      ],
      exports: [OutboundService, RefundWallets],
    };
  }
}
