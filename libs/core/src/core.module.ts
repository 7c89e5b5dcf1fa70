import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainRegistry, DepositAddressDeriver } from '@svc/chains';
import { dataSourceOptions } from '@svc/db';
import { ClockService } from './clock.service';
import { SVC_CONFIG, SvcConfig } from './config.provider';
import { SqlService } from './sql.service';

/**
 * What every module shares: configuration, the database, the clock, the chain registry and the
 * deposit-address deriver. Built from one validated SvcConfig (see main.ts / the CLI).
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: SvcConfig) {
    if (!config.mnemonic) throw new Error('CoreModule needs a resolved mnemonic');
    const mnemonic = config.mnemonic;
    return {
      module: CoreModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl, 32) })],
      providers: [
        { provide: SVC_CONFIG, useValue: config },
        { provide: ChainRegistry, useFactory: () => ChainRegistry.fromFile(config.chainsFile) },
        { provide: DepositAddressDeriver, useFactory: () => new DepositAddressDeriver(mnemonic) },
        ClockService,
        SqlService,
      ],
      exports: [SVC_CONFIG, ChainRegistry, DepositAddressDeriver, ClockService, SqlService],
    };
  }
}
