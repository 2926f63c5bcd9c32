/**
 * The one mechanism behind the renderer's stores (STYLE.md habit 17): state kept outside React,
 * read with `useSyncExternalStore`, and listeners per key, so a change wakes only the components
 * that read that key (issue 19: a wake of one conversation re-renders that conversation's status
 * area, not the shell). Each store names its keys (`t:<target>`, `list`, …) and returns the same
 * snapshot object until what it holds for a key changes.
 */
import { useCallback, useSyncExternalStore } from 'react';

export class KeyedStore {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Calls `listener` after each change of `key`; returns the function that stops it. */
  subscribe(key: string, listener: () => void): () => void {
    let set = this.listeners.get(key);
    if (set === undefined) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** Whether anything listens to `key` now (a store may skip work nobody reads). */
  protected watched(key: string): boolean {
    return this.listeners.has(key);
  }

  protected notify(key: string): void {
    const set = this.listeners.get(key);
    if (set !== undefined) for (const l of [...set]) l();
  }
}

/**
 * `read()`, re-rendering when `key` of `store` changes; with `key` null, read once without
 * subscribing. `read` must return the same object while the key does not change.
 */
export function useStoreKey<T>(store: KeyedStore, key: string | null, read: () => T): T {
  const subscribe = useCallback(
    (listener: () => void) => (key === null ? () => undefined : store.subscribe(key, listener)),
    [store, key],
  );
  return useSyncExternalStore(subscribe, read);
}
