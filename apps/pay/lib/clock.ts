// The countdown runs on the server's clock when the buyer's device is clearly wrong.

/** Below this, the difference is page-load latency, not a wrong clock: trust the device. */
const TRUSTED_SKEW_MS = 5_000;

/** server time − device time, or 0 when they agree within a few seconds. */
export function clockOffsetFrom(serverNow: number, deviceNow: number): number {
  const offset = serverNow - deviceNow;
  return Math.abs(offset) > TRUSTED_SKEW_MS ? offset : 0;
}
