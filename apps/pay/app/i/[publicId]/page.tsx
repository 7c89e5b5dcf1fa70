// /i/<publicId>: the hosted invoice page (money contract › Invoices: hostedUrl). Rendered on the
// server from GET /v1/public/invoices/:publicId (no customerEmail): line items, total, due date,
// status. "Pay" is a plain form: POST /i/<publicId>/pay starts or resumes the invoice's checkout
// session and sends the buyer to /c/<session>, where they pick a rail once. Paid: "Paid" and a
// link to the receipt; void: a notice not to pay.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BrandBar, BrandedMain, SupportLinks } from '../../../components/brand';
import { Notice } from '../../../components/notice';
import { fill, formatDateTime, formatUsd, networkName } from '../../../lib/format';
import { isInvoicePublicId } from '../../../lib/ids';
import { loadInvoice } from '../../../lib/loaders';
import { messagesFor, type Messages } from '../../../lib/messages';
import { invoicePath, receiptPath } from '../../../lib/paths';
import { localeQuery, requestLocale } from '../../../lib/request';
import type { InvoiceStatus, PublicInvoice } from '../../../lib/types';

type Props = { params: Promise<{ publicId: string }>; searchParams: Promise<{ error?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { publicId } = await params;
  const loaded = isInvoicePublicId(publicId) ? await loadInvoice(publicId) : null;
  const m = messagesFor((await requestLocale()).lang);
  return {
    title:
      loaded?.ok && loaded.body.number ? fill(m.invoiceHeading, { number: loaded.body.number }) : m.invoicePageTitle,
  };
}

function statusLabel(status: InvoiceStatus, m: Messages): string {
  switch (status) {
    case 'open':
    case 'draft': // never public: the API answers 404 for a draft
      return m.invoiceStatusOpen;
    case 'paid':
      return m.invoiceStatusPaid;
    case 'void':
      return m.invoiceStatusVoid;
  }
}

export default async function InvoicePage({ params, searchParams }: Props) {
  const { publicId } = await params;
  if (!isInvoicePublicId(publicId)) notFound();
  const failed = (await searchParams).error !== undefined;
  const locale = await requestLocale();
  const m = messagesFor(locale.lang);
  const loaded = await loadInvoice(publicId);
  if (!loaded.ok) {
    if (loaded.status === 404) notFound();
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }
  const inv = loaded.body;
  const tag = locale.tag;
  const usd = (amount: string) => formatUsd(amount, tag);
  const date = (iso: string) => formatDateTime(iso, tag, 'UTC');

  return (
    <BrandedMain branding={inv.branding} className="page document" testId="invoice">
      <BrandBar branding={inv.branding} logoPath={`/logo/i/${encodeURIComponent(inv.publicId)}`} />
      <article className="card">
        <header className="document-head">
          <div>
            <p className="muted">{m.issuedBy}</p>
            <p className="merchant" data-testid="merchant">
              {inv.merchantName}
            </p>
          </div>
          <div className="document-title">
            <h1>{inv.number ? fill(m.invoiceHeading, { number: inv.number }) : m.invoicePageTitle}</h1>
            <p className={`badge ${inv.status}`} data-testid="invoice-status" data-status={inv.status}>
              {statusLabel(inv.status, m)}
            </p>
          </div>
        </header>

        <dl className="facts">
          {inv.customerName && (
            <div>
              <dt>{m.billedTo}</dt>
              <dd data-testid="customer">{inv.customerName}</dd>
            </div>
          )}
          {inv.dueAt && (
            <div>
              <dt>{m.dueDate}</dt>
              <dd data-testid="due">
                <time dateTime={inv.dueAt}>{date(inv.dueAt)}</time>
              </dd>
            </div>
          )}
        </dl>

        <table className="items" data-testid="line-items">
          <thead>
            <tr>
              <th scope="col">{m.itemDescription}</th>
              <th scope="col" className="num">
                {m.itemQuantity}
              </th>
              <th scope="col" className="num">
                {m.itemUnitPrice}
              </th>
              <th scope="col" className="num">
                {m.itemAmount}
              </th>
            </tr>
          </thead>
          <tbody>
            {inv.lineItems.map((l, i) => (
              <tr key={i}>
                <td>{l.description}</td>
                <td className="num">{new Intl.NumberFormat(tag).format(l.quantity)}</td>
                <td className="num">{usd(l.unitAmount)}</td>
                <td className="num">{usd(l.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {m.invoiceTotal}
              </th>
              <td className="num">
                <strong data-testid="total">{usd(inv.amount)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>

        {inv.memo && (
          <p className="memo">
            <span className="detail-label">{m.memo}</span>
            {inv.memo}
          </p>
        )}

        <InvoiceAction inv={inv} m={m} date={date} failed={failed} usd={usd} query={await localeQuery()} />
      </article>
      <SupportLinks branding={inv.branding} m={m} />
    </BrandedMain>
  );
}

function InvoiceAction(props: {
  inv: PublicInvoice;
  m: Messages;
  date: (iso: string) => string;
  usd: (amount: string) => string;
  failed: boolean;
  /** `?locale=…` when the buyer chose a language, carried to the checkout */
  query: string;
}) {
  const { inv, m } = props;
  switch (inv.status) {
    case 'paid':
      return (
        <div className="status ok" role="status" data-testid="paid">
          <h2>{m.invoiceStatusPaid}</h2>
          {inv.paidAt && <p>{fill(m.invoicePaidDetail, { date: props.date(inv.paidAt) })}</p>}
          {inv.receipt && (
            <p>
              <a href={receiptPath(inv.receipt.id)} data-testid="receipt-link">
                {m.viewReceipt} ({inv.receipt.number})
              </a>
            </p>
          )}
        </div>
      );
    case 'void':
      return (
        <div className="status bad" role="status" data-testid="void">
          <h2>{m.invoiceStatusVoid}</h2>
          <p>{m.invoiceVoidDetail}</p>
        </div>
      );
    case 'open':
    case 'draft':
      return (
        <>
          <p className="muted">
            {fill(m.invoiceRails, {
              rails: inv.networks
                .map((r) => fill(m.tokenOn, { token: r.token, network: networkName(r.chain, 'mainnet', m.testnet) }))
                .join(', '),
            })}
          </p>
          {props.failed && (
            <div className="alert" role="alert" data-testid="error">
              {m.invoiceStartFailed}
            </div>
          )}
          <form method="post" action={`${invoicePath(inv.publicId)}/pay${props.query}`} className="actions">
            <button type="submit" data-testid="pay">
              {fill(m.payInvoice, { amount: props.usd(inv.amount) })}
            </button>
          </form>
        </>
      );
  }
}
