/**
 * Messages of one conversation as the renderer holds them: sorted by TargetSeq, unique by id,
 * filled from pages (`messages.list` with `beforeSeq`) and live `message.stored` events in any
 * order. Appending a newer message is O(1); merging an older page is one concat.
 */
import type { Message } from '../../../shared/api/contract.js';

export interface MessageLog {
  readonly target: string;
  readonly messages: readonly Message[];
  /** Older messages exist before the first one held. */
  readonly hasMore: boolean;
  /**
   * Newer messages exist after the last one held (issue 17: a window opened around a search
   * result). Live messages are not appended then (they would leave a gap); paging forward or
   * "Jump to latest" brings them.
   */
  readonly hasNewer?: boolean;
}

export function emptyLog(target: string): MessageLog {
  return { target, messages: [], hasMore: true };
}

/** Adds messages (a page or one event); ignores other targets and ids already held. */
export function mergeMessages(
  log: MessageLog,
  incoming: readonly Message[],
  hasMore?: boolean,
  hasNewer?: boolean,
): MessageLog {
  if (hasNewer !== undefined && hasNewer !== (log.hasNewer ?? false)) log = { ...log, hasNewer };
  const newest = log.messages[log.messages.length - 1];
  const mine = incoming.filter(
    (m) =>
      m.target === log.target &&
      !(hasNewer === undefined && log.hasNewer && newest !== undefined && m.seq > newest.seq),
  );
  const more = hasMore ?? log.hasMore;
  if (mine.length === 0) return more === log.hasMore ? log : { ...log, hasMore: more };
  const last = log.messages[log.messages.length - 1];
  // The common case: one live message newer than everything held.
  if (mine.length === 1 && (last === undefined || mine[0]!.seq > last.seq))
    return { ...log, messages: [...log.messages, mine[0]!], hasMore: more };
  // An older page (the scroll-up case): sorted and entirely before what is held, so one concat.
  const first = log.messages[0];
  const sorted = mine.every((m, i) => i === 0 || mine[i - 1]!.seq < m.seq);
  if (first !== undefined && sorted && mine[mine.length - 1]!.seq < first.seq)
    return { ...log, messages: [...mine, ...log.messages], hasMore: more };
  const bySeq = new Map<number, Message>();
  for (const m of log.messages) bySeq.set(m.seq, m);
  // The incoming copy wins: a message is immutable except for its reactions, which only grow.
  for (const m of mine) bySeq.set(m.seq, m);
  const messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { ...log, messages, hasMore: more };
}

/** The `beforeSeq` for the next older page, or undefined when nothing is held yet. */
export function olderPageCursor(log: MessageLog): number | undefined {
  return log.messages[0]?.seq;
}
