/**
 * Per-conversation read markers (issue 17): the highest TargetSeq the person has seen in each
 * conversation, kept in this browser's localStorage (the daemon has one operator and no read
 * state). Unread = lastSeq − read; TargetSeq is gap-free per target, so that is a count.
 * A conversation never seen before counts as read up to where it was when first listed, so a
 * fresh window does not call the whole history unread.
 */
const KEY = 'agentteam.read.v1';

export type ReadMarkers = Readonly<Record<string, number>>;

/** Where markers are kept: this browser's localStorage (typed here so the markers need no DOM). */
export interface MarkerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function loadReadMarkers(storage: Pick<MarkerStorage, 'getItem'> | undefined): ReadMarkers {
  try {
    const raw = storage?.getItem(KEY);
    const parsed: unknown = raw === null || raw === undefined ? {} : JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'number' && v >= 0));
  } catch {
    return {};
  }
}

export function saveReadMarkers(storage: Pick<MarkerStorage, 'setItem'> | undefined, markers: ReadMarkers): void {
  try {
    storage?.setItem(KEY, JSON.stringify(markers));
  } catch {
    // Storage full or denied: unread counts reset on reload, nothing else is lost.
  }
}

/** Marks `target` read up to `seq` (never backwards); the same object when nothing changes. */
export function markRead(markers: ReadMarkers, target: string, seq: number): ReadMarkers {
  return (markers[target] ?? -1) >= seq ? markers : { ...markers, [target]: seq };
}

/** Adds a marker at `lastSeq` for every conversation not seen before. */
export function adoptConversations(
  markers: ReadMarkers,
  conversations: readonly { target: string; lastSeq: number }[],
): ReadMarkers {
  const missing = conversations.filter((c) => markers[c.target] === undefined);
  return missing.length === 0
    ? markers
    : { ...markers, ...Object.fromEntries(missing.map((c) => [c.target, c.lastSeq])) };
}

export function unreadCount(markers: ReadMarkers, c: { target: string; lastSeq: number }): number {
  return Math.max(0, c.lastSeq - (markers[c.target] ?? c.lastSeq));
}
