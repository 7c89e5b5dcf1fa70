'use client';
// Small interactive pieces of the payment view: copy buttons, the expiry countdown, local times.
import { useEffect, useRef, useState } from 'react';
import { clockOffsetFrom } from '../lib/clock';
import { fill, formatCountdown, formatDateTime } from '../lib/text';
import type { Messages } from '../lib/messages';
import { crossedMilestone, milestoneOf } from '../lib/milestones';
import { useLive } from './use-polling';

export function CopyButton({ text, label, m }: { text: string; label: string; m: Messages }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  // copying needs the script: disabled (visibly) until it runs, so a tap is never swallowed
  const live = useLive();
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState(legacyCopy(text) ? 'copied' : 'failed');
    }
  };
  return (
    <>
      <button
        type="button"
        className="secondary small"
        onClick={() => void copy()}
        // the visible word is part of the name in every state (WCAG 2.5.3; axe label-content-name-mismatch)
        aria-label={state === 'copied' ? `${m.copied}: ${label}` : label}
        disabled={!live}
      >
        {state === 'copied' ? m.copied : m.copy}
      </button>
      <span className="sr-only" role="status">
        {state === 'copied' ? m.copied : state === 'failed' ? m.copyFailed : ''}
      </span>
    </>
  );
}

/** Clipboard API missing (plain http on another host, old browsers): the selection route. */
function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.style.cssText = 'position:fixed;opacity:0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Time left until `expiresAt` by the server's clock (`serverNow` = the server's time when it
 * rendered, so a phone with a wrong clock still counts right). Screen readers hear the milestones only.
 */
export function Countdown({ expiresAt, serverNow, m }: { expiresAt: string; serverNow: number; m: Messages }) {
  const end = Date.parse(expiresAt);
  // server time − this device's time, taken once (a later server render must not move the count)
  const [clockOffset] = useState(() => clockOffsetFrom(serverNow, Date.now()));
  const [now, setNow] = useState(() => Date.now() + clockOffset);
  const [announcement, setAnnouncement] = useState('');
  const milestone = useRef<number | null>(null);
  useEffect(() => {
    const tick = () => {
      const t = Date.now() + clockOffset;
      setNow(t);
      if (milestone.current === null) {
        milestone.current = milestoneOf(end - t); // the one we are already inside is not announced
        return;
      }
      const crossed = crossedMilestone(milestone.current, end - t);
      if (crossed === null) return;
      milestone.current = crossed;
      setAnnouncement(
        crossed === 0 ? m.timeUp : crossed === 1 ? m.oneMinuteLeft : fill(m.minutesLeft, { minutes: crossed }),
      );
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [end, clockOffset, m]);
  const left = end - now;
  return (
    <div className="countdown" data-testid="countdown">
      {left > 0 ? (
        <>
          <span id="time-left-label">{m.timeLeft}</span>
          <span className="time" role="timer" aria-labelledby="time-left-label" suppressHydrationWarning>
            {formatCountdown(left)}
          </span>
        </>
      ) : (
        <span>{m.timeUp}</span>
      )}
      <span className="sr-only" role="status">
        {announcement}
      </span>
    </div>
  );
}

/** A moment in the browser's own time zone (the server's HTML shows UTC until the page is live). */
export function LocalTime({ iso, locale }: { iso: string; locale: string }) {
  const [text, setText] = useState(() => formatDateTime(iso, locale, 'UTC'));
  useEffect(() => setText(formatDateTime(iso, locale)), [iso, locale]);
  return <time dateTime={iso}>{text}</time>;
}
