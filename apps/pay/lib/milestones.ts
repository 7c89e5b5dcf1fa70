// The countdown tells screen readers about milestones only (20, 10, 5 and 1 minutes left, and
// time up), never every second.

export const MILESTONE_MINUTES = [20, 10, 5, 1] as const;

/** The milestone the time left is inside: minutes of the smallest threshold reached, 0 once time is up, Infinity before the first. */
export function milestoneOf(leftMs: number): number {
  if (leftMs <= 0) return 0;
  return Math.min(Infinity, ...MILESTONE_MINUTES.filter((mm) => leftMs <= mm * 60_000));
}

/** The milestone to announce after a tick, or null when none was newly reached. */
export function crossedMilestone(previous: number, leftMs: number): number | null {
  const now = milestoneOf(leftMs);
  return now < previous ? now : null;
}
