'use client';
// Live status by polling the pay app (which asks the public API): every `intervalMs` while
// `active`, at once when the tab becomes visible again, slower after failures. Returns whether
// the last polls failed, so the page can say it is retrying.
import { useEffect, useState } from 'react';

const MAX_BACKOFF_MS = 20_000;

export function usePolling(poll: () => Promise<void>, active: boolean, intervalMs: number): boolean {
  const [failing, setFailing] = useState(false);
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let failures = 0;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(() => void run(), ms);
    };
    const run = async () => {
      if (document.visibilityState !== 'hidden') {
        try {
          await poll();
          failures = 0;
          setFailing(false);
        } catch {
          failures += 1;
          if (failures >= 2) setFailing(true);
        }
      }
      schedule(Math.min(intervalMs * 2 ** Math.min(failures, 3), MAX_BACKOFF_MS));
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') schedule(0);
    };
    schedule(intervalMs);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [poll, active, intervalMs]);
  return failing;
}

/** True once React runs in the browser: set as data-live on the island so tests wait for it. */
export function useLive(): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return live;
}
