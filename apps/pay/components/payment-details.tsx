// Where and what to pay: the exact amount, the token and network, the address, the QR code,
// copy buttons, the warning, and the countdown to the payment's expiry. Rendered on the server on
// /c/<id> (only the copy buttons and the countdown run in the browser), in the island on /pay/<slug>.
import { amountToSend } from '../lib/amounts';
import { fill, formatTokenAmount, networkName } from '../lib/format';
import type { Messages } from '../lib/messages';
import type { Phase } from '../lib/phase';
import type { PaymentView } from '../lib/types';
import { walletRequest } from '../lib/wallet-uri';
import { CopyButton, Countdown } from './widgets';

export function PaymentDetails({
  payment: p,
  phase,
  m,
  locale,
  serverNow,
}: {
  payment: PaymentView;
  phase: Phase;
  m: Messages;
  locale: string;
  serverNow: number;
}) {
  const send = amountToSend(p);
  const wallet = walletRequest(p);
  const network = networkName(p.chain, p.network, m.testnet);
  return (
    <div className="details" data-testid="payment-details">
      <div>
        <p className="detail-label" id="amount-label">
          {phase === 'underpaid' ? m.sendRest : m.sendExactly}
        </p>
        <div className="copyable">
          <span className="amount-value" aria-labelledby="amount-label" data-testid="amount" data-amount={send.units}>
            {formatTokenAmount(send.units, p.token, locale)}
          </span>
          <CopyButton text={send.units} label={m.copyAmount} m={m} />
        </div>
        <p className="hint" data-testid="network">
          {m.networkLabel}: <strong>{network}</strong>
        </p>
      </div>
      <div>
        <p className="detail-label" id="address-label">
          {m.toAddress}
        </p>
        <div className="copyable">
          <code className="address" aria-labelledby="address-label" data-testid="address">
            {p.paymentAddress}
          </code>
          <CopyButton text={p.paymentAddress} label={m.copyAddress} m={m} />
        </div>
      </div>
      <div className="qr">
        {/* drawn on the server (app/qr/route.ts): no QR code library in the browser */}
        <img
          src={`/qr?text=${encodeURIComponent(wallet.qrText)}`}
          width={192}
          height={192}
          alt={wallet.uri ? m.qrAlt : m.qrAltAddress}
          data-testid="qr"
          data-qr-text={wallet.qrText}
          // Element Timing: bench:pay reads when the QR code was painted
          {...{ elementtiming: 'qr' }}
        />
        {wallet.uri && (
          <a className="button secondary no-print" href={wallet.uri} data-testid="wallet-link">
            {m.openWallet}
          </a>
        )}
      </div>
      <p className="warning" role="note" data-testid="warning">
        {fill(m.warning, { token: p.token, network })}
      </p>
      {phase === 'waiting' && <Countdown expiresAt={p.expiresAt} serverNow={serverNow} m={m} />}
    </div>
  );
}
