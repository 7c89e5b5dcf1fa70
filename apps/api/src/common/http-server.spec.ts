import type { AddressInfo } from 'node:net';
import * as http from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Application } from 'express';
import { ApiExpressAdapter } from './http-server';

type Prototypes = { request: object; response: object };

/** Serves `adapter`'s app on a free port; answers what each request's prototypes were when Node built it. */
async function serve(adapter: ExpressAdapter) {
  adapter.initHttpServer({});
  const app = adapter.getInstance<Application & Prototypes>();
  const server = adapter.getHttpServer() as http.Server;
  const atCreation: Array<{ req: boolean; res: boolean; nodeReq: boolean; nodeRes: boolean }> = [];
  // runs before Express's handler: the objects as Node's server built them
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    atCreation.push({
      req: Object.getPrototypeOf(req) === app.request,
      res: Object.getPrototypeOf(res) === app.response,
      nodeReq: req instanceof http.IncomingMessage,
      nodeRes: res instanceof http.ServerResponse,
    });
  });
  app.use(express.json());
  app.post('/echo/:id', (req, res) => {
    res
      .status(201)
      .set('x-seen', String(req.get('x-probe')))
      .json({
        id: req.params.id,
        body: req.body,
        query: req.query.q,
        ip: req.ip,
        sameRequest: Object.getPrototypeOf(req) === app.request,
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, atCreation, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the API’s HTTP server (ApiExpressAdapter)', () => {
  it('builds each request and response on Express’s prototypes, so Express does not switch them', async () => {
    const { base, atCreation, close } = await serve(new ApiExpressAdapter());
    try {
      // three requests one after another (fetch keeps the connection alive between them)
      for (const n of [1, 2, 3]) {
        const res = await fetch(`${base}/echo/p${n}?q=${n}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-probe': `probe-${n}` },
          body: JSON.stringify({ amount: '10.5', n }),
        });
        expect(res.status).toBe(201);
        expect(res.headers.get('x-seen')).toBe(`probe-${n}`);
        expect(await res.json()).toEqual({
          id: `p${n}`,
          body: { amount: '10.5', n },
          query: String(n),
          ip: '127.0.0.1',
          sameRequest: true,
        });
      }
      expect(atCreation).toHaveLength(3);
      expect(atCreation.every((x) => x.req && x.res && x.nodeReq && x.nodeRes)).toBe(true);
    } finally {
      await close();
    }
  });

  it('Nest’s own adapter builds them on Node’s prototypes (Express then switches each request’s)', async () => {
    const { base, atCreation, close } = await serve(new ExpressAdapter());
    try {
      const res = await fetch(`${base}/echo/x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(((await res.json()) as { sameRequest: boolean }).sameRequest).toBe(true);
      expect(atCreation).toEqual([{ req: false, res: false, nodeReq: true, nodeRes: true }]);
    } finally {
      await close();
    }
  });
});
