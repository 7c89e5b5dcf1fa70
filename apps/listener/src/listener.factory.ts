import { INestApplicationContext, Logger as NestLogger } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/config';
import { ListenerModule, ListenerModuleOptions } from './listener.module';

/** The listener application, as in production; e2e tests run it in-process the same way. */
export async function createListenerApp(
  config: SvcConfig,
  options: ListenerModuleOptions = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(ListenerModule.forRoot(config, options), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger)); // pino JSON lines (docs/operations.md › Logs)
  NestLogger.flush(); // the lines buffered while the app was built
  return app;
}
