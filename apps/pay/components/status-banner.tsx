// The live status line (a polite live region: a change of state is announced once).
import type { ReactNode, Ref } from 'react';
import { amountDue, amountOver } from '../lib/amounts';
import { fill, formatTokenAmount, networkName } from '../lib/format';
import type { Messages } from '../lib/messages';
import { assertUnreachable, type Phase } from '../lib/phase';
import type { PaymentView } from '../lib/types';
import { LocalTime } from './widgets';

/** spec: Limits › session tail wait: an underpaid payment can be topped up for 7 days after its expiry. */
const TOP_UP_WINDOW_MS = 7 * 24 * 3600 * 1000;

type Tone = 'info' | 'ok' | 'warn' | 'bad';

export function StatusBanner(props: {
  phase: Phase;
  payment: PaymentView | null;
  late: boolean;
  m: Messages;
  locale: string;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const content = describe(props);
  return (
    <div role="status" aria-live="polite" data-testid="status" data-phase={props.phase}>
      {content && (
        <div className={`status ${content.tone}`}>
          <h2 id="status-heading" tabIndex={-1} ref={props.headingRef}>
            {content.title}
          </h2>
          {content.details.map((d, i) => (
            <p key={i}>{d}</p>
          ))}
        </div>
      )}
    </div>
  );
}

function describe({
  phase,
  payment: p,
  late,
  m,
  locale,
}: {
  phase: Phase;
  payment: PaymentView | null;
  late: boolean;
  m: Messages;
  locale: string;
}): {
  tone: Tone;
  title: string;
  details: ReactNode[];
} | null {
  const amount = (units: string) => (p ? formatTokenAmount(units, p.token, locale) : units);
  const lateNote = late ? [m.statusLate] : [];
  switch (phase) {
    case 'choose':
      return null;
    case 'waiting':
      return { tone: 'info', title: m.statusWaiting, details: [m.statusWaitingDetail] };
    case 'confirming':
      return {
        tone: 'info',
        title: m.statusConfirming,
        details: p
          ? [
              fill(m.statusConfirmingDetail, {
                received: amount(p.receivedAmount),
                network: networkName(p.chain, p.network, m.testnet),
              }),
            ]
          : [],
      };
    case 'underpaid': {
      const due = p && amountDue(p);
      if (!p || !due) return { tone: 'warn', title: m.statusWaiting, details: [] };
      const values = { due: amount(due.units), received: amount(p.receivedAmount), expected: amount(p.expectedAmount) };
      const until = new Date(Date.parse(p.expiresAt) + TOP_UP_WINDOW_MS).toISOString();
      const [before, after] = m.statusUnderpaidUntil.split('{date}');
      return {
        tone: 'warn',
        title: fill(m.statusUnderpaid, values),
        details: [
          fill(m.statusUnderpaidDetail, values),
          <>
            {before}
            <LocalTime iso={until} locale={locale} />
            {after}
          </>,
        ],
      };
    }
    case 'completed':
      return {
        tone: 'ok',
        title: m.statusCompleted,
        details: [...(p ? [fill(m.statusCompletedDetail, { received: amount(p.receivedAmount) })] : []), ...lateNote],
      };
    case 'overpaid': {
      const over = p && amountOver(p);
      return {
        tone: 'ok',
        title: m.statusOverpaid,
        details: [
          ...(p && over
            ? [
                fill(m.statusOverpaidDetail, {
                  received: amount(p.receivedAmount),
                  over: amount(over),
                  expected: amount(p.expectedAmount),
                }),
              ]
            : []),
          ...lateNote,
        ],
      };
    }
    case 'expired':
      return { tone: 'bad', title: m.statusExpired, details: [m.statusExpiredDetail] };
    case 'cancelled':
      return { tone: 'bad', title: m.statusCancelled, details: [m.statusCancelledDetail] };
    case 'failed': {
      const detail =
        p?.status === 'refunded'
          ? m.statusFailedRefunded
          : p?.status === 'underpaid'
            ? fill(m.statusFailedUnderpaid, { received: amount(p.receivedAmount), expected: amount(p.expectedAmount) })
            : null;
      return { tone: 'bad', title: m.statusFailed, details: detail ? [detail] : [] };
    }
    case 'refunded':
      return { tone: 'bad', title: m.statusRefunded, details: [] };
    default:
      return assertUnreachable(phase);
  }
}
