import { INestApplicationContext, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { SvcConfig } from '@svc/config';
import { DepositKeysKeeper, SIGNER_APP_OPTIONS, SignerAppModule, SignerAppOptions } from './signer.module';
import { SigningRunner } from './signing-runner.service';

/** The signer application, started (keys published, pools filled, signing), as in production; e2e tests run it in-process the same way. */
export async function createSignerApp(
  config: SvcConfig,
  options: Partial<SignerAppOptions> = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(SignerAppModule.forRoot(config, options), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger)); // pino JSON lines (docs/operations.md › Logs)
  NestLogger.flush();
  try {
    await app.get(DepositKeysKeeper).start(); // refuses another seed (issue 19 › Keys)
    // signing starts only once the seed is known to be the database's
    if (app.get<SignerAppOptions>(SIGNER_APP_OPTIONS).autoStart) await app.get(SigningRunner).start();
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}
