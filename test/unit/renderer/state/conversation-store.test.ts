/** The conversations the daemon lists (state/conversation-store.ts, issue 23; lastSeq batching of issue 19). */
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../shared/api/contract.js';
import { ConversationStore } from '../../../../renderer/src/state/conversation-store.js';
import { conversationFixture, fakeClientApi } from '../../../fixtures/fake-client-api.js';
import { manualFrames } from '../../../fixtures/manual-frames.js';

const general = conversationFixture('#general', { lastSeq: 3 });
const dev = conversationFixture('#dev', { lastSeq: 1 });

describe('ConversationStore', () => {
  it('applies the lastSeq of stored messages once per frame, keeping unchanged conversations the same objects', () => {
    const frames = manualFrames();
    const store = new ConversationStore(fakeClientApi().api, frames.schedule);
    store.replace([general, dev]);
    let notified = 0;
    store.subscribe('conversations', () => notified++);
    store.stored('#general', 4);
    store.stored('#general', 6);
    store.stored('#general', 5);
    expect(frames.pending()).toBe(1);
    expect(store.conversations[0]?.lastSeq).toBe(3);
    frames.run();
    expect(notified).toBe(1);
    expect(store.conversations[0]?.lastSeq).toBe(6);
    expect(store.conversations[1]).toBe(dev);
    // A bump that raises nothing keeps the list and tells nobody.
    const list = store.conversations;
    store.stored('#dev', 1);
    frames.run();
    expect(store.conversations).toBe(list);
    expect(notified).toBe(1);
  });

  it('lists the conversations again when a message lands in one it does not list (a new DM or thread)', async () => {
    const frames = manualFrames();
    const fake = fakeClientApi();
    const store = new ConversationStore(fake.api, frames.schedule);
    store.replace([]);
    store.stored('#general', 1);
    frames.run();
    await vi.waitFor(() => expect(store.conversations.map((c) => c.target)).toEqual(['#general']));
    expect(fake.requestsOf('conversations.list')).toHaveLength(1);
  });

  it('opens a listed conversation as it is, creates one it does not list, and says why when it cannot', async () => {
    const fake = fakeClientApi({
      'conversations.create': async ({ target }) => {
        if (target === '#bad') throw new ApiError('invalid_target', 'No such form.');
        return conversationFixture(target);
      },
    });
    const store = new ConversationStore(fake.api, manualFrames().schedule);
    store.replace([general]);
    expect(await store.open('#general')).toEqual({ ok: true, value: '#general' });
    expect(fake.requestsOf('conversations.create')).toEqual([]);
    expect(await store.open('#new')).toEqual({ ok: true, value: '#new' });
    expect(store.conversations.map((c) => c.target)).toEqual(['#general', '#new']);
    expect(await store.open('#bad')).toEqual({ ok: false, code: 'invalid_target', message: 'No such form.' });
  });

  it('drops a scheduled frame when disposed', () => {
    const frames = manualFrames();
    const store = new ConversationStore(fakeClientApi().api, frames.schedule);
    store.replace([general]);
    store.stored('#general', 9);
    store.dispose();
    expect(frames.pending()).toBe(0);
  });
});
