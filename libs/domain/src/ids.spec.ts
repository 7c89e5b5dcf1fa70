import { isSessionId, isUuid, originOf, originProblem, productSlug } from './ids';

describe('product slug: the name plus 6 random hex characters', () => {
  test.each([
    ['Lamp', 'lamp-0a1b2c'],
    ['Demo T-shirt', 'demo-t-shirt-0a1b2c'],
    ['  Crème brûlée!! ', 'creme-brulee-0a1b2c'],
    ['日本', '0a1b2c'],
  ])('%j → %s', (name, slug) => {
    expect(productSlug(name, '0a1b2c')).toBe(slug);
  });

  test('a 120-character name gives a slug within the 100-character column', () => {
    expect(productSlug('x'.repeat(120), 'abcdef').length).toBeLessThanOrEqual(100);
  });
});

describe('ids', () => {
  test('session ids are cs_ and 32 lowercase hex', () => {
    expect(isSessionId(`cs_${'a'.repeat(32)}`)).toBe(true);
    expect(isSessionId(`cs_${'A'.repeat(32)}`)).toBe(false);
    expect(isSessionId(`cs_${'a'.repeat(31)}`)).toBe(false);
    expect(isSessionId('00000000-0000-4000-8000-000000000000')).toBe(false);
  });

  test('uuids', () => {
    expect(isUuid('00000000-0000-4000-8000-000000000000')).toBe(true);
    expect(isUuid('not-a-uuid')).toBe(false);
  });
});

describe('return origins (spec: Resources › Checkout settings)', () => {
  test.each([
    'https://shop.example.com',
    'https://pay.example.org:8443',
    'http://localhost:3000',
    'http://127.0.0.1:8080',
    'https://shop.example.com/',
  ])('%s is an origin', (o) => expect(originProblem(o)).toBeNull());

  test.each([
    'http://shop.example.com',
    'https://shop.example.com/checkout',
    'shop.example.com',
    'https://shop.example.com?x=1',
    'ftp://x.example.com',
  ])('%s is refused', (o) => expect(originProblem(o)).not.toBeNull());

  test('originOf', () => {
    expect(originOf('https://shop.example.com/thanks?x=1')).toBe('https://shop.example.com');
    expect(originOf('javascript:alert(1)')).toBeNull();
  });
});

test('an origin that normalizes cleanly is accepted (default port, upper-case host)', () => {
  expect(originProblem('https://shop.example.com:443')).toBeNull();
  expect(originProblem('https://Shop.example.com')).toBeNull();
});
