import { INestApplicationContext, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { SvcConfig } from '@svc/config';
import { SignerAppModule, SignerAppOptions } from './signer.module';

/** The signer application, as in production; e2e tests run it in-process the same way. */
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
  return app;
}
