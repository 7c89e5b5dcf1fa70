import { envelopeBody } from './envelope';

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
