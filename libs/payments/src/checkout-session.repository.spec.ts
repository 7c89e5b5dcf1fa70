import { SESSION_RECORDSET_KEYS, sessionRecordsetRow } from './checkout-session.repository';
import type { CheckoutSessionEntity } from '@svc/db';

// The grouped insert's JSON rows are object literals (issue 23, thirteenth pass): their keys are the
// recordset's columns, all of them, in order. A missing key would be NULL in that column, silently.
// e2e/checkout-sessions.product-cache (creates sent together) holds their values to a create alone's.
test('a grouped insert row has every column of the recordset, in order', () => {
  const at = new Date('2026-11-27T12:00:00.123Z');
  const session = { id: 'cs_1', createdAt: at, expiresAt: at, metadata: { a: 1 } } as unknown as CheckoutSessionEntity;
  const row = sessionRecordsetRow({ session, productVersion: '7', keyHash: null }, 3);
  expect(Object.keys(row)).toEqual(SESSION_RECORDSET_KEYS);
  expect(SESSION_RECORDSET_KEYS).toHaveLength(27);
  expect(row).toMatchObject({ id: 'cs_1', created_at: at.getTime(), metadata: { a: 1 }, product_version: '7', ord: 3 });
});
