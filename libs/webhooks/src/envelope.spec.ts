import { envelopeBody, envelopeBytes } from './envelope';

test('envelopeBody: {id, type, createdAt, data} in that order, data passed through byte for byte', () => {
  const data = '{"b":1,"a":{"z":null,"y":"é"}}';
  const body = envelopeBody(
    '6b1f0d6e-8c55-4c43-9a57-1c1d3e3a0f10',
    'payment.confirmed',
    new Date('2026-09-21T10:00:00.123Z'),
    data,
  );
  expect(body).toBe(
    `{"id":"6b1f0d6e-8c55-4c43-9a57-1c1d3e3a0f10","type":"payment.confirmed","createdAt":"2026-09-21T10:00:00.123Z","data":${data}}`,
  );
  expect(Object.keys(JSON.parse(body))).toEqual(['id', 'type', 'createdAt', 'data']);
});

test('envelopeBytes: the UTF-8 bytes of envelopeBody, exactly (multi-byte characters in the id, the type and the data)', () => {
  const cases: Array<[string, string, Date | string, string]> = [
    ['6b1f0d6e-8c55-4c43-9a57-1c1d3e3a0f10', 'payment.confirmed', new Date('2026-09-21T10:00:00.123Z'), '{"a":1}'],
    ['é"\\', 'ünïcode.typ€', '2026-09-21T10:00:00.000Z', '{"b":1,"a":{"z":null,"y":"é 😀 \\u0000"}}'],
    ['x', 't', new Date(0), '[]'],
  ];
  for (const [id, type, at, data] of cases) {
    const bytes = envelopeBytes(id, type, at, data);
    expect(bytes.equals(Buffer.from(envelopeBody(id, type, at, data), 'utf8'))).toBe(true);
    expect(bytes.toString('utf8')).toBe(envelopeBody(id, type, at, data));
  }
});
