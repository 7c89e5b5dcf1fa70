// /c/<session_id>: the hosted checkout page (spec: Checkout session; docs/pages.md). Rendered on the server from GET /v1/public/checkout/sessions/:id; the interactive part
// (chain picker, payment details, live status, cancel, return) is the SessionCheckout island.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { Notice } from '../../../components/notice';
import { ProductHeader } from '../../../components/product-header';
import { SessionCheckout } from '../../../components/session-checkout';
import { fill, formatTokenAmount, formatUsd } from '../../../lib/format';
import { isSessionId } from '../../../lib/ids';
import { invoicePath } from '../../../lib/paths';
import { loadSession } from '../../../lib/loaders';
import { messagesFor, resolveLocale } from '../../../lib/messages';
import { requestLocale } from '../../../lib/request';
import type { PublicSession } from '../../../lib/types';

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  const loaded = isSessionId(id) ? await loadSession(id) : null;
  if (!loaded?.ok) return {};
  const m = messagesFor(resolveLocale(loaded.body.locale, (await headers()).get('accept-language')).lang);
  const { product, invoice } = loaded.body;
  const name = product?.name ?? (invoice?.number ? fill(m.invoiceHeading, { number: invoice.number }) : null);
  return { title: name ? `${m.pageTitle}: ${name}` : m.pageTitle };
}

export default async function SessionPage({ params }: Params) {
  const { id } = await params;
  if (!isSessionId(id)) notFound();
  const loaded = await loadSession(id);
  if (!loaded.ok) {
    if (loaded.status === 404) notFound();
    const m = messagesFor((await requestLocale()).lang);
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }
  const session = loaded.body;
  const locale = resolveLocale(session.locale, (await headers()).get('accept-language'));
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
    />
  ) : null;
  if (!header) return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;

  return (
    <main className="page">
      {header}
      <SessionCheckout initial={session} serverNow={Date.now()} locale={locale.tag} m={m} />
    </main>
  );
}

/** One figure for the header: the locked USD amount (custom_amount), or the price when only one chain is offered. */
function headerTotal(s: PublicSession, locale: string, label: string): { label: string; value: string } | null {
  if (s.amount !== null) return { label, value: formatUsd(s.amount, locale) };
  if (s.payment) return null; // the payment details show the exact amount
  const only = s.chains.length === 1 ? s.chains[0] : null;
  return only?.price ? { label, value: formatTokenAmount(only.price, only.token, locale) } : null;
}
