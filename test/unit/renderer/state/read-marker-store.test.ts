/** Read markers kept current: what is on screen is read (state/read-marker-store.ts, issue 23; issue 17). */
import { describe, expect, it } from 'vitest';
import { ReadMarkerStore } from '../../../../renderer/src/state/read-marker-store.js';
import { conversationFixture } from '../../../fixtures/fake-client-api.js';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe('ReadMarkerStore', () => {
  it('adopts new conversations as read, marks those on screen read, and saves each change', () => {
    const storage = memoryStorage({ 'agentteam.read.v1': JSON.stringify({ '#general': 2 }) });
    const store = new ReadMarkerStore(storage);
    let calls = 0;
    store.subscribe('markers', () => calls++);
    store.list([conversationFixture('#general', { lastSeq: 5 }), conversationFixture('#dev', { lastSeq: 7 })]);
    expect(store.current).toEqual({ '#general': 2, '#dev': 7 });
    store.show(['#general', null]);
    expect(store.current).toEqual({ '#general': 5, '#dev': 7 });
    expect(JSON.parse(storage.items.get('agentteam.read.v1')!)).toEqual({ '#general': 5, '#dev': 7 });
    // The same list again changes nothing and tells nobody.
    store.list([conversationFixture('#general', { lastSeq: 5 }), conversationFixture('#dev', { lastSeq: 7 })]);
    expect(calls).toBe(2);
    // A conversation off screen stays unread as it grows.
    store.list([conversationFixture('#general', { lastSeq: 6 }), conversationFixture('#dev', { lastSeq: 9 })]);
    expect(store.current).toEqual({ '#general': 6, '#dev': 7 });
  });
});
