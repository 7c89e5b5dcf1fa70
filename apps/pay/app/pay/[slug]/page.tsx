// /pay/<slug>: the payment link (spec: Endpoints › Payment link (public)). Without `?payment=` the
// product with its chain picker (and amount field on custom_amount); with it, that payment followed
// through the public payment projection. A legacy subscription product (410) and an archived one
// ("no longer available") are answered by middleware.ts before this page runs.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LinkForm, LinkPayment } from '../../../components/link-checkout';
import { BrandBar, BrandedMain, SupportLinks } from '../../../components/brand';
import { Notice } from '../../../components/notice';
import { ProductHeader } from '../../../components/product-header';
import { formatTokenAmount } from '../../../lib/format';
import { isPaymentId, isSlug } from '../../../lib/ids';
import { loadLinkPayment, loadLinkRail, loadProduct } from '../../../lib/loaders';
import { messagesFor } from '../../../lib/messages';
import { randomUUID } from 'node:crypto';
import { localeQuery, requestLocale } from '../../../lib/request';
import { linkPayment, type PublicProduct } from '../../../lib/types';

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ payment?: string | string[]; error?: string | string[] }>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const loaded = isSlug(slug) ? await loadProduct(slug) : null;
  const m = messagesFor((await requestLocale()).lang);
  return { title: loaded?.ok ? `${m.linkTitle}: ${loaded.body.name}` : m.linkTitle };
}

export default async function PaymentLinkPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const query = await searchParams;
  const paymentParam = query.payment;
  const paymentId = typeof paymentParam === 'string' ? paymentParam : undefined;
  if (!isSlug(slug) || (paymentParam !== undefined && (!paymentId || !isPaymentId(paymentId)))) notFound();

  const locale = await requestLocale();
  const m = messagesFor(locale.lang);
  const [product, payment, rail] = await Promise.all([
    loadProduct(slug),
    // checked against the slug by the API: another product's payment is the 404 page
    paymentId ? loadLinkPayment(slug, paymentId) : null,
    paymentId ? loadLinkRail(slug, paymentId) : null,
  ]);

  if (!product.ok) {
    // Gone products are normally answered by middleware.ts; these cover a change in between.
    if (product.status === 410) return <Notice title={m.goneTitle} detail={m.goneDetail} />;
    if (product.status === 404) {
      if (/no longer available/.test(String(product.body?.message ?? '')))
        return <Notice title={m.archivedTitle} detail={m.archivedDetail} />;
      notFound();
    }
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }

  if (payment && !payment.ok) {
    if (payment.status === 404) notFound();
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }

  const p = product.body;
  return (
    <BrandedMain branding={p.branding}>
      <BrandBar branding={p.branding} logoPath={`/logo/pay/${encodeURIComponent(slug)}`} />
      <ProductHeader
        name={p.name}
        description={p.description}
        imageUrl={p.imageUrl}
        total={payment ? null : fixedTotal(p, locale.tag, m.total)}
      />
      {payment?.ok ? (
        <LinkPayment
          initial={linkPayment(payment.body, rail?.ok ? rail.body : null)}
          slug={slug}
          serverNow={Date.now()}
          locale={locale.tag}
          m={m}
        />
      ) : (
        <LinkForm
          product={p}
          locale={locale.tag}
          m={m}
          idempotencyKey={randomUUID()}
          initialError={query.error === 'amount' ? 'amount' : query.error === 'failed' ? 'failed' : null}
          localeQuery={await localeQuery()}
        />
      )}
      <SupportLinks branding={p.branding} m={m} />
    </BrandedMain>
  );
}

function fixedTotal(p: PublicProduct, locale: string, label: string): { label: string; value: string } | null {
  const only = p.networks.length === 1 ? p.networks[0] : null;
  return p.pricingMode === 'fixed' && only?.price
    ? { label, value: formatTokenAmount(only.price, only.token, locale) }
    : null;
}
