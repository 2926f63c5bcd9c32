/** Threads per parent conversation (state/thread-store.ts, issue 23). */
import { describe, expect, it, vi } from 'vitest';
import type { ThreadSummary } from '../../../../shared/api/contract.js';
import { ThreadStore } from '../../../../renderer/src/state/thread-store.js';
import { fakeClientApi, messageFixture } from '../../../fixtures/fake-client-api.js';

const summary = (target: string, parent: string, content: string | null): ThreadSummary => ({
  target,
  parent,
  root: content === null ? null : messageFixture({ seq: 1, target: parent, content }),
  replyCount: 0,
  lastReplyAt: null,
});

describe('ThreadStore', () => {
  it('lists the threads of each wanted parent once, and the summary and label of each thread', async () => {
    const fake = fakeClientApi({
      'threads.list': async ({ parent }) =>
        parent === '#general'
          ? [
              summary('#general:ab12', '#general', `  a   root   message ${'x'.repeat(40)}`),
              summary('#general:cd34', '#general', null),
            ]
          : [],
    });
    const store = new ThreadStore(fake.api);
    store.want(['#general', '#dev']);
    store.want(['#general']);
    expect(fake.requestsOf('threads.list')).toEqual([{ parent: '#general' }, { parent: '#dev' }]);
    await vi.waitFor(() => expect(store.threadsOf('#general')).toHaveLength(2));
    expect(store.summaryOf('#general:cd34')?.root).toBeNull();
    expect(store.summaryOf('#general')).toBeUndefined();
    // Labels: the start of the root message, whitespace collapsed, cut at 40 characters.
    expect(store.labels).toEqual(new Map([['#general:ab12', `a root message ${'x'.repeat(24)}…`]]));
    store.want(['#general']);
    expect(fake.requestsOf('threads.list')).toHaveLength(2);
  });

  it('wakes the subscribers of the changed parent and of the labels, not of another parent', async () => {
    const fake = fakeClientApi();
    const store = new ThreadStore(fake.api);
    const heard: string[] = [];
    store.subscribe('p:#general', () => heard.push('#general'));
    store.subscribe('p:#dev', () => heard.push('#dev'));
    store.subscribe('labels', () => heard.push('labels'));
    await store.refresh('#general');
    expect(heard).toEqual(['#general', 'labels']);
  });

  it('lists a thread started from a message under its parent at once', async () => {
    const fake = fakeClientApi();
    await fake.api.messages.send({ target: '#general', content: 'start here' });
    const store = new ThreadStore(fake.api);
    const r = await store.start(fake.messages[0]!.id);
    expect(r).toMatchObject({ ok: true, value: { target: '#general:t100', parent: '#general' } });
    expect(store.summaryOf('#general:t100')?.root?.content).toBe('start here');
    expect(store.labels.get('#general:t100')).toBe('start here');
    expect(await store.start('msg_none')).toMatchObject({ ok: false, code: 'unknown_message' });
  });
});
