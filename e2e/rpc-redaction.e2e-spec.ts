// Issue 21, item 8: RPC URLs carry provider keys (…/v3/<key>, ?apikey=<key>). An error that comes
// from reading a chain names the endpoint by scheme, host and port only, wherever it ends up: here
// recovery's 503 (what the API and `svc recover` answer), read through the real chain reader from
// an endpoint that refuses the connection. Logs: libs/runtime/src/logging.spec.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DomainError } from '@svc/core';
import { merchant, paymentBody } from './factories/merchant.factory';
import { CreditContext, startCreditContext } from './support/credit-context';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(90_000);

const KEY = 'k3y0f7h3pr0v1d3r5ecret';
let t: TestApp;
let ctx: CreditContext;

beforeAll(async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-rpc-')), 'chains.json');
  // port 9 (discard) on loopback: the connection is refused at once
  const rpcUrls = [`http://127.0.0.1:9/v3/${KEY}?apikey=${KEY}`];
  writeFileSync(file, JSON.stringify({ chains: [{ chain: 'bnb', network: 'mainnet', rpcUrls }] }));
  t = await startTestApp({ SVC_CHAINS_FILE: file });
  ctx = await startCreditContext(t.config);
});
afterAll(async () => {
  await ctx?.close();
  await t?.close();
});

test('recovery against an unreachable RPC: 503 naming the endpoint by host, never its key', async () => {
  const m = await merchant(t);
  const p = (await m.payment(paymentBody())) as { id: string };
  const err = await ctx.recovery.recover(p.id, `0x${'ab'.repeat(32)}`).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe('unavailable');
  const message = (err as Error).message;
  expect(message).toContain('http://127.0.0.1:9');
  expect(message).not.toContain(KEY);
  expect(message).not.toContain('/v3/');
});
