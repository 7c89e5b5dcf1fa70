// /c/<session_id>: the hosted checkout page (spec: Checkout session; docs/pages.md). Rendered on the server from GET /v1/public/checkout/sessions/:id; the interactive part
// (chain picker, payment details, live status, cancel, return) is SessionCheckout, server-rendered
// around the small SessionLive island.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BrandBar, BrandedMain, SupportLinks } from '../../../components/brand';
import { Notice } from '../../../components/notice';
import { ProductHeader } from '../../../components/product-header';
import { SessionCheckout } from '../../../components/session-checkout';
import { fill, formatTokenAmount, formatUsd } from '../../../lib/format';
import { isSessionId } from '../../../lib/ids';
import { invoicePath } from '../../../lib/paths';
import { loadSession } from '../../../lib/loaders';
import { messagesFor } from '../../../lib/messages';
import { localeQuery, pageLocale, requestLocale } from '../../../lib/request';
import type { PublicSession } from '../../../lib/types';

type Params = { params: Promise<{ id: string }> };
type PageProps = Params & { searchParams: Promise<{ error?: string | string[] }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  const loaded = isSessionId(id) ? await loadSession(id) : null;
  if (!loaded?.ok) return {};
  const m = messagesFor((await pageLocale(loaded.body.locale)).lang);
  const { product, invoice } = loaded.body;
  const name = product?.name ?? (invoice?.number ? fill(m.invoiceHeading, { number: invoice.number }) : null);
  return { title: name ? `${m.pageTitle}: ${name}` : m.pageTitle };
}

export default async function SessionPage({ params, searchParams }: PageProps) {
  const { id } = await params;
  if (!isSessionId(id)) notFound();
  const loaded = await loadSession(id);
  if (!loaded.ok) {
    if (loaded.status === 404) notFound();
    const m = messagesFor((await requestLocale()).lang);
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }
  const session = loaded.body;
  const locale = await pageLocale(session.locale);
  const m = messagesFor(locale.lang);
  // money contract › Invoices: the hosted page shows and pays invoice sessions (superseding the
  // spec's "cannot be displayed yet"): the invoice's number and amount head the page.
  const header = session.invoice ? (
    <ProductHeader
      name={session.invoice.number ? fill(m.invoiceHeading, { number: session.invoice.number }) : m.invoicePageTitle}
      description={null}
      imageUrl={null}
      total={{ label: m.total, value: formatUsd(session.invoice.amount, locale.tag) }}
    >
      <OrderLines lines={session.invoice.lineItems} locale={locale.tag} label={m.orderHeading} />
      <Reference session={session} label={m.referenceLabel} />
      <p className="leave no-print">
        <a href={invoicePath(session.invoice.publicId)} data-testid="back-to-invoice">
          {m.backToInvoice}
        </a>
      </p>
    </ProductHeader>
  ) : session.product ? (
    <ProductHeader
      name={session.product.name}
      description={session.product.description}
      imageUrl={session.product.imageUrl}
      total={headerTotal(session, locale.tag, m.total)}
    >
      <Reference session={session} label={m.referenceLabel} />
    </ProductHeader>
  ) : null;
  if (!header) return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;

  return (
    <BrandedMain branding={session.branding}>
      <BrandBar branding={session.branding} logoPath={`/logo/c/${encodeURIComponent(session.id)}`} />
      {header}
      <SessionCheckout
        session={session}
        serverNow={Date.now()}
        locale={locale.tag}
        m={m}
        initialError={(await searchParams).error === 'redeem' ? m.errorGeneric : null}
        localeQuery={await localeQuery()}
      />
      <SupportLinks branding={session.branding} m={m} />
    </BrandedMain>
  );
}

/** An invoice session's lines, so the buyer sees what the total is for. */
function OrderLines(props: {
  lines: NonNullable<PublicSession['invoice']>['lineItems'];
  locale: string;
  label: string;
}) {
  if (!props.lines?.length) return null;
  const count = new Intl.NumberFormat(props.locale);
  return (
    <table className="order-lines" data-testid="order-lines" aria-label={props.label}>
      <tbody>
        {props.lines.map((l, i) => (
          <tr key={i}>
            <td>
              {l.quantity !== 1 && `${count.format(l.quantity)} × `}
              {l.description}
            </td>
            <td className="num">{formatUsd(l.amount, props.locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The merchant's reference, present only when the merchant chose showReference. */
function Reference(props: { session: PublicSession; label: string }) {
  if (!props.session.reference) return null;
  return (
    <p className="reference" data-testid="reference">
      {props.label}: {props.session.reference}
    </p>
  );
}

/** One figure for the header: the locked USD amount (custom_amount), or the price when only one chain is offered. */
function headerTotal(s: PublicSession, locale: string, label: string): { label: string; value: string } | null {
  if (s.amount !== null) return { label, value: formatUsd(s.amount, locale) };
  // the payment details show the exact amount and token, and follow a change of chain (this header does not)
  if (s.payment) return null;
  const only = s.chains.length === 1 ? s.chains[0] : null;
  return only?.price ? { label, value: formatTokenAmount(only.price, only.token, locale) } : null;
}
