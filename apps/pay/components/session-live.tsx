'use client';
// The browser part of /c/<session_id> (docs/pages.md › Weight and speed): everything the buyer
// reads is rendered on the server (session-checkout.tsx); this island only polls the public
// session and asks for a fresh server render when it changed, takes over the no-script chain
// forms (so the API's refusal is shown in place), runs the change-of-chain and cancel toggles, and
// the return to the merchant after a final status.
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../lib/errors';
import type { Messages } from '../lib/messages';
import { sessionStamp } from '../lib/stamp';
import type { PublicSession } from '../lib/types';
import { useLive, usePolling } from './use-polling';

const POLL_MS = 3_000;

type Action = 'redeem' | 'cancel';

/** The texts the island shows itself (the rest of the page is server-rendered). */
export type IslandText =
  | 'errorGeneric'
  | 'loading'
  | 'changeNetwork'
  | 'keepNetwork'
  | 'cancel'
  | 'cancelYes'
  | 'cancelNo'
  | 'redirecting'
  | 'returnNow'
  | 'returnToShop'
  | 'stay';

export function SessionLive(props: {
  id: string;
  stamp: string;
  final: boolean;
  changeable: boolean;
  cancellable: boolean;
  /** set when the no-script redeem form came back refused (`?error=redeem`) */
  initialError: string | null;
  m: Pick<Messages, IslandText>;
  ariaLabelledBy?: string;
  status: ReactNode;
  /** shown while the polls fail */
  lost: ReactNode;
  /** the cancel confirmation's question (a <p id="cancel-question">) */
  cancelQuestion: ReactNode;
  picker: ReactNode;
  changePicker: ReactNode;
  details: ReactNode;
  tail: ReactNode;
  /** the signed return of a final status (spec: Signed return) */
  returnUrl: string | null;
}) {
  const { id, m, final } = props;
  const router = useRouter();
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(props.initialError);
  const [changing, setChanging] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  // after the buyer's own action, focus goes to its outcome: the new status (once the server's
  // render of it arrived) or the API's refusal
  const focus = useRef<'status' | 'error' | null>(null);
  const stamp = useRef(props.stamp);
  stamp.current = props.stamp;
  useEffect(() => {
    if (focus.current !== 'status') return;
    focus.current = null;
    document.getElementById('status-heading')?.focus();
  }, [props.stamp]);
  useEffect(() => {
    if (focus.current === 'error' && error) {
      focus.current = null;
      document.getElementById('session-error')?.focus();
    }
  }, [error]);

  const refresh = () => router.refresh();
  const failing = usePolling(
    async () => {
      const res = await fetch(`/api/sessions/${id}`, { cache: 'no-store' });
      if (!res.ok) throw res; // usePolling counts the failure
      if (sessionStamp((await res.json()) as PublicSession) !== stamp.current) refresh();
    },
    !final,
    POLL_MS,
  );
  const live = useLive();

  const act = async (action: Action, body: Record<string, string>) => {
    setBusy(action);
    setError(null);
    try {
      const res = await fetch(`/api/sessions/${id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: unknown = await res.json().catch(() => null);
      if (res.ok) {
        focus.current = 'status';
        setChanging(false);
        setConfirmingCancel(false);
      } else {
        // e.g. 409 "Funds have already been sent to this checkout, …": show it, then catch up
        focus.current = 'error';
        setError(errorMessage(json, m.errorGeneric));
      }
      refresh();
    } catch {
      setError(m.errorGeneric);
    } finally {
      setBusy(null);
    }
  };

  // A tap is never lost (docs/pages.md): the chain choice is a real form that posts without script
  // (app/c/[id]/redeem/route.ts); once hydrated, its submit (bubbling here) is taken over.
  const onSubmit = (e: FormEvent<HTMLElement>) => {
    e.preventDefault();
    const chain = ((e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
    if (chain && !busy) void act('redeem', { chain });
  };

  const changingNow = changing && props.changeable;
  const idle = busy === null;
  return (
    <section
      className="card"
      aria-labelledby={props.ariaLabelledBy}
      aria-busy={!idle}
      data-live={live || undefined}
      onSubmit={onSubmit}
    >
      {props.status}
      {failing && !final && props.lost}
      {props.picker}
      {changingNow && props.changePicker}
      {error && (
        <div className="alert" role="alert" tabIndex={-1} id="session-error" data-testid="error">
          {error}
        </div>
      )}
      {!changingNow && props.details}
      {!final && props.changeable && (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => setChanging(!changingNow)}
            aria-expanded={changingNow}
            disabled={!idle || !live}
          >
            {changingNow ? m.keepNetwork : m.changeNetwork}
          </button>
        </div>
      )}
      {props.cancellable && (
        <div className="actions">
          {!confirmingCancel ? (
            <button
              type="button"
              className="danger"
              onClick={() => setConfirmingCancel(true)}
              disabled={!idle || !live}
            >
              {m.cancel}
            </button>
          ) : (
            <div role="group" aria-labelledby="cancel-question" className="confirm">
              {props.cancelQuestion}
              <div className="actions">
                <button
                  type="button"
                  className="danger"
                  onClick={() => void act('cancel', {})}
                  disabled={!idle}
                  data-testid="cancel-yes"
                >
                  {busy === 'cancel' ? m.loading : m.cancelYes}
                </button>
                <button type="button" className="secondary" onClick={() => setConfirmingCancel(false)} disabled={!idle}>
                  {m.cancelNo}
                </button>
              </div>
            </div>
          )}
        </div>
      )}
      {props.tail}
      {final && props.returnUrl && <ReturnRedirect url={props.returnUrl} m={m} live={live} />}
    </section>
  );
}

/** spec: Signed return — after a final status the page sends the buyer back after 5 seconds. */
const REDIRECT_DELAY_MS = 5_000;

function ReturnRedirect({ url, m, live }: { url: string; m: Pick<Messages, IslandText>; live: boolean }) {
  const [stayed, setStayed] = useState(false);
  useEffect(() => {
    if (stayed) return;
    const timer = setTimeout(() => window.location.assign(url), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [url, stayed]);
  return (
    <div className="redirect" data-testid="redirect">
      {!stayed && <p role="status">{m.redirecting}</p>}
      <div className="actions">
        <a className="button" href={url} data-testid="return-link">
          {stayed ? m.returnToShop : m.returnNow}
        </a>
        {!stayed && (
          <button type="button" className="secondary" onClick={() => setStayed(true)} disabled={!live}>
            {m.stay}
          </button>
        )}
      </div>
    </div>
  );
}
