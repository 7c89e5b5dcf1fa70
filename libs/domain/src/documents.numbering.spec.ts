// money contract › Receipts: per workspace, gapless, one sequence per kind; › Invoices: INV-000001.
import { documentNumber } from './documents';

test.each([
  ['receipt', 1, 'R-000001'],
  ['supplement', 12, 'S-000012'],
  ['credit_note', 3, 'CN-000003'],
  ['invoice', 1, 'INV-000001'],
  ['receipt', 999999, 'R-999999'],
  ['receipt', 1000000, 'R-1000000'],
] as const)('%s %i is %s', (kind, sequence, number) => {
  expect(documentNumber(kind, sequence)).toBe(number);
});

test.each([0, -1, 1.5, Number.NaN])('a sequence of %p is a bug', (sequence) => {
  expect(() => documentNumber('receipt', sequence)).toThrow('bad sequence');
});
