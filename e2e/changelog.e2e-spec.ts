// A truthful changelog (issue 13; spec: Versioning 3): every route an entry of GET /v1/changelog
// names (`GET /v1/…`) is one the API serves, so the change list never advertises what is absent.
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** `METHOD /path` of every route Nest serves, with Express's `:param` names. */
function servedRoutes(): string[] {
  const express = t.app.getHttpAdapter().getInstance();
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  const router = (express.router ?? express._router) as { stack: Layer[] };
  return router.stack
    .filter((l) => l.route)
    .flatMap((l) =>
      Object.keys(l.route!.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${l.route!.path}`),
    );
}

/** Two routes are the same when they differ only in parameter names. */
const shape = (route: string) => route.replace(/:[A-Za-z]+/g, ':p');

test('every route an entry names is served by the API', async () => {
  const entries: Array<{ title: string; changes: string[]; migrationGuide: string | null }> = (
    await t.http().get('/v1/changelog')
  ).body.entries;
  const served = new Set(servedRoutes().map(shape));
  const named = entries.flatMap((e) =>
    [e.title, ...e.changes, e.migrationGuide ?? ''].flatMap((text) =>
      [...text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/v1\/[^\s,;)]*[^\s,;.:)])/g)].map((m) => `${m[1]} ${m[2]}`),
    ),
  );
  expect(named.length).toBeGreaterThan(20);
  const missing = named.filter((r) => !served.has(shape(r.replace(/\?.*$/, ''))));
  expect(missing).toEqual([]);
});

test('the check can fail: a route the API does not serve is caught', () => {
  const served = new Set(servedRoutes().map(shape));
  expect(served.has(shape('GET /v1/subscriptions'))).toBe(false);
  expect(served.has(shape('GET /v1/payments/:id'))).toBe(true);
});
