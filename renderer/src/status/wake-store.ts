/**
 * The renderer's view of wakes, fed by `wakes.list` and `wake.updated` events. A wake that is
 * terminal never goes back to active here, whatever order updates arrive in (contract §6.2:
 * one terminal status per wake, ever), so a late event cannot resurrect a finished chip.
 */
import type { Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';

const RANK: Record<Wake['status'], number> = {
  queued: 0,
  delivered: 1,
  final_check_sent: 2,
  reply_sent: 3,
  failed: 3,
  completed_without_visible_reply: 3,
};

/** Returns the map with `incoming` applied, or the same map when the update is stale. */
export function upsertWake(wakes: ReadonlyMap<string, Wake>, incoming: Wake): ReadonlyMap<string, Wake> {
  const current = wakes.get(incoming.wakeToken);
  if (current !== undefined) {
    if (isTerminal(current.status)) return wakes; // the first terminal status stands
    if (RANK[incoming.status] < RANK[current.status]) return wakes;
    if (RANK[incoming.status] === RANK[current.status] && incoming.beacons < current.beacons) return wakes;
  }
  const next = new Map(wakes);
  next.set(incoming.wakeToken, incoming);
  return next;
}

export function upsertWakes(wakes: ReadonlyMap<string, Wake>, incoming: readonly Wake[]): ReadonlyMap<string, Wake> {
  return incoming.reduce(upsertWake, wakes);
}
