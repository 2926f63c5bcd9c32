/**
 * The failed chips the person dismissed (issue 24, UI.md "Status area"): wake tokens kept in this
 * browser's localStorage, like read markers (the daemon has one operator and no UI state). A
 * `failed` chip stays until a later wake of that agent ends or its token is here.
 */
import type { MarkerStorage } from '../conversations/read-markers.js';

const KEY = 'agentteam.dismissedFailures.v1';

/** The newest dismissals kept; older ones belong to wakes long given way to later ones. */
export const DISMISSED_FAILURES_KEPT = 500;

export function loadDismissedFailures(storage: Pick<MarkerStorage, 'getItem'> | undefined): ReadonlySet<string> {
  try {
    const raw = storage?.getItem(KEY);
    const parsed: unknown = raw === null || raw === undefined ? [] : JSON.parse(raw);
    return new Set(Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds `wakeToken` (the newest last, the oldest dropped past the cap) and saves; returns the new set. */
export function dismissFailure(
  storage: MarkerStorage | undefined,
  dismissed: ReadonlySet<string>,
  wakeToken: string,
): ReadonlySet<string> {
  if (dismissed.has(wakeToken)) return dismissed;
  const next = [...dismissed, wakeToken].slice(-DISMISSED_FAILURES_KEPT);
  try {
    storage?.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or denied: the chip stays dismissed until reload, nothing else is lost.
  }
  return new Set(next);
}
