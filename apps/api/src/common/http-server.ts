// The API's HTTP server: Nest's Express adapter, with requests and responses built on Express's
// own prototypes from the start.
//
// Express gives every request its application's prototypes by changing them in place:
// `Object.setPrototypeOf(req, app.request)` and `(res, app.response)` on each request
// (express/lib/application.js, `app.handle`). V8 handles an object whose prototype changed after
// its creation far worse than one created with it: in the API, about a fifth of everything a
// request allocated then outlived a scavenge and was copied to the old generation (7–17 MB a
// scavenge, 20–40 ms pauses in which every request in flight waits), against next to nothing for
// the same handler on Node's own objects (docs/performance.md › API › issue 23, twelfth pass).
// Node's server takes the classes it builds requests and responses with (`http.createServer`'s
// `IncomingMessage` and `ServerResponse` options): the API's are subclasses of Node's whose
// prototypes are the application's `request` and `response`, so Express's `setPrototypeOf` finds
// the prototype already set and changes nothing (a mounted sub-application still switches and
// restores them, as before).
import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Application } from 'express';

/** What Express keeps on an application: the prototypes of its requests and responses (express/lib/express.js). */
interface ExpressPrototypes {
  request: object;
  response: object;
}

type ServerClasses = Required<Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * Node's request and response classes for `app`: subclasses of Node's own, whose prototypes
 * inherit from `app.request` and `app.response` (Express's methods and getters) and become them
 * (`app.request = Request.prototype`), so that a request is built with the prototype Express gives
 * it. Subclasses, not functions handing Node's constructors another prototype (`Reflect.construct`
 * with a new target): V8 built those objects about as slowly as Express's switch (measured, see
 * the file's head). Called once per application, before it serves.
 */
export function expressServerClasses(app: ExpressPrototypes): ServerClasses {
  class Request extends http.IncomingMessage {}
  Object.setPrototypeOf(Request.prototype, app.request);
  app.request = Request.prototype;
  class Response extends http.ServerResponse {}
  Object.setPrototypeOf(Response.prototype, app.response);
  app.response = Response.prototype;
  return { IncomingMessage: Request, ServerResponse: Response as ServerClasses['ServerResponse'] };
}

/** Nest's Express adapter, whose HTTP server builds requests and responses with `expressServerClasses`. */
export class ApiExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and forced connection closing are not used by the API: Nest's own server, unchanged
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Application & ExpressPrototypes>();
    this.httpServer = http.createServer(expressServerClasses(app), app);
  }
}
