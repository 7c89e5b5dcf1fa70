'use client';
// The interactive part of /c/<session_id>: chain picker (redeem), payment details, live status by
// polling, change of chain (spec: Redeem chain-change rules), cancel, and the signed return.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../lib/errors';
import { fill, formatTokenAmount, networkName } from '../lib/format';
import { clockOffsetFrom } from '../lib/clock';
import type { Messages } from '../lib/messages';
import { canCancel, canChangeChain, isFinal, sessionPhase } from '../lib/phase';
import { sessionPayment, type NetworkRow, type PublicSession } from '../lib/types';
import { PaymentDetails } from './payment-details';
import { StatusBanner } from './status-banner';
import { useLive, usePolling } from './use-polling';
import { ReturnRedirect } from './widgets';

const POLL_MS = 3_000;

type Action = 'redeem' | 'cancel';

export function SessionCheckout({
  initial,
  serverNow,
  locale,
  m,
  initialError = null,
  localeQuery = '',
}: {
  initial: PublicSession;
  serverNow: number;
  locale: string;
  m: Messages;
  /** set when the no-script redeem form came back refused (`?error=redeem`) */
  initialError?: string | null;
  /** `?locale=…` to keep on the no-script form's redirect */
  localeQuery?: string;
}) {
  const [session, setSession] = useState(initial);
  const [clockOffset] = useState(() => clockOffsetFrom(serverNow));
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(initialError);
  const [changing, setChanging] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // a poll that started before an action must not overwrite the action's answer
  const generation = useRef(0);
  // after the buyer's own action, focus goes to its outcome (the new status, or the API's refusal)
  const focusStatus = useRef(false);
  const focusError = useRef(false);
  useEffect(() => {
    if (focusStatus.current) {
      focusStatus.current = false;
      heading.current?.focus();
    }
  }, [session]);
  useEffect(() => {
    if (focusError.current && error) {
      focusError.current = false;
      errorRef.current?.focus();
    }
  }, [error]);

  const phase = sessionPhase(session);
  const final = isFinal(phase);
  const payment = sessionPayment(session);

  const poll = useCallback(async () => {
    const started = generation.current;
    const res = await fetch(`/api/sessions/${session.id}`, { cache: 'no-store' });
    if (!res.ok) throw new Error(`poll answered ${res.status}`);
    const next = (await res.json()) as PublicSession;
    if (generation.current === started) setSession(next);
  }, [session.id]);
  const failing = usePolling(poll, !final, POLL_MS);
  const live = useLive();

  const act = async (action: Action, body: Record<string, string> = {}) => {
    generation.current += 1;
    setBusy(action);
    setError(null);
    try {
      const res = await fetch(`/api/sessions/${session.id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: unknown = await res.json().catch(() => null);
      generation.current += 1; // nor one that started while the action ran
      if (res.ok) {
        focusStatus.current = true;
        setSession(json as PublicSession);
        setChanging(false);
        setConfirmingCancel(false);
      } else {
        // e.g. 409 "Funds have already been sent to this checkout, …": show it, then catch up
        focusError.current = true;
        setError(errorMessage(json, m.errorGeneric));
        void poll().catch(() => undefined);
      }
    } catch {
      setError(m.errorGeneric);
    } finally {
      setBusy(null);
    }
  };

  // A tap is never lost (docs/pages.md): the chain choice is a real form that posts without script
  // (app/c/[id]/redeem/route.ts); once hydrated, the submit is taken over here. Controls that only
  // work with script are disabled (visibly) until the island is live.
  const redeemAction = `/c/${encodeURIComponent(session.id)}/redeem${localeQuery}`;
  const onRedeemSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const chain = submitter?.value ?? '';
    if (chain) void act('redeem', { chain });
  };

  const pinned =
    session.pinnedChain !== null ? (session.chains.find((r) => r.chain === session.pinnedChain) ?? null) : null;
  // the change is offered only while nothing has arrived; a poll may end that at any time
  const changeable = canChangeChain(session);
  const changingNow = changing && changeable;
  const showPicker = phase === 'choose' || changingNow;

  return (
    <>
      <section
        className="card"
        aria-labelledby={phase === 'choose' ? 'choose-heading' : undefined}
        aria-busy={busy !== null}
        data-live={live || undefined}
      >
        <StatusBanner phase={phase} payment={payment} late={session.late} m={m} locale={locale} headingRef={heading} />
        {failing && !final && (
          <p className="muted" role="status">
            {m.connectionLost}
          </p>
        )}

        {phase === 'choose' && pinned && (
          <>
            <h2 id="choose-heading">
              {fill(m.pinnedHeading, {
                token: pinned.token,
                network: networkName(pinned.chain, session.network, m.testnet),
              })}
            </h2>
            <form method="post" action={redeemAction} onSubmit={onRedeemSubmit}>
              <button
                type="submit"
                name="chain"
                value={pinned.chain}
                disabled={busy !== null}
                data-testid="show-address"
              >
                {busy === 'redeem' ? m.loading : m.showAddress}
              </button>
            </form>
          </>
        )}

        {showPicker && !pinned && (
          <>
            <h2 id="choose-heading">{phase === 'choose' ? m.chooseHeading : m.changeNetwork}</h2>
            {phase === 'choose' && <p className="muted">{m.chooseHint}</p>}
            <form method="post" action={redeemAction} onSubmit={onRedeemSubmit}>
              <ChainOptions
                rows={pickable(session.chains).filter((r) => r.chain !== payment?.chain)}
                network={session.network}
                locale={locale}
                m={m}
                disabled={busy !== null}
              />
            </form>
          </>
        )}

        {error && (
          <div className="alert" role="alert" tabIndex={-1} ref={errorRef} data-testid="error">
            {error}
          </div>
        )}

        {payment && (phase === 'waiting' || phase === 'underpaid') && !changingNow && (
          <PaymentDetails payment={payment} phase={phase} m={m} locale={locale} clockOffset={clockOffset} />
        )}

        {!final && phase !== 'choose' && changeable && (
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() => setChanging(!changingNow)}
              aria-expanded={changingNow}
              disabled={busy !== null || !live}
            >
              {changingNow ? m.keepNetwork : m.changeNetwork}
            </button>
          </div>
        )}

        {canCancel(session) && (
          <div className="actions">
            {!confirmingCancel ? (
              <button
                type="button"
                className="danger"
                onClick={() => setConfirmingCancel(true)}
                disabled={busy !== null || !live}
              >
                {m.cancel}
              </button>
            ) : (
              <div role="group" aria-labelledby="cancel-question" className="confirm">
                <p id="cancel-question">{m.cancelConfirm}</p>
                <div className="actions">
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void act('cancel')}
                    disabled={busy !== null}
                    data-testid="cancel-yes"
                  >
                    {busy === 'cancel' ? m.loading : m.cancelYes}
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setConfirmingCancel(false)}
                    disabled={busy !== null}
                  >
                    {m.cancelNo}
                  </button>
                </div>
              </div>
            )}
          </div>
        )}

        {!final && session.returnUrl && (
          <p className="leave">
            <a href={session.returnUrl} data-testid="pay-later">
              {m.payLater}
            </a>
          </p>
        )}

        {final && session.returnUrl && <ReturnRedirect url={session.returnUrl} m={m} />}
      </section>
    </>
  );
}

/**
 * One option per chain, in the product's order: redeem takes a chain only, so a second row of the
 * same chain could not be chosen (docs/api-guide.md › Choices: products name registered chains only).
 */
function pickable(rows: NetworkRow[]): NetworkRow[] {
  return rows.filter((r, i) => rows.findIndex((x) => x.chain === r.chain) === i);
}

function ChainOptions(props: { rows: NetworkRow[]; network: string; locale: string; m: Messages; disabled: boolean }) {
  const { rows, network, locale, m } = props;
  return (
    <ul className="options" data-testid="chains">
      {rows.map((r) => (
        <li key={r.chain}>
          <button
            type="submit"
            name="chain"
            value={r.chain}
            className="option"
            disabled={props.disabled}
            data-chain={r.chain}
          >
            <span>{fill(m.tokenOn, { token: r.token, network: networkName(r.chain, network, m.testnet) })}</span>
            {r.price && <span className="price">{formatTokenAmount(r.price, r.token, locale)}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
