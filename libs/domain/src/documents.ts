// Receipts, supplements, credit notes and invoices: what is issued when, how it is numbered and
// how an invoice adds up. Pure: the ledger (libs/payments) does the I/O in the credit transaction.
// money contract › Receipts, supplements, credit notes; › Invoices.
import { formatUsdCents, parseUsdCents } from './amounts';
import { assertUnreachable, PaymentStatus } from './types';

export const DOCUMENT_KINDS = ['receipt', 'supplement', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Everything numbered per workspace, one gapless sequence each (credit notes arrive with refunds). */
export const NUMBERED_KINDS = [...DOCUMENT_KINDS, 'invoice'] as const;
export type NumberedKind = (typeof NUMBERED_KINDS)[number];

export const DOCUMENT_EVENT_TYPES = ['receipt.issued', 'receipt.supplemented', 'receipt.credit_note.issued'] as const;
export type DocumentEventType = (typeof DOCUMENT_EVENT_TYPES)[number];

const PREFIX: Record<NumberedKind, string> = { receipt: 'R', supplement: 'S', credit_note: 'CN', invoice: 'INV' };

/** `R-000001`, `S-000012`, `CN-000003`, `INV-000001`: six digits at least, more once past 999999. */
export function documentNumber(kind: NumberedKind, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new Error(`documentNumber: bad sequence ${sequence}`);
  return `${PREFIX[kind]}-${String(sequence).padStart(6, '0')}`;
}

/** The event that announces a document (spec: Events › receipt.*). */
export function documentEventType(kind: DocumentKind): DocumentEventType {
  switch (kind) {
    case 'receipt':
      return 'receipt.issued';
    case 'supplement':
      return 'receipt.supplemented';
    case 'credit_note':
      return 'receipt.credit_note.issued';
    default:
      return assertUnreachable(kind);
  }
}

/** A payment is paid in full once it is confirmed or overpaid (late ones too). */
export function isPaidInFull(status: PaymentStatus): boolean {
  switch (status) {
    case 'confirmed':
    case 'overpaid':
      return true;
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
    case 'underpaid':
    case 'expired':
    case 'refunded':
    case 'created':
    case 'settled':
    case 'failed':
      return false;
    default:
      return assertUnreachable(status);
  }
}

/** A final transfer of the payment, keyed as the blockchain transaction is (txHash, logIndex). */
export interface DocumentableTransfer {
  txHash: string;
  logIndex: number;
  amountAtomic: bigint;
}

export const transferKey = (t: Pick<DocumentableTransfer, 'txHash' | 'logIndex'>): string =>
  `${t.txHash}:${t.logIndex}`;

export interface DocumentInput<T extends DocumentableTransfer> {
  /** the payment's status after the credit (the engine's verdict) */
  status: PaymentStatus;
  /** whether the payment already has its `receipt` */
  receiptIssued: boolean;
  /** every final transfer of the payment, in the order they were credited */
  finalTransfers: T[];
  /** keys of the transfers earlier receipts and supplements already cover */
  documented: ReadonlySet<string>;
}

export type DocumentDecision<T extends DocumentableTransfer> = {
  kind: 'receipt' | 'supplement';
  /** the transfers the new document covers; its amount is their sum */
  transfers: T[];
  amountAtomic: bigint;
} | null;

/**
 * Which document a credit issues (money contract › Receipts):
 * - `receipt` when the payment first becomes confirmed or overpaid (also late), for everything
 *   received so far (an underpaid payment gets nothing until it is paid in full);
 * - `supplement` for each later credit (top-up, overpay, recovery): the new money only;
 * - nothing when no final money is left undocumented (a duplicate, a transfer not yet final).
 */
export function decideDocument<T extends DocumentableTransfer>(input: DocumentInput<T>): DocumentDecision<T> {
  const fresh = input.finalTransfers.filter((t) => !input.documented.has(transferKey(t)));
  if (!fresh.length) return null;
  const amountAtomic = fresh.reduce((sum, t) => sum + t.amountAtomic, 0n);
  if (input.receiptIssued) return { kind: 'supplement', transfers: fresh, amountAtomic };
  if (!isPaidInFull(input.status)) return null;
  return { kind: 'receipt', transfers: fresh, amountAtomic };
}

// ---------------------------------------------------------------------------------- invoices

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const MAX_LINE_ITEMS = 100;
export const MAX_LINE_QUANTITY = 1_000_000;
/** The USD amount format allows 20 integer digits (spec: Resources › Product › amount format). */
const MAX_INVOICE_CENTS = 10n ** 22n - 1n;

export interface LineItemInput {
  description: string;
  quantity: number;
  unitAmount: string;
}

export interface LineItem {
  description: string;
  quantity: number;
  /** USD, two decimals ("12.50") */
  unitAmount: string;
  /** quantity × unitAmount, USD, two decimals */
  amount: string;
}

export type InvoiceTotal = { ok: true; lineItems: LineItem[]; amount: string } | { ok: false; messages: string[] };

/**
 * Line items priced and summed in exact cents (money contract › Invoices: amount = sum of line
 * items, USD, at most 2 decimals). Each `unitAmount` follows the USD amount format; the total must
 * be at least 0.01 and fit the same format.
 */
export function priceLineItems(items: LineItemInput[]): InvoiceTotal {
  const messages: string[] = [];
  if (items.length < 1 || items.length > MAX_LINE_ITEMS) {
    messages.push(`lineItems must contain 1 to ${MAX_LINE_ITEMS} items.`);
  }
  let total = 0n;
  const lineItems: LineItem[] = [];
  items.forEach((item, i) => {
    const cents = parseUsdCents(item.unitAmount);
    if (cents === null) {
      messages.push(
        `lineItems.${i}.unitAmount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.`,
      );
      return;
    }
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1 || item.quantity > MAX_LINE_QUANTITY) {
      messages.push(`lineItems.${i}.quantity must be an integer from 1 to ${MAX_LINE_QUANTITY}.`);
      return;
    }
    const amount = cents * BigInt(item.quantity);
    total += amount;
    lineItems.push({
      description: item.description,
      quantity: item.quantity,
      unitAmount: formatUsdCents(cents),
      amount: formatUsdCents(amount),
    });
  });
  if (messages.length) return { ok: false, messages };
  if (total < 1n)
    return { ok: false, messages: ['The invoice amount (the sum of its line items) must be at least 0.01.'] };
  if (total > MAX_INVOICE_CENTS) {
    return {
      ok: false,
      messages: ['The invoice amount (the sum of its line items) must have at most 20 integer digits.'],
    };
  }
  return { ok: true, lineItems, amount: formatUsdCents(total) };
}

/** What a merchant action may do to an invoice in a given status (money contract › Invoices). */
export type InvoiceAction = 'update' | 'finalize' | 'void' | 'pay';

export type InvoiceDecision = { kind: 'allow' } | { kind: 'conflict'; message: string };

export const invoiceConflictMessage = (action: InvoiceAction, status: InvoiceStatus): string => {
  switch (action) {
    case 'update':
      return `Only a draft invoice can be changed; this invoice is ${status}.`;
    case 'finalize':
      return `Only a draft invoice can be finalized; this invoice is ${status}.`;
    case 'void':
      return status === 'paid' ? 'A paid invoice cannot be voided.' : `This invoice is already ${status}.`;
    case 'pay':
      return status === 'draft'
        ? 'This invoice is a draft: finalize it before it can be paid.'
        : `This invoice is ${status}: it cannot be paid.`;
    default:
      return assertUnreachable(action);
  }
};

/** draft → open (finalize) → paid; draft/open → void; PATCH on drafts only; payable while open. */
export function decideInvoice(action: InvoiceAction, status: InvoiceStatus): InvoiceDecision {
  const allowed: Record<InvoiceAction, readonly InvoiceStatus[]> = {
    update: ['draft'],
    finalize: ['draft'],
    void: ['draft', 'open'],
    pay: ['open'],
  };
  return allowed[action].includes(status)
    ? { kind: 'allow' }
    : { kind: 'conflict', message: invoiceConflictMessage(action, status) };
}
