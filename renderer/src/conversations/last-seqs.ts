/** Pure part of last-seq-batch.ts (issue 19), unit-tested without a DOM. */
import type { Conversation } from '../../../shared/api/contract.js';

/** Raises lastSeq where `pending` says so; the same list when nothing changes. `unknown` gets targets not listed. */
export function applyLastSeqs(
  list: readonly Conversation[],
  pending: ReadonlyMap<string, number>,
  unknown?: (target: string) => void,
): readonly Conversation[] {
  let changed = false;
  const seen = new Set<string>();
  const next = list.map((c) => {
    const seq = pending.get(c.target);
    if (seq === undefined) return c;
    seen.add(c.target);
    if (c.lastSeq >= seq) return c;
    changed = true;
    return { ...c, lastSeq: seq };
  });
  if (unknown !== undefined) for (const t of pending.keys()) if (!seen.has(t)) unknown(t);
  return changed ? next : list;
}
