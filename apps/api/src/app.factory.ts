import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger, PARAMS_PROVIDER_TOKEN, Params } from 'nestjs-pino';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SvcConfig } from '@svc/core';
import { requestLogMiddleware } from '@svc/runtime';
import { AppModule } from './app.module';
import { serveHttpMetrics } from './common/http-metrics';
import { ApiExpressAdapter } from './common/http-server';
import { bodyParserErrors, jsonBodyParser, requireJsonContentType } from './common/http-middleware';
import { globalValidationPipe } from './common/validation';
import { serveOpenApi } from './openapi/openapi';

/** The API application, configured exactly as in production; e2e tests build it the same way. */
export async function createApiApp(config: SvcConfig): Promise<NestExpressApplication> {
  // requests and responses built on Express's prototypes, not switched to them (common/http-server.ts)
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new ApiExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger)); // pino JSON lines with the request log (docs/operations.md › Logs)
  NestLogger.flush(); // the lines buffered while the app was built
  app.disable('x-powered-by');
  // req.ip is the buyer's address: X-Forwarded-For is believed only from SVC_TRUSTED_PROXIES (docs/configuration.md › Rate limits).
  app.set('trust proxy', config.trustedProxies);
  // no ETag: res.send would hash every body (POST answers too), and nothing in the spec or a client
  // sends If-None-Match (docs/performance.md › API › issue 23, fourth pass, api5)
  app.set('etag', false);
  serveHttpMetrics(app, config.metrics); // first, so that every request is counted
  app.use(requireJsonContentType, jsonBodyParser(), bodyParserErrors);
  app.useGlobalPipes(globalValidationPipe());
  app.enableCors({ origin: true, methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] });
  // GET /v1/openapi.json and the reference page at GET /docs (public; docs/api-reference.md);
  // SVC_DOCS=off leaves them out (404 like any unknown route)
  if (config.docs) serveOpenApi(app, config);
  // the request lines (pino-http), where nestjs-pino mounted them (after the above, before the
  // routes), without its per-request AsyncLocalStorage: a line written during a request gets the
  // request's `req` from the request itself (libs/runtime request-log.ts; docs/operations.md › Logs)
  app.use(requestLogMiddleware(app.get<Params>(PARAMS_PROVIDER_TOKEN)));
  return app;
}
