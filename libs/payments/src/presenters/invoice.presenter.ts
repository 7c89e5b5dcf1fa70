import { InvoiceEntity, ReceiptEntity } from '@svc/db';
import { documentNumber, normalizeDecimal } from '@svc/domain';
import { publicReceipt } from './receipt.presenter';

/** money contract › Invoices: `hostedUrl` = `{PAY_URL}/i/<publicId>`. */
export const invoiceHostedUrl = (payUrl: string, publicId: string): string => `${payUrl}/i/${publicId}`;

/** `120.50`: USD with two decimals, as the line items. */
const usd = (amount: string) => {
  const [int, frac = ''] = normalizeDecimal(amount).split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
};

/** The invoice object of the merchant API and of `invoice.paid` (money contract › Invoices). */
export function invoiceObject(i: InvoiceEntity, payUrl: string) {
  return {
    id: i.id,
    object: 'invoice' as const,
    publicId: i.publicId,
    number: i.sequence === null ? null : documentNumber('invoice', i.sequence),
    status: i.status,
    customerName: i.customerName,
    customerEmail: i.customerEmail,
    memo: i.memo,
    lineItems: i.lineItems.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmount: l.unitAmount,
      amount: l.amount,
    })),
    currency: 'USD' as const,
    amount: usd(i.amount),
    networks: i.networks.map((n) => ({ chain: n.chain, token: n.token })),
    dueAt: i.dueAt?.toISOString() ?? null,
    hostedUrl: invoiceHostedUrl(payUrl, i.publicId),
    sessionId: i.sessionId,
    paymentId: i.paymentId,
    paidAt: i.paidAt?.toISOString() ?? null,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

/**
 * `GET /v1/public/invoices/:publicId`: the public fields (no `customerEmail`), the latest document
 * of its payment as `receipt` (or null), and `merchantName` (the workspace's name).
 */
export function publicInvoice(
  i: InvoiceEntity,
  payUrl: string,
  merchantName: string,
  latestReceipt: ReceiptEntity | null,
) {
  const { customerEmail: _customerEmail, ...rest } = invoiceObject(i, payUrl);
  return {
    ...rest,
    merchantName,
    receipt: latestReceipt && publicReceipt(latestReceipt, payUrl, merchantName),
  };
}
