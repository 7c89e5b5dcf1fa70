import { DynamicModule, Global, Module } from '@nestjs/common';
import { DepositAddressDeriver, EvmAccounts, SuiAccounts } from '@svc/chains';
import { SvcConfig } from './config.provider';

/**
 * The deposit-address deriver, built from SVC_MNEMONIC. Only a process that mints addresses (the
 * API) or signs money imports it: the seed stays out of every other process (the webhook worker
 * calls merchant URLs; the listener and the CLI derive nothing). Global, so any module of the
 * importing process can inject the deriver.
 */
@Global()
@Module({})
export class DerivationModule {
  static forRoot(config: SvcConfig): DynamicModule {
    if (!config.mnemonic) throw new Error('DerivationModule needs a resolved mnemonic (SVC_MNEMONIC)');
    const mnemonic = config.mnemonic;
    return {
      module: DerivationModule,
      providers: [
        { provide: DepositAddressDeriver, useFactory: () => new DepositAddressDeriver(mnemonic) },
        // addresses of the seed's other EVM accounts (refund wallets); spending keys stay with the signer
        { provide: EvmAccounts, useFactory: () => new EvmAccounts(mnemonic) },
        // and of its Sui accounts (the refund wallets' Sui addresses)
        { provide: SuiAccounts, useFactory: () => new SuiAccounts(mnemonic) },
      ],
      exports: [DepositAddressDeriver, EvmAccounts, SuiAccounts],
    };
  }
}
