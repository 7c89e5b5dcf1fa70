import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainRegistry } from '@svc/chains';
import { dataSourceOptions } from '@svc/db';
import { ClockService } from './clock.service';
import { SVC_CONFIG, SvcConfig } from './config.provider';
import { SqlService } from './sql.service';

/**
 * What every module shares: configuration, the database, the clock and the chain registry. Built
 * from one validated SvcConfig (see main.ts / the CLI). No key material: the API's deposit
 * addresses come from DepositKeysModule (the signer's published public keys and pools).
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: SvcConfig) {
    return {
      module: CoreModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl, 32) })],
      providers: [
        { provide: SVC_CONFIG, useValue: config },
        { provide: ChainRegistry, useFactory: () => ChainRegistry.fromFile(config.chainsFile) },
        ClockService,
        SqlService,
      ],
      exports: [SVC_CONFIG, ChainRegistry, ClockService, SqlService],
    };
  }
}
