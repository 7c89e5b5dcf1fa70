import { PAYMENT_RECORDSET_KEYS, paymentRecordsetRow } from './payment.repository';
import type { NewPayment } from './payment.repository';

// The grouped insert's JSON rows are object literals (issue 23, thirteenth pass): their keys are the
// recordset's columns, all of them, in order. A missing key would be NULL in that column, silently.
// e2e/payments.grouped-inserts holds their values to an insert alone's.
test('a grouped payment insert row has every column of the recordset, in order', () => {
  const at = new Date('2026-11-27T12:00:00.123Z');
  const p = {
    id: 'p1',
    expectedAmountAtomic: 10n,
    addressIndex: 7n,
    metadata: { a: 1 },
    expiresAt: at,
    createdAt: at,
    updatedAt: at,
  } as unknown as NewPayment;
  const row = paymentRecordsetRow({ p, keyHash: null }, 2);
  expect(Object.keys(row)).toEqual(PAYMENT_RECORDSET_KEYS);
  expect(PAYMENT_RECORDSET_KEYS).toHaveLength(23);
  expect(row).toMatchObject({
    ord: 2,
    id: 'p1',
    expected_amount_atomic: '10',
    address_index: '7',
    metadata: { a: 1 },
    created_at: at.getTime(),
  });
});
