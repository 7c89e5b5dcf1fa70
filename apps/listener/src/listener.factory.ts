import { INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/config';
import { ListenerModule, ListenerModuleOptions } from './listener.module';

/** The listener application, as in production; e2e tests run it in-process the same way. */
export async function createListenerApp(
  config: SvcConfig,
  options: ListenerModuleOptions = {},
  logLevels?: LogLevel[],
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(ListenerModule.forRoot(config, options), {
    logger: logLevels ?? (config.env === 'test' ? ['error', 'warn'] : ['log', 'error', 'warn']),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  Logger.flush();
  return app;
}
