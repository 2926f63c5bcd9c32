/**
 * The renderer's view of wakes, fed by `wakes.list`, `wake.status` events and the `wake.timeline`
 * entries that move a wake's chip (a beacon, the escalation, a final-check: issue 39). A wake that is
 * terminal never goes back to active here, whatever order updates arrive in (contract §6.2:
 * one terminal status per wake, ever), so a late event cannot resurrect a finished chip.
 *
 * Kept outside React state, indexed by conversation (issue 19): with 20 agents at work the page
 * receives hundreds of wake events a second, and the app used to copy the whole map
 * (every wake seen, 10,000 after 20 × 500 wakes) into new React state for each one and
 * re-render the whole shell — sidebar, both status areas, composer — for a wake of a
 * conversation not even on screen (95 long tasks, the longest 385 ms). Now an update is O(1)
 * here and wakes only the subscribers of its own conversation (`useTargetWakes`) or its own
 * token (`useWake`): a status area re-renders for its conversation's wakes only. The subscription
 * mechanism is the one every renderer store shares (state/keyed-store.ts, issue 23).
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { Wake, WakeEvent } from '../../../shared/api/contract.js';
import { isTerminal, withTimelineEntry } from '../../../shared/wake-status.js';
import { KeyedStore, useStoreKey } from '../state/keyed-store.js';

const RANK: Record<Wake['status'], number> = {
  queued: 0,
  delivered: 1,
  final_check_sent: 2,
  reply_sent: 3,
  failed: 3,
  completed_without_visible_reply: 3,
  // issue 27: a pause and its resume alternate with `delivered` (same rank: the later event stands).
  paused: 1,
};

/** Whether `incoming` replaces `current` (undefined: not seen yet), by the rule above. */
export function supersedes(current: Wake | undefined, incoming: Wake): boolean {
  if (current === undefined) return true;
  if (isTerminal(current.status)) return false; // the first terminal status stands
  if (RANK[incoming.status] < RANK[current.status]) return false;
  return !(RANK[incoming.status] === RANK[current.status] && incoming.beacons < current.beacons);
}

const EMPTY: ReadonlyMap<string, Wake> = new Map();

/**
 * Keys: `t:<target>` (the wakes of a conversation), `w:<wakeToken>` (one wake), issue 25
 * `c:<chainId>` (the wakes of one chain: who woke whom) and, issue 40, `a:<agentId>` (its paused wakes).
 */
export class WakeBook extends KeyedStore {
  private readonly all = new Map<string, Wake>();
  /** issue 25: wake tokens by chain, and their snapshots (oldest first), rebuilt on the first read after a change. */
  private readonly byChain = new Map<string, Set<string>>();
  private readonly chainSnapshots = new Map<string, readonly Wake[]>();
  /** Wakes by target; the inner maps are mutated, snapshots below are copies. */
  private readonly byTarget = new Map<string, Map<string, Wake>>();
  /** Immutable per-target snapshots, rebuilt on the first read after a change. */
  private readonly snapshots = new Map<string, ReadonlyMap<string, Wake>>();
  /** issue 40 item 8: the paused wakes of each agent (the sidebar's "Paused until 14:05"). */
  private readonly pausedByAgent = new Map<string, Map<string, Wake>>();

  get(wakeToken: string): Wake | undefined {
    return this.all.get(wakeToken);
  }

  /** The conversation of a wake, when it is known. */
  targetOf(wakeToken: string): string | undefined {
    return this.all.get(wakeToken)?.target;
  }

  /** Applies one update; false (and nobody notified) when it is stale. */
  apply(incoming: Wake): boolean {
    const current = this.all.get(incoming.wakeToken);
    if (!supersedes(current, incoming)) return false;
    this.all.set(incoming.wakeToken, incoming);
    if (current !== undefined && current.target !== incoming.target) this.drop(current);
    let mine = this.byTarget.get(incoming.target);
    if (mine === undefined) this.byTarget.set(incoming.target, (mine = new Map()));
    mine.set(incoming.wakeToken, incoming);
    this.snapshots.delete(incoming.target);
    const chainId = incoming.chainId ?? null;
    if (chainId !== null) {
      let chain = this.byChain.get(chainId);
      if (chain === undefined) this.byChain.set(chainId, (chain = new Set()));
      chain.add(incoming.wakeToken);
      this.chainSnapshots.delete(chainId);
    }
    this.trackPause(current, incoming);
    this.notify(`t:${incoming.target}`);
    this.notify(`w:${incoming.wakeToken}`);
    if (chainId !== null) this.notify(`c:${chainId}`);
    return true;
  }

  /**
   * issue 39: a timeline entry merged into its wake as the daemon's store mirrors it (a beacon counts,
   * the escalation marks); an entry that moves nothing, or of a wake not known here, notifies no one.
   */
  timeline(entry: WakeEvent): boolean {
    const current = this.all.get(entry.wakeToken);
    if (current === undefined) return false;
    const next = withTimelineEntry(current, entry.kind, entry.at);
    return next !== current && this.apply(next);
  }

  applyAll(incoming: readonly Wake[]): void {
    for (const w of incoming) this.apply(w);
  }

  /** The wakes of one conversation: the same object until one of them changes. */
  wakesOf(target: string): ReadonlyMap<string, Wake> {
    let snap = this.snapshots.get(target);
    if (snap === undefined) {
      const mine = this.byTarget.get(target);
      snap = mine === undefined ? EMPTY : new Map(mine);
      this.snapshots.set(target, snap);
    }
    return snap;
  }

  /** issue 25: the wakes of one chain, oldest first: the same array until one of them changes. */
  wakesOfChain(chainId: string): readonly Wake[] {
    let snap = this.chainSnapshots.get(chainId);
    if (snap === undefined) {
      const tokens = [...(this.byChain.get(chainId) ?? [])];
      snap = tokens
        .flatMap((t) => {
          const w = this.all.get(t);
          return w === undefined ? [] : [w];
        })
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.wakeToken.localeCompare(b.wakeToken));
      this.chainSnapshots.set(chainId, snap);
    }
    return snap;
  }

  /**
   * issue 40 item 8: the agent's paused wake (the oldest, when several wait), undefined when none is
   * paused: the same object until one of its paused wakes changes.
   */
  pausedWakeOf(agentId: string): Wake | undefined {
    let oldest: Wake | undefined;
    for (const w of this.pausedByAgent.get(agentId)?.values() ?? [])
      if (oldest === undefined || w.createdAt < oldest.createdAt) oldest = w;
    return oldest;
  }

  /** Keeps `pausedByAgent` and tells the agent's subscribers (`a:<agentId>`) when its paused wakes change. */
  private trackPause(current: Wake | undefined, incoming: Wake): void {
    if (current?.status !== 'paused' && incoming.status !== 'paused') return;
    let mine = this.pausedByAgent.get(incoming.agentId);
    if (incoming.status === 'paused') {
      if (mine === undefined) this.pausedByAgent.set(incoming.agentId, (mine = new Map()));
      mine.set(incoming.wakeToken, incoming);
    } else mine?.delete(incoming.wakeToken);
    this.notify(`a:${incoming.agentId}`);
  }

  private drop(w: Wake): void {
    this.byTarget.get(w.target)?.delete(w.wakeToken);
    this.snapshots.delete(w.target);
    this.notify(`t:${w.target}`);
  }
}

/** The wakes of `target`; re-renders only when one of them changes. */
export function useTargetWakes(book: WakeBook, target: string): ReadonlyMap<string, Wake> {
  return useStoreKey(book, `t:${target}`, () => book.wakesOf(target));
}

/** One wake (undefined while unknown, or when `wakeToken` is null); re-renders only when it changes. */
export function useWake(book: WakeBook, wakeToken: string | null): Wake | undefined {
  return useStoreKey(book, wakeToken === null ? null : `w:${wakeToken}`, () =>
    wakeToken === null ? undefined : book.get(wakeToken),
  );
}

/** issue 40 item 8: the agent's paused wake, if any; re-renders only when its paused wakes change. */
export function usePausedWake(book: WakeBook, agentId: string): Wake | undefined {
  return useStoreKey(book, `a:${agentId}`, () => book.pausedWakeOf(agentId));
}

const NO_WAKES: readonly Wake[] = [];

/** issue 25: the wakes of a chain, oldest first (none when `chainId` is null); re-renders when one changes. */
export function useChainWakes(book: WakeBook, chainId: string | null): readonly Wake[] {
  return useStoreKey(book, chainId === null ? null : `c:${chainId}`, () =>
    chainId === null ? NO_WAKES : book.wakesOfChain(chainId),
  );
}

/**
 * The conversations of some wakes, as one string (stable while they do not change), for a
 * component that must re-render when a wake's conversation becomes known (approval chips).
 */
export function useTargetsOf(book: WakeBook, wakeTokens: readonly string[]): string {
  const key = wakeTokens.join('\n');
  const subscribe = useCallback(
    (l: () => void) => {
      const offs = key === '' ? [] : key.split('\n').map((t) => book.subscribe(`w:${t}`, l));
      return () => offs.forEach((off) => off());
    },
    [book, key],
  );
  return useSyncExternalStore(subscribe, () => wakeTokens.map((t) => book.targetOf(t) ?? '').join('\n'));
}
