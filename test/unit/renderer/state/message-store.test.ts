/**
 * Messages per conversation (state/message-store.ts, issue 23): the five paging requests the shell
 * used to make inline, `message.stored` merged into the log it belongs to, and subscribers of one
 * conversation woken for that conversation only.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiResponse } from '../../../../shared/api/contract.js';
import { MessageStore } from '../../../../renderer/src/state/message-store.js';
import { fakeClientApi, messageFixture, type FakeHandlers } from '../../../fixtures/fake-client-api.js';

const page = (seqs: number[], more: Partial<ApiResponse<'messages.list'>> = {}): ApiResponse<'messages.list'> => ({
  messages: seqs.map((seq) => messageFixture({ seq })),
  hasMore: false,
  ...more,
});

function storeWith(list: FakeHandlers['messages.list']) {
  const fake = fakeClientApi({ 'messages.list': list });
  const errors: string[] = [];
  const store = new MessageStore(fake.api, (m) => errors.push(m));
  return { fake, store, errors };
}

/** A `messages.list` whose answers the test releases one by one. */
function heldPages() {
  const waiting: Array<(p: ApiResponse<'messages.list'>) => void> = [];
  const list: FakeHandlers['messages.list'] = () => new Promise((resolve) => waiting.push(resolve));
  return { list, release: (p: ApiResponse<'messages.list'>) => waiting.shift()!(p), waiting };
}

describe('MessageStore', () => {
  it('asks for the newest page of a conversation on view once, holding it as empty meanwhile', async () => {
    const held = heldPages();
    const { fake, store } = storeWith(held.list);
    store.show('#general');
    store.show('#general');
    expect(store.logOf('#general')).toEqual({ target: '#general', messages: [], hasMore: true });
    expect(fake.requestsOf('messages.list')).toEqual([{ target: '#general', limit: 200 }]);
    held.release(page([1, 2], { hasMore: true }));
    await vi.waitFor(() => expect(store.logOf('#general')?.messages.map((m) => m.seq)).toEqual([1, 2]));
    expect(store.logOf('#general')?.hasMore).toBe(true);
  });

  it('merges a stored message into its own conversation’s log, and wakes that conversation’s subscribers only', async () => {
    const { store } = storeWith(async () => page([1]));
    store.show('#general');
    await vi.waitFor(() => expect(store.logOf('#general')?.messages).toHaveLength(1));
    const heard: string[] = [];
    store.subscribe('t:#general', () => heard.push('#general'));
    store.subscribe('t:#other', () => heard.push('#other'));
    store.stored(messageFixture({ seq: 2 }));
    store.stored(messageFixture({ seq: 1, target: '#other' })); // not held: ignored until it is on view
    expect(heard).toEqual(['#general']);
    expect(store.logOf('#general')?.messages.map((m) => m.seq)).toEqual([1, 2]);
    expect(store.logOf('#other')).toBeUndefined();
  });

  it('pages back from the oldest message held, one page at a time, saying so under its own key', async () => {
    const held = heldPages();
    const { fake, store } = storeWith(held.list);
    store.show('#general');
    held.release(page([201, 202], { hasMore: true }));
    await vi.waitFor(() => expect(store.logOf('#general')?.messages).toHaveLength(2));
    let loading = 0;
    store.subscribe('loadingOlder', () => loading++);
    store.loadOlder('#general');
    store.loadOlder('#general');
    expect(store.loadingOlder).toBe(true);
    expect(fake.requestsOf('messages.list').at(-1)).toEqual({ target: '#general', beforeSeq: 201, limit: 200 });
    expect(held.waiting).toHaveLength(1);
    held.release(page([199, 200], { hasMore: false }));
    await vi.waitFor(() => expect(store.loadingOlder).toBe(false));
    expect(loading).toBe(2);
    expect(store.logOf('#general')?.messages.map((m) => m.seq)).toEqual([199, 200, 201, 202]);
    store.loadOlder('#general'); // nothing older
    expect(held.waiting).toHaveLength(0);
  });

  it('pages forward in a window around a search result, and "Jump to latest" replaces the window', async () => {
    const held = heldPages();
    const { fake, store } = storeWith(held.list);
    const focused = vi.fn();
    store.openAround('#general', 50, focused);
    expect(fake.requestsOf('messages.list')).toEqual([{ target: '#general', aroundSeq: 50, limit: 200 }]);
    store.show('#general'); // held (as empty) already: the newest page is not asked for too
    expect(held.waiting).toHaveLength(1);
    held.release(page([49, 50, 51], { hasMore: true, hasNewer: true }));
    await vi.waitFor(() => expect(focused).toHaveBeenCalledTimes(1));
    store.loadNewer('#general');
    store.loadNewer('#general');
    expect(fake.requestsOf('messages.list').at(-1)).toEqual({ target: '#general', afterSeq: 51, limit: 200 });
    expect(held.waiting).toHaveLength(1);
    held.release(page([52], { hasNewer: false }));
    await vi.waitFor(() => expect(store.logOf('#general')?.hasNewer).toBe(false));
    expect(store.logOf('#general')?.messages.map((m) => m.seq)).toEqual([49, 50, 51, 52]);
    store.loadLatest('#general');
    held.release(page([90, 91], { hasMore: true }));
    await vi.waitFor(() => expect(store.logOf('#general')?.messages.map((m) => m.seq)).toEqual([90, 91]));
    // A message already held is focused at once, without a request.
    const before = fake.requestsOf('messages.list').length;
    store.openAround('#general', 91, focused);
    expect(focused).toHaveBeenCalledTimes(2);
    expect(fake.requestsOf('messages.list')).toHaveLength(before);
  });

  it('hands a failed page to the error sink, and drops every log on reset (each asked for again on view)', async () => {
    let fail = true;
    const { store, errors } = storeWith(async () => {
      if (fail) throw new ApiError('unavailable', 'The daemon is shutting down.');
      return page([1]);
    });
    store.show('#general');
    await vi.waitFor(() => expect(errors).toEqual(['The daemon is shutting down.']));
    expect(store.logOf('#general')).toEqual({ target: '#general', messages: [], hasMore: true });
    fail = false;
    store.reset();
    store.show('#general');
    await vi.waitFor(() => expect(store.logOf('#general')?.messages).toHaveLength(1));
    const woken: string[] = [];
    store.subscribe('t:#general', () => woken.push('#general'));
    store.reset();
    expect(store.logOf('#general')).toBeUndefined();
    expect(woken).toEqual(['#general']);
  });

  it('sends through messages.send, answering the refusal’s message or null', async () => {
    const { fake, store } = storeWith(async () => page([]));
    expect(await store.send('#general', 'hello')).toBeNull();
    expect(fake.messages.map((m) => m.content)).toEqual(['hello']);
    expect(await store.send('#general', '')).toMatch(/^messages\.send: /);
  });
});
