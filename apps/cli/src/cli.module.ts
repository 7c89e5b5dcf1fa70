import { DynamicModule, Module, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SvcConfig } from '@svc/config';
import { createDataSource } from '@svc/db';
import { WorkspacesService } from '@svc/workspaces';
import { ApiKeyCreateCommand } from './commands/apikey-create.command';
import { ApiKeyListCommand } from './commands/apikey-list.command';
import { ApiKeyRevokeCommand } from './commands/apikey-revoke.command';
import { DestinationsAuthoriseCommand } from './commands/destinations-authorise.command';
import { DevPayCommand } from './commands/dev-pay.command';
import { ListenCommand } from './commands/listen.command';
import { GasTankCommand } from './commands/gas-tank.command';
import { MigrateCommand } from './commands/migrate.command';
import { RecoverCommand } from './commands/recover.command';
import { WorkspaceCreateCommand } from './commands/workspace-create.command';

/**
 * The operator CLI's container: one small DataSource (not connected until a command needs it,
 * so `migrate` can create the database first) and the api's own services, so keys and
 * workspaces are made by exactly the code the API uses.
 */
@Module({})
export class CliModule implements OnModuleDestroy {
  constructor(private readonly db: DataSource) {}

  static forRoot(config: SvcConfig): DynamicModule {
    return {
      module: CliModule,
      providers: [
        // Two connections: `migrate` holds the advisory lock on one while migrations run on the other.
        { provide: DataSource, useFactory: () => createDataSource(config.databaseUrl, 2) },
        {
          provide: MigrateCommand,
          useFactory: (db: DataSource) => new MigrateCommand(db, config.databaseUrl),
          inject: [DataSource],
        },
        {
          provide: RecoverCommand,
          useFactory: (db: DataSource) => new RecoverCommand(db, config),
          inject: [DataSource],
        },
        { provide: DevPayCommand, useFactory: (db: DataSource) => new DevPayCommand(db, config), inject: [DataSource] },
        { provide: ListenCommand, useFactory: () => new ListenCommand(config) },
        {
          provide: GasTankCommand,
          useFactory: (db: DataSource) => new GasTankCommand(db, config),
          inject: [DataSource],
        },
        {
          provide: DestinationsAuthoriseCommand,
          useFactory: (db: DataSource) => new DestinationsAuthoriseCommand(db, config),
          inject: [DataSource],
        },
        WorkspacesService,
        WorkspaceCreateCommand,
        ApiKeyCreateCommand,
        ApiKeyListCommand,
        ApiKeyRevokeCommand,
      ],
    };
  }

  async onModuleDestroy(): Promise<void> {
    if (this.db.isInitialized) await this.db.destroy();
  }
}
