/** A store of one value (the settings, the connection's state, the limits), on the keyed-store mechanism. */
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'value';

export class ValueStore<T> extends KeyedStore {
  constructor(private current: T) {
    super();
  }

  get value(): T {
    return this.current;
  }

  /** Replaces the value; subscribers hear of it only when it is another value. */
  set(next: T): void {
    if (Object.is(next, this.current)) return;
    this.current = next;
    this.notify(KEY);
  }
}

/** The value of `store`, or what `select` reads of it; re-renders when that changes. */
export function useValue<T, R = T>(store: ValueStore<T>, select?: (value: T) => R): R {
  return useStoreKey(store, KEY, () => (select === undefined ? (store.value as unknown as R) : select(store.value)));
}
