// The outbound engine inside a Nest process: the process hands in its DataSource, clock, chain
// registry and keys through a factory; nothing here reads apps/*. Two kinds of process hold it:
//   apps/signer   with the seed (`mnemonic`): it signs, so it also holds the destination guard;
//   apps/payouts  without it (`published`): it plans (writes legs, asks the claims, quotes fees)
//                 from the addresses the signer published, and `sign` refuses (issue 19 › Keys).
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
  registry: ChainRegistry;
  /** the seed: the signing process only */
  mnemonic?: string;
  /** without the seed: what the signer published under an account path (throws while missing) */
  published?: (path: string) => string;
}

export const SIGNER_MODULE_OPTIONS = Symbol('SIGNER_MODULE_OPTIONS');

function outboundService(o: SignerModuleOptions): OutboundService {
  if (o.mnemonic) {
    return new OutboundService(o.dataSource, o.registry, new EvmKeyring(o.mnemonic), o.clock, {
      suiKeyring: new SuiKeyring(o.mnemonic),
      ...o,
    });
  }
  if (!o.published) throw new Error('the outbound engine needs the seed or the published keys');
  const published = o.published;
  return new OutboundService(o.dataSource, o.registry, EvmKeyring.fromXpubs(published), o.clock, {
    suiKeyring: SuiKeyring.readBack(o.dataSource, published),
    ...o,
  });
}

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
        { provide: OutboundService, inject: [SIGNER_MODULE_OPTIONS], useFactory: outboundService },
        {
          provide: RefundWallets,
          inject: [SIGNER_MODULE_OPTIONS],
          useFactory: (o: SignerModuleOptions) =>
            new RefundWallets(
              o.dataSource,
              o.mnemonic
                ? seedRefundWalletKeys(o.mnemonic)
                : { xpub: o.published as (path: string) => string, seed: null },
              o.clock,
            ),
        },
      ],
      exports: [OutboundService, RefundWallets],
    };
  }
}
