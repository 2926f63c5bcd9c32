/**
 * issue 25: the chains the window knows (the operator message that started one and every wake
 * that followed), fed by `chains.list` (the paused ones, at start and after each reconnect) and
 * each `chain.updated`. The status area reads its conversation's paused chain from here: "Agents
 * paused after 6 hand-offs · Continue".
 */
import type { Chain } from '../../../shared/api/contract.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const time = (iso: string): number => Date.parse(iso) || 0;

/** Keys: `t:<target>` (the paused chain of a conversation) and `c:<chainId>` (one chain). */
export class ChainStore extends KeyedStore {
  private readonly byId = new Map<string, Chain>();
  private readonly paused = new Map<string, Chain | null>();

  get(chainId: string): Chain | undefined {
    return this.byId.get(chainId);
  }

  /** The answer of `chains.list`: these chains replace what was known of them. */
  applyAll(chains: readonly Chain[]): void {
    for (const c of chains) this.apply(c);
  }

  /** A `chain.updated` event. An older update of a chain (by `updatedAt`) never replaces a newer one. */
  apply(chain: Chain): void {
    const current = this.byId.get(chain.chainId);
    if (current !== undefined && time(chain.updatedAt) < time(current.updatedAt)) return;
    this.byId.set(chain.chainId, chain);
    this.paused.delete(chain.target);
    if (current !== undefined && current.target !== chain.target) {
      this.paused.delete(current.target);
      this.notify(`t:${current.target}`);
    }
    this.notify(`t:${chain.target}`);
    this.notify(`c:${chain.chainId}`);
  }

  /** The newest paused chain of `target` (null: none): the same object until one of its chains changes. */
  pausedChainOf(target: string): Chain | null {
    if (this.paused.has(target)) return this.paused.get(target) ?? null;
    let newest: Chain | null = null;
    for (const c of this.byId.values())
      if (
        c.target === target &&
        c.status === 'paused' &&
        (newest === null || time(c.startedAt) > time(newest.startedAt))
      )
        newest = c;
    this.paused.set(target, newest);
    return newest;
  }
}

/** The paused chain of `target` (null: none); re-renders only when a chain of it changes. */
export function usePausedChain(store: ChainStore, target: string): Chain | null {
  return useStoreKey(store, `t:${target}`, () => store.pausedChainOf(target));
}

/** One chain (undefined while unknown, or when `chainId` is null); re-renders only when it changes. */
export function useChain(store: ChainStore, chainId: string | null): Chain | undefined {
  return useStoreKey(store, chainId === null ? null : `c:${chainId}`, () =>
    chainId === null ? undefined : store.get(chainId),
  );
}
