import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../fixtures/electron-fake.js')).electronModule);

import * as fake from '../../fixtures/electron-fake.js';
import { EVENTS_CHANNEL } from '../../../shared/api/api-names.js';
import {
  apiCalls,
  apiEvents,
  channelOf,
  splitCallName,
  type ApiCallName,
  type ClientApi,
} from '../../../shared/api/contract.js';
import { clientApiOverIpc, type PreloadIpc } from '../../../preload/client-api.js';
import { sampleWake } from '../../fixtures/daemon-fake.js';

function recordingIpc() {
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const ipc: PreloadIpc = {
    invoke: async (channel, request) => {
      invoked.push([channel, request]);
      return { ok: true, value: channel };
    },
    on: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return () => set.delete(listener);
    },
  };
  const emit = (channel: string, payload: unknown) => listeners.get(channel)?.forEach((l) => l(payload));
  return { ipc, invoked, listeners, emit };
}

describe('preload ClientApi', () => {
  it('has one named method per call, grouped by domain, each invoking its own channel', async () => {
    const { ipc, invoked } = recordingIpc();
    const api = clientApiOverIpc(ipc) as unknown as Record<string, Record<string, (r: unknown) => Promise<unknown>>>;
    for (const name of Object.keys(apiCalls) as ApiCallName[]) {
      const [domain, verb] = splitCallName(name);
      expect(typeof api[domain]?.[verb], name).toBe('function');
      expect(await api[domain]![verb]!({ probe: name })).toEqual({ ok: true, value: channelOf(name) });
    }
    expect(invoked.map(([c]) => c)).toEqual((Object.keys(apiCalls) as ApiCallName[]).map(channelOf));
  });

  it('exposes nothing generic: only the contract domains and events.subscribe', () => {
    const api = clientApiOverIpc(recordingIpc().ipc);
    const domains = new Set((Object.keys(apiCalls) as ApiCallName[]).map((n) => splitCallName(n)[0]));
    expect(Object.keys(api).sort()).toEqual([...domains, 'events'].sort());
    expect(Object.keys(api.events)).toEqual(['subscribe']);
    for (const key of ['send', 'invoke', 'on', 'ipcRenderer', 'sendSync']) expect(api).not.toHaveProperty(key);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.wakes)).toBe(true);
  });

  it('events.subscribe delivers each batch’s contract events as {name,payload}, in order, until unsubscribed (issue 30)', () => {
    const { ipc, emit, listeners } = recordingIpc();
    const api: ClientApi = clientApiOverIpc(ipc);
    const seen: unknown[] = [];
    const unsubscribe = api.events.subscribe((e) => seen.push(e));
    // One channel for every event.
    expect([...listeners.keys()]).toEqual([EVENTS_CHANNEL]);
    const wake = sampleWake();
    emit(EVENTS_CHANNEL, [
      { name: 'wake.status', payload: wake },
      { name: '__proto__', payload: {} },
      null,
      { name: 'alert.raised', payload: { id: 'a1' } },
    ]);
    // Not a batch: nothing.
    emit(EVENTS_CHANNEL, { name: 'wake.status', payload: wake });
    expect(seen).toEqual([
      { name: 'wake.status', payload: wake },
      { name: 'alert.raised', payload: { id: 'a1' } },
    ]);
    expect(Object.keys(apiEvents)).toContain('alert.raised');
    unsubscribe();
    unsubscribe();
    emit(EVENTS_CHANNEL, [{ name: 'wake.status', payload: wake }]);
    expect(seen).toHaveLength(2);
    expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
  });
});

describe('preload entry (sandboxed, contextBridge)', () => {
  // Imported once: the entry runs at import, like a preload at page load.
  beforeEach(() => fake.resetElectronFake());

  it('exposes window.agentteam over ipcRenderer.invoke and ipcRenderer.on', async () => {
    await import('../../../preload/index.js');
    const api = fake.contextBridge.exposed.get('agentteam') as ClientApi;
    expect([...fake.contextBridge.exposed.keys()]).toEqual(['agentteam']);
    fake.ipcRenderer.answer = () => ({ ok: false, code: 'forbidden_sender', message: 'no' });
    expect(await api.wakes.list({ activeOnly: true })).toEqual({ ok: false, code: 'forbidden_sender', message: 'no' });
    expect(fake.ipcRenderer.invocations).toEqual([['agentteam:wakes.list', { activeOnly: true }]]);

    const seen: unknown[] = [];
    const stop = api.events.subscribe((e) => seen.push(e));
    fake.ipcRenderer.emit(EVENTS_CHANNEL, {}, [{ name: 'alert.raised', payload: { id: 'a1' } }]);
    stop();
    fake.ipcRenderer.emit(EVENTS_CHANNEL, {}, [{ name: 'alert.raised', payload: { id: 'a2' } }]);
    expect(seen).toEqual([{ name: 'alert.raised', payload: { id: 'a1' } }]);
    expect(fake.ipcRenderer.listenerCount(EVENTS_CHANNEL)).toBe(0);
  });
});
