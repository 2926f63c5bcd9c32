/**
 * The feed of the window's stores (state/app-state.ts, issue 23): the lists at start and after a
 * reconnect, then each API event routed to the store it concerns.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type Alert, type Settings } from '../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import type { ConnectionState } from '../../../../renderer/src/api/ws-client.js';
import { AppState } from '../../../../renderer/src/state/app-state.js';
import {
  conversationFixture,
  demoAgent,
  fakeClientApi,
  messageFixture,
  type FakeHandlers,
} from '../../../fixtures/fake-client-api.js';
import { manualFrames } from '../../../fixtures/manual-frames.js';
import { wakeFixture } from '../../../fixtures/contract-values.js';

const zh: Settings = { language: 'zh-CN', channels: { local: ChannelSettingsSchema.parse({}) } };

function connection(initial: ConnectionState) {
  const listeners = new Set<(s: ConnectionState) => void>();
  let state = initial;
  return {
    get: () => state,
    subscribe: (l: (s: ConnectionState) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set(s: ConnectionState) {
      state = s;
      for (const l of listeners) l(s);
    },
  };
}

async function started(overrides: Partial<FakeHandlers> = {}, conn?: ReturnType<typeof connection>) {
  const fake = fakeClientApi(overrides);
  const frames = manualFrames();
  const state = new AppState(fake.api, { frames: frames.schedule, connection: conn ?? null });
  const loaded = vi.fn();
  state.onConversationsLoaded(loaded);
  const stop = state.start();
  await vi.waitFor(() => expect(loaded).toHaveBeenCalledTimes(1));
  return { fake, frames, state, stop, loaded };
}

describe('AppState: the first load', () => {
  it('fills the stores from the lists, the daemon’s limits included', async () => {
    const { state, loaded } = await started({
      'agents.list': async () => [demoAgent({ id: 'claude', name: 'Claude' })],
      'settings.get': async () => zh,
      'wakes.list': async () => [wakeFixture({ wakeToken: 'w1', status: 'delivered' })],
      'limits.get': async () => ({ maxMessageBytes: 102_400 }),
    });
    expect(state.conversations.conversations.map((c) => c.target)).toEqual(['#general']);
    expect(loaded).toHaveBeenCalledWith([conversationFixture('#general')]);
    expect(state.agents.agents.map((a) => a.id)).toEqual(['claude']);
    expect(state.settings.value?.language).toBe('zh-CN');
    expect(state.wakes.get('w1')?.status).toBe('delivered');
    expect(state.limits.value).toEqual({ maxMessageBytes: 102_400 });
    expect(state.lastError.value).toBeNull();
    expect(state.readMarkers.current).toEqual({ '#general': 0 });
  });

  it('names the first list that failed in the error banner, and keeps the schema’s limits when limits.get fails', async () => {
    const { state, loaded } = await started({
      'agents.list': async () => {
        throw new ApiError('unavailable', 'No daemon.');
      },
      'limits.get': async () => {
        throw new ApiError('unavailable', 'No daemon.');
      },
    });
    expect(state.lastError.value).toBe('No daemon.');
    expect(state.limits.value).toEqual({ maxMessageBytes: 32_768 });
    expect(loaded).toHaveBeenCalledTimes(1);
  });
});

describe('AppState: events in, snapshots out', () => {
  it('message.stored: into its log, its conversation’s lastSeq (next frame), and its thread parent’s threads', async () => {
    const { fake, frames, state } = await started();
    state.messages.show('#general');
    await vi.waitFor(() => expect(fake.requestsOf('messages.list')).toHaveLength(1));
    const threadLists = fake.requestsOf('threads.list').length;
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 1, content: 'hi' }) });
    expect(state.messages.logOf('#general')?.messages.map((m) => m.content)).toEqual(['hi']);
    frames.run();
    expect(state.conversations.conversations[0]?.lastSeq).toBe(1);
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 1, target: '#general:ab12' }) });
    expect(fake.requestsOf('threads.list').slice(threadLists)).toEqual([{ parent: '#general' }]);
  });

  it('wake.status, alert.raised, agent.updated and settings.changed reach their stores', async () => {
    const { fake, state } = await started();
    const alert: Alert = {
      id: 'al1',
      kind: 'no_response',
      target: '#general',
      wakeToken: null,
      responseId: null,
      message: 'No reply yet.',
      at: '2026-11-30T10:00:00.000Z',
    };
    fake.emit({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w2', status: 'queued' }) });
    fake.emit({ name: 'alert.raised', payload: alert });
    fake.emit({ name: 'agent.updated', payload: demoAgent({ state: 'busy' }) });
    fake.emit({ name: 'settings.changed', payload: zh });
    expect(state.wakes.get('w2')?.status).toBe('queued');
    expect(state.alerts.alerts).toEqual([alert]);
    expect(state.agents.agents).toEqual([demoAgent({ state: 'busy' })]);
    expect(state.settings.value).toEqual(zh);
  });

  it('wake.focusRequested: the wake is fetched, applied, and handed to the shell to show', async () => {
    const wake = wakeFixture({ wakeToken: 'w9', target: '#dev', status: 'failed' });
    const { fake, state } = await started({
      'wakes.inspect': async () => ({
        wake,
        events: [],
        promptInputs: [],
        continuedIn: null,
        continues: [],
        audit: [],
      }),
    });
    const shown = vi.fn();
    state.onFocusWake(shown);
    fake.emit({ name: 'wake.focusRequested', payload: { wakeToken: 'w9' } });
    await vi.waitFor(() => expect(shown).toHaveBeenCalledWith(wake));
    expect(state.wakes.get('w9')).toEqual(wake);
  });

  it('a new thread parent in the list gets its threads listed (sidebar labels)', async () => {
    const { fake, frames, state } = await started();
    fake.conversations.push(conversationFixture('#general:ab12'));
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 1, target: '#general:ab12' }) });
    frames.run();
    await vi.waitFor(() => expect(state.conversations.conversations).toHaveLength(2));
    expect(fake.requestsOf('threads.list')).toContainEqual({ parent: '#general' });
  });

  it('stops listening when stopped', async () => {
    const { fake, state, stop } = await started();
    stop();
    fake.emit({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w3', status: 'queued' }) });
    expect(state.wakes.get('w3')).toBeUndefined();
  });
});

describe('AppState: the connection', () => {
  it('follows the transport’s state, and loads again (dropping held logs) when it is open again', async () => {
    const conn = connection('open');
    const { fake, state, loaded } = await started({}, conn);
    state.messages.show('#general');
    await vi.waitFor(() => expect(state.messages.logOf('#general')?.hasMore).toBe(false));
    conn.set('closed');
    expect(state.connection.value).toBe('closed');
    conn.set('open');
    await vi.waitFor(() => expect(loaded).toHaveBeenCalledTimes(2));
    expect(state.connection.value).toBe('open');
    expect(state.messages.logOf('#general')).toBeUndefined();
    expect(fake.requestsOf('conversations.list')).toHaveLength(2);
  });

  it('starts in the transport’s state (the IPC transport has none: open)', () => {
    expect(new AppState(fakeClientApi().api, { frames: manualFrames().schedule }).connection.value).toBe('open');
    const conn = connection('connecting');
    expect(
      new AppState(fakeClientApi().api, { frames: manualFrames().schedule, connection: conn }).connection.value,
    ).toBe('connecting');
  });
});
