'use client';
// The interactive part of /pay/<slug> (spec: Endpoints › Payment link): pick a chain (and an
// amount on a custom_amount product), create the payment, then follow it by its id.
import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { normalizeUsdInput } from '../lib/amounts';
import { errorMessage } from '../lib/errors';
import { fill, formatTokenAmount, formatUsd, networkName } from '../lib/format';
import type { Messages } from '../lib/messages';
import { isFinal, paymentPhase } from '../lib/phase';
import type { ApiError, PaymentView, PublicPayment, PublicProduct } from '../lib/types';
import { PaymentDetails } from './payment-details';
import { StatusBanner } from './status-banner';
import { useLive, usePolling } from './use-polling';

const POLL_MS = 3_000;

/**
 * A real form (docs/pages.md › A tap is never lost): without script it posts to
 * /pay/<slug>/checkout (app/pay/[slug]/checkout/route.ts), which answers 303 to the payment; once
 * hydrated the submit is taken over here (validation next to the field, no reload).
 */
export function LinkForm({
  product,
  locale,
  m,
  idempotencyKey,
  initialError = null,
  localeQuery = '',
}: {
  product: PublicProduct;
  locale: string;
  m: Messages;
  /** one key per page view, made by the server: a double submit answers the same payment (spec: idempotencyKey) */
  idempotencyKey: string;
  /** what the no-script form came back with */
  initialError?: 'amount' | 'failed' | null;
  localeQuery?: string;
}) {
  const rows = product.networks.filter((r, i, all) => all.findIndex((x) => x.chain === r.chain) === i);
  const custom = product.pricingMode === 'custom_amount';
  const [chain, setChain] = useState(rows[0]?.chain ?? '');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(initialError === 'amount' ? m.amountFormat : null);
  const [formError, setFormError] = useState<string | null>(initialError === 'failed' ? m.errorGeneric : null);
  const [busy, setBusy] = useState(false);
  const amountInput = useRef<HTMLInputElement>(null);
  const live = useLive();
  const ids = useId();
  const hintId = `${ids}-hint`;
  const errorId = `${ids}-error`;

  const bounds =
    custom && product.minAmount
      ? product.maxAmount
        ? fill(m.amountBounds, { min: formatUsd(product.minAmount, locale), max: formatUsd(product.maxAmount, locale) })
        : fill(m.amountMin, { min: formatUsd(product.minAmount, locale) })
      : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setAmountError(null);
    setFormError(null);
    const body: Record<string, string> = { chain, idempotencyKey };
    if (custom) {
      const value = normalizeUsdInput(amount);
      if (value === '') {
        setAmountError(m.amountFormat);
        amountInput.current?.focus();
        return;
      }
      body.amount = value;
      // the key is scoped by chain and amount on the API side, so a corrected amount is a new payment
    }
    setBusy(true);
    try {
      const res = await fetch(`/api/products/${encodeURIComponent(product.slug)}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: unknown = await res.json().catch(() => null);
      if (res.ok) {
        const payment = (json as { payment: PublicPayment }).payment;
        // the buyer's ?locale= choice stays with the page
        const locale = new URLSearchParams(window.location.search).get('locale');
        window.location.assign(
          `/pay/${encodeURIComponent(product.slug)}?payment=${payment.id}${locale ? `&locale=${encodeURIComponent(locale)}` : ''}`,
        );
        return;
      }
      const err = json as ApiError | null;
      if (custom && res.status === 400 && isAmountError(err)) {
        setAmountError(amountErrorText(err, m, locale));
        amountInput.current?.focus();
      } else {
        setFormError(errorMessage(json, m.errorGeneric));
      }
    } catch {
      setFormError(m.errorGeneric);
    }
    setBusy(false);
  };

  return (
    <form
      className="card"
      method="post"
      action={`/pay/${encodeURIComponent(product.slug)}/checkout${localeQuery}`}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-busy={busy}
      data-live={live || undefined}
    >
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <fieldset>
        <legend>{m.payWith}</legend>
        {rows.map((r) => (
          <label className="radio" key={r.chain}>
            <input
              type="radio"
              name="chain"
              value={r.chain}
              checked={chain === r.chain}
              onChange={() => setChain(r.chain)}
            />
            <span>
              {fill(m.tokenOn, { token: r.token, network: networkName(r.chain, product.network, m.testnet) })}
            </span>
            {r.price && <span className="price">{formatTokenAmount(r.price, r.token, locale)}</span>}
          </label>
        ))}
      </fieldset>
      {custom && (
        <div style={{ marginBottom: '1rem' }}>
          <label className="field" htmlFor={`${ids}-amount`}>
            {m.amountLabel}
          </label>
          <input
            ref={amountInput}
            id={`${ids}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={amountError !== null}
            aria-describedby={amountError ? `${errorId} ${hintId}` : hintId}
            data-testid="amount-input"
          />
          {amountError && (
            <p className="field-error" id={errorId} role="alert" data-testid="amount-error">
              {amountError}
            </p>
          )}
          <p className="hint" id={hintId}>
            {[bounds, m.amountCharged].filter(Boolean).join(' ')}
          </p>
        </div>
      )}
      {formError && (
        <div className="alert" role="alert" data-testid="error">
          {formError}
        </div>
      )}
      <button type="submit" disabled={busy || !chain} data-testid="continue">
        {busy ? m.loading : m.continue}
      </button>
    </form>
  );
}

/** A 400 about the amount: the bound fields (out of bounds) or a message naming `amount`. */
function isAmountError(err: ApiError | null): err is ApiError {
  if (!err) return false;
  if (err.minAmount !== undefined || err.maxAmount !== undefined) return true;
  const text = Array.isArray(err.message) ? err.message.join(' ') : err.message;
  return /\bamount\b/.test(text);
}

/** Out of bounds: said in the page's language with the API's own bounds; otherwise the API's message. */
function amountErrorText(err: ApiError, m: Messages, locale: string): string {
  if (err.minAmount && err.maxAmount)
    return fill(m.amountOutOfBounds, { min: formatUsd(err.minAmount, locale), max: formatUsd(err.maxAmount, locale) });
  if (err.minAmount) return fill(m.amountBelowMin, { min: formatUsd(err.minAmount, locale) });
  return errorMessage(err, m.amountFormat);
}

/** The payment made through the link, followed by its id. */
export function LinkPayment({
  initial,
  slug,
  serverNow,
  locale,
  m,
}: {
  initial: PaymentView;
  slug: string;
  serverNow: number;
  locale: string;
  m: Messages;
}) {
  const [payment, setPayment] = useState(initial);
  const phase = paymentPhase(payment.status);
  const final = isFinal(phase);
  const heading = useRef<HTMLHeadingElement>(null);

  const poll = useCallback(async () => {
    const res = await fetch(`/api/products/${encodeURIComponent(slug)}/payments/${payment.id}`, { cache: 'no-store' });
    if (!res.ok) throw new Error(`poll answered ${res.status}`);
    const next = (await res.json()) as PublicPayment;
    // the rail (chain id, token contract, decimals) never changes; amounts and status do
    setPayment((prev) => ({
      ...prev,
      receivedAmount: next.receivedAmount,
      status: next.status,
      expiresAt: next.expiresAt,
    }));
  }, [payment.id, slug]);
  const failing = usePolling(poll, !final, POLL_MS);
  const live = useLive();

  return (
    <section className="card" data-live={live || undefined}>
      <StatusBanner phase={phase} payment={payment} late={false} m={m} locale={locale} headingRef={heading} />
      {failing && !final && (
        <p className="muted" role="status">
          {m.connectionLost}
        </p>
      )}
      {(phase === 'waiting' || phase === 'underpaid') && (
        <PaymentDetails payment={payment} phase={phase} m={m} locale={locale} serverNow={serverNow} />
      )}
      {(phase === 'waiting' || phase === 'expired') && (
        <div className="actions">
          <a className="button secondary" href={`/pay/${encodeURIComponent(slug)}`} data-testid="start-over">
            {m.startOver}
          </a>
        </div>
      )}
    </section>
  );
}
