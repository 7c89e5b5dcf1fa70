// Fixture factories: each returns a request body with sensible defaults; override what a test is about.
import type { TestApp } from '../support/test-app';

export const SHOP_ORIGIN = 'https://shop.example.com';
export const LOCAL_ORIGIN = 'http://localhost:5173';

export function fixedProduct(overrides: Record<string, unknown> = {}) {
  return { name: 'Lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37', ...overrides };
}

export function customProduct(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Donation',
    kind: 'one_off',
    pricingMode: 'custom_amount',
    chain: 'bnb',
    token: 'USDC',
    minAmount: '1',
    maxAmount: '500',
    ...overrides,
  };
}

export function paymentBody(overrides: Record<string, unknown> = {}) {
  return { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', ...overrides };
}

/** A merchant: workspace, key, registered return origins, and helpers bound to its key. */
export async function merchant(t: TestApp, origins: string[] = [SHOP_ORIGIN, LOCAL_ORIGIN]) {
  const { merchantId, apiKey } = await t.workspace();
  const m = {
    merchantId,
    apiKey,
    get: (path: string) => t.http().get(path).set('x-api-key', apiKey),
    post: (path: string, body?: object) => {
      const r = t.http().post(path).set('x-api-key', apiKey);
      return body === undefined ? r : r.send(body);
    },
    put: (path: string, body: object) => t.http().put(path).set('x-api-key', apiKey).send(body),
    patch: (path: string, body: object) => t.http().patch(path).set('x-api-key', apiKey).send(body),
    delete: (path: string) => t.http().delete(path).set('x-api-key', apiKey),
    async product(body: Record<string, unknown> = fixedProduct()) {
      const res = await m.post('/v1/products', body);
      if (res.status !== 201) throw new Error(`product create ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as Record<string, any>;
    },
    async session(body: Record<string, unknown>) {
      const res = await m.post('/v1/checkout/sessions', body);
      if (res.status !== 201) throw new Error(`session create ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as Record<string, any>;
    },
    async payment(body: Record<string, unknown> = paymentBody()) {
      const res = await m.post('/v1/payments', body);
      if (res.status !== 201) throw new Error(`payment create ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body as Record<string, any>;
    },
  };
  if (origins.length) {
    const res = await m.put('/v1/checkout/settings', { returnOrigins: origins });
    if (res.status !== 200) throw new Error(`settings ${res.status}`);
  }
  return m;
}

export type Merchant = Awaited<ReturnType<typeof merchant>>;

/** Public (no key) calls. */
export const publicApi = (t: TestApp) => ({
  get: (path: string) => t.http().get(path),
  post: (path: string, body: object = {}) => t.http().post(path).send(body),
});
