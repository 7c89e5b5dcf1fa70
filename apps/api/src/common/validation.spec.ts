import 'reflect-metadata';
import { ArgumentMetadata, PipeTransform, ValidationPipe } from '@nestjs/common';
import { badRequest } from '@svc/core';
import { CreateSessionDto, RedeemSessionDto } from '../modules/checkout/dto/create-session.dto';
import { ListSessionsQueryDto } from '../modules/checkout/dto/list-sessions.dto';
import { PutCheckoutSettingsDto } from '../modules/checkout/dto/put-checkout-settings.dto';
import { CreateInvoiceDto } from '../modules/invoices/dto/create-invoice.dto';
import { CreatePaymentDto } from '../modules/payments/dto/create-payment.dto';
import { CreateProductDto } from '../modules/products/dto/create-product.dto';
import { CreateWebhookDto } from '../modules/webhooks/dto/create-webhook.dto';
import { globalValidationPipe, passesAtOnce, validationMessages } from './validation';

// Issue 23 › API: the global pipe lets a valid body through with a quick check of the same
// constraints; everything else goes to class-validator. Every answer must be the plain pipe's.
const plain = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  exceptionFactory: (errors) => badRequest(validationMessages(errors)),
});
const fast = globalValidationPipe();

async function outcome(pipe: PipeTransform, metatype: new () => object, value: unknown): Promise<unknown> {
  const meta: ArgumentMetadata = { type: 'body', metatype, data: undefined };
  try {
    const out = await pipe.transform(structuredClone(value), meta);
    return { ok: true, type: (out as object).constructor?.name, value: { ...(out as object) } };
  } catch (err) {
    const e = err as { code?: string; message?: unknown; details?: unknown };
    return { ok: false, code: e.code, message: e.message };
  }
}

const LONG = (n: number) => 'x'.repeat(n);
const SESSION_BODIES: unknown[] = [
  { productId: 'prod_1' },
  { productId: 'prod_1', reference: 'order-42', metadata: { a: 1 }, idempotencyKey: 'k1', chain: 'bnb', locale: 'en' },
  { productSlug: 'lamp', expiresInSeconds: 300 },
  { productId: 'prod_1', expiresInSeconds: 299 },
  { productId: 'prod_1', expiresInSeconds: 604801 },
  { productId: 'prod_1', expiresInSeconds: 1.5 },
  { productId: 'prod_1', expiresInSeconds: '600' },
  { productId: '' },
  { productId: null, productSlug: null, reference: null },
  { productId: 'p', idempotencyKey: null },
  { productId: 'p', idempotencyKey: '' },
  { productId: 'p', idempotencyKey: LONG(180) },
  { productId: 'p', idempotencyKey: LONG(181) },
  { productId: LONG(64) },
  { productId: LONG(65) },
  { productId: '😀'.repeat(40) }, // 80 UTF-16 units, 40 characters for MaxLength
  { productId: 'p', amount: 12 },
  { productId: 'p', amount: '12.5' },
  { productId: 'p', metadata: [] },
  { productId: 'p', metadata: 'x' },
  { productId: 'p', successUrl: LONG(2049) },
  { productId: 'p', unknown: 1 },
  { productId: 'p', constructor: 'x' },
  { productId: 'p', __proto__: { reference: 1 } },
  {},
  [],
  'text',
  null,
];
const PAYMENT_BODIES: unknown[] = [
  { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' },
  {
    chain: 'bnb',
    token: 'USDC',
    amount: '10',
    currency: 'USDC',
    network: 'testnet',
    metadata: { x: [1] },
    idempotencyKey: 'i',
  },
  { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', network: 'moon' },
  { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', network: null },
  { chain: 'bnb', token: 'USDC', amount: 10, currency: 'USDC' },
  { chain: 'bnb', token: 'USDC', currency: 'USDC' },
  { chain: '', token: '', amount: '', currency: '' },
  { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', idempotencyKey: null },
  { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', extra: true },
];

describe('the global validation pipe', () => {
  test.each([
    ['CreateSessionDto', CreateSessionDto, SESSION_BODIES],
    ['CreatePaymentDto', CreatePaymentDto, PAYMENT_BODIES],
    ['RedeemSessionDto', RedeemSessionDto, [{}, { chain: 'bnb' }, { chain: 5 }, { chain: null }, { other: 1 }]],
    ['ListSessionsQueryDto', ListSessionsQueryDto, [{}, { limit: '5' }, { limit: 5 }, { nope: '1' }]],
    ['PutCheckoutSettingsDto', PutCheckoutSettingsDto, [{}, { supportEmail: 'a@b.c' }, { supportEmail: 'nope' }]],
    ['CreateInvoiceDto', CreateInvoiceDto, [{}, { customer: { name: 'A' } }, { lines: [{}] }]],
    [
      'CreateProductDto',
      CreateProductDto,
      [{ name: 'Lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37' }, {}],
    ],
    ['CreateWebhookDto', CreateWebhookDto, [{ url: 'https://x.example/h' }, { url: 1 }, {}]],
  ] as Array<[string, new () => object, unknown[]]>)('answers as the plain pipe: %s', async (_name, dto, bodies) => {
    for (const body of bodies) expect(await outcome(fast, dto, body)).toEqual(await outcome(plain, dto, body));
  });

  test('lets the hot bodies through without class-validator, and nothing it would refuse', async () => {
    const { plainToInstance } = await import('class-transformer');
    const options = { whitelist: true, forbidNonWhitelisted: true };
    const at = (dto: new () => object, body: object) => passesAtOnce(plainToInstance(dto, body), options);
    expect(at(CreateSessionDto, { productId: 'prod_1' })).toBe(true);
    expect(at(CreateSessionDto, { productId: 'prod_1', reference: 'r', metadata: {}, expiresInSeconds: 900 })).toBe(
      true,
    );
    expect(at(CreatePaymentDto, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' })).toBe(true);
    expect(at(CreatePaymentDto, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC', network: 'moon' })).toBe(
      false,
    );
    expect(at(CreateSessionDto, { productId: 'p', unknown: 1 })).toBe(false);
    expect(at(CreateSessionDto, { productId: LONG(65) })).toBe(false);
    // options the quick check does not cover go to class-validator
    expect(passesAtOnce(plainToInstance(CreateSessionDto, { productId: 'p' }), { ...options, groups: ['g'] })).toBe(
      false,
    );
    expect(passesAtOnce(plainToInstance(CreateSessionDto, { productId: 'p' }), {})).toBe(false);
  });

  test('random session bodies: the same answer from both pipes', async () => {
    const values = [undefined, null, '', 'a', LONG(64), LONG(65), 0, 300, 604800, 1e9, 2.5, true, {}, [], { k: 'v' }];
    const keys = [
      'productId',
      'productSlug',
      'amount',
      'reference',
      'metadata',
      'idempotencyKey',
      'chain',
      'locale',
      'expiresInSeconds',
      'successUrl',
      'bogus',
    ];
    let seed = 23;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 300; i++) {
      const body: Record<string, unknown> = {};
      for (let k = rnd(4); k >= 0; k--) body[keys[rnd(keys.length)]] = values[rnd(values.length)];
      expect(await outcome(fast, CreateSessionDto, body)).toEqual(await outcome(plain, CreateSessionDto, body));
    }
  });

  test('answers a flat body that passes without a promise, anything else as ValidationPipe does', async () => {
    const meta: ArgumentMetadata = { type: 'body', metatype: CreateSessionDto, data: undefined };
    const hot = { productId: 'prod_1', reference: 'bench-ref', expiresInSeconds: 900, productSlug: null };
    const out = fast.transform({ ...hot }, meta) as object;
    expect(out).not.toBeInstanceOf(Promise);
    expect(out).toBeInstanceOf(CreateSessionDto);
    const expected = (await plain.transform({ ...hot }, meta)) as object;
    expect(Object.entries(out)).toEqual(Object.entries(expected)); // same keys, same order, same values
    // a nested value, a key ValidationPipe strips, a body that does not pass, a query: the promise of ValidationPipe
    for (const [value, type] of [
      [{ productId: 'p', metadata: { a: 1 } }, 'body'],
      [{ productId: 'p', prototype: 'x' }, 'body'],
      [{ productId: 'p', amount: 12 }, 'body'],
      [{ productId: 'p' }, 'query'],
    ] as const) {
      const result = fast.transform(value, { type, metatype: CreateSessionDto, data: undefined }) as Promise<unknown>;
      expect(result).toBeInstanceOf(Promise);
      await result.catch(() => undefined);
    }
    for (const value of [
      { productId: 'p', prototype: 'x' },
      { productId: 'p', constructor: 'x' },
      { productId: 'p', __proto__: 'x' },
    ])
      expect(await outcome(fast, CreateSessionDto, value)).toEqual(await outcome(plain, CreateSessionDto, value));
  });

  test("answers a parameter it does not validate without a promise, with ValidationPipe's value", async () => {
    const caller = { workspaceId: 'w', keyCheck: undefined };
    for (const [value, meta] of [
      [caller, { type: 'custom', metatype: Object, data: undefined }], // @CurrentCaller()
      [{ log: {} }, { type: 'custom', metatype: undefined, data: undefined }], // @RequestLog()
      ['pay_1', { type: 'param', metatype: String, data: 'id' }], // @Param('id') id: string
      ['7', { type: 'query', metatype: Number, data: 'limit' }],
      ['true', { type: 'query', metatype: Boolean, data: 'live' }],
      [undefined, { type: 'query', metatype: String, data: 'status' }],
      [{ a: '1' }, { type: 'query', metatype: Object, data: undefined }],
    ] as Array<[unknown, ArgumentMetadata]>) {
      const out = fast.transform(value, meta);
      expect(out).not.toBeInstanceOf(Promise);
      expect(out).toStrictEqual(await plain.transform(value, meta));
      if (meta.type === 'custom') expect(out).toBe(value); // the decorator's own object
    }
    // a parameter with a class to validate still goes to ValidationPipe
    const dto = fast.transform({ productId: 'p' }, { type: 'query', metatype: CreateSessionDto, data: undefined });
    expect(dto).toBeInstanceOf(Promise);
    await (dto as Promise<unknown>).catch(() => undefined);
  });
});
