/** The one mechanism of the renderer's stores (state/keyed-store.ts, state/value-store.ts; issue 23). */
import { describe, expect, it } from 'vitest';
import { KeyedStore } from '../../../../renderer/src/state/keyed-store.js';
import { ValueStore } from '../../../../renderer/src/state/value-store.js';

class Counters extends KeyedStore {
  readonly counts = new Map<string, number>();
  bump(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.notify(key);
  }
}

describe('KeyedStore', () => {
  it('calls the listeners of the changed key only, each once, until they unsubscribe', () => {
    const store = new Counters();
    const heard: string[] = [];
    const offA = store.subscribe('a', () => heard.push('a1'));
    store.subscribe('a', () => heard.push('a2'));
    store.subscribe('b', () => heard.push('b'));
    store.bump('a');
    expect(heard).toEqual(['a1', 'a2']);
    offA();
    offA();
    store.bump('a');
    store.bump('c');
    expect(heard).toEqual(['a1', 'a2', 'a2']);
  });

  it('lets a listener unsubscribe another while it is being notified', () => {
    const store = new Counters();
    const heard: string[] = [];
    let offSecond = () => {};
    store.subscribe('a', () => {
      heard.push('first');
      offSecond();
    });
    offSecond = store.subscribe('a', () => heard.push('second'));
    store.bump('a');
    store.bump('a');
    expect(heard).toEqual(['first', 'second', 'first']);
  });
});

describe('ValueStore', () => {
  it('notifies only when the value is another one', () => {
    const store = new ValueStore<string | null>(null);
    let calls = 0;
    store.subscribe('value', () => calls++);
    store.set(null);
    store.set('x');
    store.set('x');
    expect(store.value).toBe('x');
    expect(calls).toBe(1);
  });
});
