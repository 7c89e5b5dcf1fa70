// /c/<session_id> below the order: the status, the chain picker (redeem), the payment details and
// the signed return, rendered on the server; SessionLive (the small browser island) polls for
// changes, takes over the chain forms, and runs change of chain (spec: Redeem chain-change rules)
// and cancel. docs/pages.md › Weight and speed: the island is kept small, what can be drawn on the
// server is drawn there.
import { fill, formatTokenAmount, networkName } from '../lib/format';
import type { Messages } from '../lib/messages';
import { canCancel, canChangeChain, isFinal, sessionPhase } from '../lib/phase';
import { sessionStamp } from '../lib/stamp';
import { sessionPayment, type NetworkRow, type PublicSession } from '../lib/types';
import { PaymentDetails } from './payment-details';
import { SessionLive } from './session-live';
import { StatusBanner } from './status-banner';

export function SessionCheckout({
  session,
  serverNow,
  locale,
  m,
  initialError = null,
  localeQuery = '',
}: {
  session: PublicSession;
  serverNow: number;
  locale: string;
  m: Messages;
  /** set when the no-script redeem form came back refused (`?error=redeem`) */
  initialError?: string | null;
  /** `?locale=…` to keep on the no-script form's redirect */
  localeQuery?: string;
}) {
  const phase = sessionPhase(session);
  const final = isFinal(phase);
  const payment = sessionPayment(session);
  // A tap is never lost (docs/pages.md): the chain choice is a real form that posts without script
  // (app/c/[id]/redeem/route.ts); once hydrated, SessionLive takes the submit over.
  const redeemAction = `/c/${encodeURIComponent(session.id)}/redeem${localeQuery}`;
  const pinned =
    session.pinnedChain !== null ? (session.chains.find((r) => r.chain === session.pinnedChain) ?? null) : null;
  // the change is offered only while nothing has arrived; a poll may end that at any time
  const changeable = !final && phase !== 'choose' && canChangeChain(session);

  const picker =
    phase !== 'choose' ? null : pinned ? (
      <>
        <h2 id="choose-heading">
          {fill(m.pinnedHeading, {
            token: pinned.token,
            network: networkName(pinned.chain, session.network, m.testnet),
          })}
        </h2>
        <form method="post" action={redeemAction}>
          <button type="submit" name="chain" value={pinned.chain} data-testid="show-address">
            {m.showAddress}
          </button>
        </form>
      </>
    ) : (
      <>
        <h2 id="choose-heading">{m.chooseHeading}</h2>
        <p className="muted">{m.chooseHint}</p>
        <form method="post" action={redeemAction}>
          <ChainOptions rows={pickable(session.chains)} network={session.network} locale={locale} m={m} />
        </form>
      </>
    );
  const changePicker =
    changeable && !pinned ? (
      <>
        <h2 id="choose-heading">{m.changeNetwork}</h2>
        <form method="post" action={redeemAction}>
          <ChainOptions
            rows={pickable(session.chains).filter((r) => r.chain !== payment?.chain)}
            network={session.network}
            locale={locale}
            m={m}
          />
        </form>
      </>
    ) : null;

  return (
    <SessionLive
      id={session.id}
      stamp={sessionStamp(session)}
      final={final}
      changeable={changeable}
      cancellable={canCancel(session)}
      initialError={initialError}
      m={{
        errorGeneric: m.errorGeneric,
        loading: m.loading,
        changeNetwork: m.changeNetwork,
        keepNetwork: m.keepNetwork,
        cancel: m.cancel,
        cancelYes: m.cancelYes,
        cancelNo: m.cancelNo,
        redirecting: m.redirecting,
        returnNow: m.returnNow,
        returnToShop: m.returnToShop,
        stay: m.stay,
      }}
      ariaLabelledBy={phase === 'choose' ? 'choose-heading' : undefined}
      lost={
        <p className="muted" role="status">
          {m.connectionLost}
        </p>
      }
      cancelQuestion={<p id="cancel-question">{m.cancelConfirm}</p>}
      status={<StatusBanner phase={phase} payment={payment} late={session.late} m={m} locale={locale} />}
      picker={picker}
      changePicker={changePicker}
      details={
        payment &&
        (phase === 'waiting' || phase === 'underpaid') && (
          <PaymentDetails payment={payment} phase={phase} m={m} locale={locale} serverNow={serverNow} />
        )
      }
      tail={
        !final &&
        session.returnUrl && (
          <p className="leave">
            <a href={session.returnUrl} data-testid="pay-later">
              {m.payLater}
            </a>
          </p>
        )
      }
      returnUrl={session.returnUrl}
    />
  );
}

/**
 * One option per chain, in the product's order: redeem takes a chain only, so a second row of the
 * same chain could not be chosen (docs/api-guide.md › Choices: products name registered chains only).
 */
function pickable(rows: NetworkRow[]): NetworkRow[] {
  return rows.filter((r, i) => rows.findIndex((x) => x.chain === r.chain) === i);
}

function ChainOptions(props: { rows: NetworkRow[]; network: string; locale: string; m: Messages }) {
  const { rows, network, locale, m } = props;
  return (
    <ul className="options" data-testid="chains">
      {rows.map((r) => (
        <li key={r.chain}>
          <button type="submit" name="chain" value={r.chain} className="option" data-chain={r.chain}>
            <span>{fill(m.tokenOn, { token: r.token, network: networkName(r.chain, network, m.testnet) })}</span>
            {r.price && <span className="price">{formatTokenAmount(r.price, r.token, locale)}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
