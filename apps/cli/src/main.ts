import 'reflect-metadata';
import { HttpException, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { redactRpcText } from '@svc/chains';
import { ConfigError, loadConfig } from '@svc/config';
import { DomainError } from '@svc/core';
import { UsageError, USAGE } from './cli-args';
import { CliModule } from './cli.module';
import { ApiKeyCreateCommand, parseApiKeyCreateArgs } from './commands/apikey-create.command';
import { ApiKeyListCommand, parseApiKeyListArgs } from './commands/apikey-list.command';
import { ApiKeyRevokeCommand, parseApiKeyRevokeArgs } from './commands/apikey-revoke.command';
import { PG_INVALID_CATALOG_NAME, PG_UNDEFINED_TABLE } from './commands/database';
import {
  DestinationsAuthoriseCommand,
  parseDestinationsAuthoriseArgs,
} from './commands/destinations-authorise.command';
import { DevPayCommand, DevPayError, parseDevPayArgs } from './commands/dev-pay.command';
import { GasTankCommand, parseGasTankArgs } from './commands/gas-tank.command';
import { ListenCommand, parseListenArgs } from './commands/listen.command';
import { MigrateCommand, parseMigrateArgs } from './commands/migrate.command';
import { parseRecoverArgs, RecoverCommand, RecoveryFailed, RecoveryRefused } from './commands/recover.command';
import { parseWorkspaceCreateArgs, WorkspaceCreateCommand } from './commands/workspace-create.command';

// The operator CLI (runtime contract › Operator CLI). Exit codes: 0 done, 1 failed, 2 usage,
// 3 refused (the spec's 409, e.g. recovery on a refunded payment).
// stdout carries only the command's result (one JSON line with --json); everything else goes to stderr.

/** A contract command whose machinery does not exist yet. */
class NotAvailableYet extends Error {}

type Run = (app: INestApplicationContext) => Promise<void>;

/** Parses the command line into the work to do; bad arguments fail here, before anything connects. */
function plan(argv: string[]): Run | 'help' {
  const [command, ...args] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return 'help';
    case 'migrate':
      parseMigrateArgs(args);
      return (app) => app.get(MigrateCommand).run();
    case 'workspace:create': {
      const parsed = parseWorkspaceCreateArgs(args);
      return (app) => app.get(WorkspaceCreateCommand).run(parsed);
    }
    case 'apikey:create': {
      const parsed = parseApiKeyCreateArgs(args);
      return (app) => app.get(ApiKeyCreateCommand).run(parsed);
    }
    case 'apikey:list': {
      const parsed = parseApiKeyListArgs(args);
      return (app) => app.get(ApiKeyListCommand).run(parsed);
    }
    case 'apikey:revoke': {
      const parsed = parseApiKeyRevokeArgs(args);
      return (app) => app.get(ApiKeyRevokeCommand).run(parsed);
    }
    case 'recover': {
      const parsed = parseRecoverArgs(args);
      return (app) => app.get(RecoverCommand).run(parsed);
    }
    case 'listen': {
      const parsed = parseListenArgs(args);
      return (app) => app.get(ListenCommand).run(parsed);
    }
    case 'dev:pay': {
      const parsed = parseDevPayArgs(args);
      return (app) => app.get(DevPayCommand).run(parsed);
    }
    case 'gas-tank': {
      const parsed = parseGasTankArgs(args);
      return (app) => app.get(GasTankCommand).run(parsed);
    }
    case 'destinations:authorise': {
      const parsed = parseDestinationsAuthoriseArgs(args);
      return (app) => app.get(DestinationsAuthoriseCommand).run(parsed);
    }
    default:
      throw new UsageError(`unknown command "${command}".`, true);
  }
}

async function main(argv: string[]): Promise<number> {
  const run = plan(argv);
  if (run === 'help') {
    process.stderr.write(USAGE);
    return 2;
  }
  // No command reads the seed (issue 19 › Keys: only the signer does); gas-tank reads what it published.
  // Only migrate reads the data key (it encrypts the secrets of rows stored before encryption at rest).
  // Only destinations:authorise reads the destination key (the one-time upgrade to destination MACs).
  const config = loadConfig(process.env, {
    seed: false,
    dataKey: argv[0] === 'migrate',
    destinationKey: argv[0] === 'destinations:authorise',
  });
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
    logger: ['error'],
    abortOnError: false,
  });
  try {
    await run(app);
    return 0;
  } finally {
    await app.close(); // closes the DataSource, so the process exits at once
  }
}

/** Reports a failure on stderr and returns the exit code. */
function report(err: unknown): number {
  const fail = (message: string, code: number): number => {
    // an error read from a chain may embed an RPC URL, which carries the provider's key
    process.stderr.write(`${redactRpcText(message)}\n`);
    return code;
  };
  if (err instanceof UsageError) {
    return fail(
      err.withUsage ? `${err.message}\n\n${USAGE}` : `${err.message}\nRun \`npm run svc -- help\` for the commands.`,
      2,
    );
  }
  if (err instanceof NotAvailableYet) return fail(err.message, 2);
  if (err instanceof DevPayError) return fail(err.message, 1);
  if (err instanceof ConfigError) return fail(`configuration error: ${err.message}`, 1);
  if (err instanceof RecoveryRefused) return fail(err.message, 3);
  if (err instanceof RecoveryFailed) return fail(err.message, 1);
  if (err instanceof HttpException) return fail(err.message, 1);
  if (err instanceof DomainError) return fail(err.message, err.code === 'conflict' ? 3 : 1);
  const code = (err as { code?: string } | null)?.code;
  if (code === PG_INVALID_CATALOG_NAME || code === PG_UNDEFINED_TABLE) {
    return fail(`${(err as Error).message}: run \`npm run svc -- migrate\` first.`, 1);
  }
  return fail(err instanceof Error ? (err.stack ?? err.message) : String(err), 1);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = report(err);
  },
);
