// /r/<id>: the printable receipt page (money contract › Receipts: `url` = {PAY_URL}/r/<id>, a
// printable page with a print stylesheet, no PDF endpoint). Rendered on the server from
// GET /v1/public/receipts/:id, which carries no reference and no merchantId; the workspace's name
// says who issued it. Transaction hashes are shown whole, as text (not links: no explorer is
// assumed), so a printed receipt can be checked against the chain.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BrandBar, BrandedMain, SupportLinks } from '../../../components/brand';
import { Notice } from '../../../components/notice';
import { PrintButton } from '../../../components/print-button';
import { formatDateTime, formatTokenAmount, formatUnits, fill, networkName } from '../../../lib/format';
import { isReceiptId } from '../../../lib/ids';
import { loadReceipt } from '../../../lib/loaders';
import { messagesFor, type Messages } from '../../../lib/messages';
import { requestLocale } from '../../../lib/request';
import type { DocumentKind } from '../../../lib/types';

type Params = { params: Promise<{ id: string }> };

function titleOf(kind: DocumentKind, m: Messages): string {
  switch (kind) {
    case 'receipt':
      return m.receiptTitle;
    case 'supplement':
      return m.supplementTitle;
    case 'credit_note':
      return m.creditNoteTitle;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  const loaded = isReceiptId(id) ? await loadReceipt(id) : null;
  const m = messagesFor((await requestLocale()).lang);
  return { title: loaded?.ok ? `${titleOf(loaded.body.kind, m)} ${loaded.body.number}` : m.receiptTitle };
}

export default async function ReceiptPage({ params }: Params) {
  const { id } = await params;
  if (!isReceiptId(id)) notFound();
  const locale = await requestLocale();
  const m = messagesFor(locale.lang);
  const loaded = await loadReceipt(id);
  if (!loaded.ok) {
    if (loaded.status === 404) notFound();
    return <Notice title={m.unavailableTitle} detail={m.unavailableDetail} tone="bad" />;
  }
  const r = loaded.body;
  const tag = locale.tag;
  const money = (units: string) => formatTokenAmount(units, r.token, tag);
  const network = networkName(r.chain, r.network, m.testnet);

  return (
    <BrandedMain branding={r.branding} className="page document" testId="receipt">
      <BrandBar branding={r.branding} logoPath={`/logo/r/${encodeURIComponent(r.id)}`} />
      <article className="card">
        <header className="document-head">
          <div>
            <p className="muted">{m.issuedBy}</p>
            <p className="merchant" data-testid="merchant">
              {r.merchantName}
            </p>
          </div>
          <div className="document-title">
            <h1 data-testid="kind">{titleOf(r.kind, m)}</h1>
            <p className="document-number" data-testid="number">
              {r.number}
            </p>
          </div>
        </header>

        <dl className="facts">
          <div>
            <dt>{m.documentNumber}</dt>
            <dd>{r.number}</dd>
          </div>
          {r.reference && (
            <div>
              <dt>{m.referenceLabel}</dt>
              <dd data-testid="reference">{r.reference}</dd>
            </div>
          )}
          <div>
            <dt>{m.documentDate}</dt>
            <dd data-testid="date">
              <time dateTime={r.issuedAt}>{formatDateTime(r.issuedAt, tag, 'UTC')}</time>
            </dd>
          </div>
          <div>
            <dt>{m.networkLabel}</dt>
            <dd data-testid="network">{network}</dd>
          </div>
          <div>
            <dt>{m.paymentIdLabel}</dt>
            <dd className="mono">{r.paymentId}</dd>
          </div>
        </dl>

        <p className="document-amount">
          <span>{m.documentAmount}</span>
          <strong data-testid="amount" data-amount={r.amount}>
            {money(r.amount)}
          </strong>
        </p>
        <p className="muted">{fill(m.receiptAmountNote, { token: r.token, network })}</p>

        <h2>{m.transactionsHeading}</h2>
        <ul className="transactions" data-testid="transactions">
          {r.transactions.map((t) => (
            <li key={`${t.txHash}:${t.logIndex}`}>
              <span className="detail-label">{m.transactionHash}</span>
              <span className="hash" data-testid="tx-hash">
                {t.txHash}
              </span>
              <span className="tx-meta">
                {m.blockNumber} {formatUnits(t.blockNumber, tag)} · {money(t.amount)}
              </span>
            </li>
          ))}
        </ul>

        <h2>{m.totalsHeading}</h2>
        <dl className="totals" data-testid="totals">
          <div>
            <dt>{m.totalReceived}</dt>
            <dd data-testid="total-received">{money(r.totals.received)}</dd>
          </div>
          <div>
            <dt>{m.totalRefunded}</dt>
            <dd data-testid="total-refunded">{money(r.totals.refunded)}</dd>
          </div>
          <div className="net">
            <dt>{m.totalNet}</dt>
            <dd data-testid="total-net">{money(r.totals.net)}</dd>
          </div>
        </dl>

        <div className="actions no-print">
          <PrintButton label={m.print} />
        </div>
      </article>
      <SupportLinks branding={r.branding} m={m} />
    </BrandedMain>
  );
}
