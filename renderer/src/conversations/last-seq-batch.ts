/**
 * The newest TargetSeq of each listed conversation (sidebar unread counts), applied once per
 * animation frame (issue 19). With 20 agents at work, `message.stored` arrives dozens of times a
 * second for conversations not on screen; each used to map the whole conversation list into a
 * new array — a new one even when nothing changed — and re-render the shell. Now the bumps of a
 * frame are applied together, and the list (and every unchanged conversation object) stays the
 * same object when none of them raises a lastSeq.
 */
import { useCallback, useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { Conversation } from '../../../shared/api/contract.js';
import { applyLastSeqs } from './last-seqs.js';

/** A hidden window gets no animation frames; this bounds the wait there. */
const MAX_WAIT_MS = 100;

/**
 * Returns `bump(target, seq, onUnknown)`: remembers the highest seq per target and applies them
 * all in the next frame; `onUnknown` runs when a bumped target is not in the list (a new DM or
 * thread: the caller refetches the list).
 */
export function useLastSeqBatch(
  setConversations: Dispatch<SetStateAction<Conversation[]>>,
): (target: string, seq: number, onUnknown: () => void) => void {
  const pending = useRef(new Map<string, number>());
  const onUnknown = useRef<() => void>(() => undefined);
  const scheduled = useRef<{ frame: number; timer: ReturnType<typeof setTimeout> } | null>(null);

  const flush = useCallback(() => {
    const s = scheduled.current;
    if (s === null) return;
    cancelAnimationFrame(s.frame);
    clearTimeout(s.timer);
    scheduled.current = null;
    const batch = pending.current;
    pending.current = new Map();
    const refetch = onUnknown.current;
    let missing = false;
    setConversations((cs) => {
      const next = applyLastSeqs(cs, batch, () => (missing = true));
      if (missing) refetch();
      missing = false;
      return next as Conversation[];
    });
  }, [setConversations]);

  useEffect(
    () => () => {
      const s = scheduled.current;
      if (s !== null) {
        cancelAnimationFrame(s.frame);
        clearTimeout(s.timer);
      }
    },
    [],
  );

  return useCallback(
    (target: string, seq: number, unknown: () => void) => {
      if ((pending.current.get(target) ?? -1) < seq) pending.current.set(target, seq);
      onUnknown.current = unknown;
      if (scheduled.current === null)
        scheduled.current = { frame: requestAnimationFrame(flush), timer: setTimeout(flush, MAX_WAIT_MS) };
    },
    [flush],
  );
}
