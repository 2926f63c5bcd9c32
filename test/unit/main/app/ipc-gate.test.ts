import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import * as fake from '../../../fixtures/electron-fake.js';
import { createFakeDaemon, createRecordingLog, sampleWake, type FakeDaemon } from '../../../fixtures/daemon-fake.js';
import { ApiError, apiCalls, channelOf, type ApiCallName } from '../../../../shared/api/contract.js';
import { APP_ENTRY_URL, isAppUrl } from '../../../../main/app/app-protocol.js';
import { LIBRARY_CHANNELS, openIpcGate, type IpcGate } from '../../../../main/app/ipc-gate.js';
import { EVENTS_CHANNEL, LAZY_EVENT_MS } from '../../../../shared/api/api-names.js';
import type { Alert } from '../../../../shared/api/contract.js';

/** The end of the current stretch of code: events pushed in it have been sent. */
const tick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));
const sampleAlert: Alert = {
  id: 'al_1',
  kind: 'delivery_failed',
  target: '#general',
  wakeToken: null,
  responseId: null,
  message: 'Reply not delivered',
  at: '2026-11-30T07:00:00.000Z',
};
import type { BrowserWindow } from 'electron';

const callNames = Object.keys(apiCalls) as ApiCallName[];

describe('ipc gate', () => {
  let daemon: FakeDaemon;
  let log: ReturnType<typeof createRecordingLog>;
  let gate: IpcGate;
  let window: fake.FakeBrowserWindow;

  const open = () => openIpcGate({ handlers: daemon.api, events$: daemon.events$, isAllowedOrigin: isAppUrl, log });
  const asWindow = (w: fake.FakeBrowserWindow) => w as unknown as BrowserWindow;

  beforeEach(() => {
    fake.resetElectronFake();
    daemon = createFakeDaemon();
    log = createRecordingLog();
    gate = open();
    window = new fake.BrowserWindow({});
    void window.loadURL(APP_ENTRY_URL);
    gate.addWindow(asWindow(window));
  });

  it('registers one handler per call of the contract, on its agentteam:<domain>.<verb> channel, and nothing else', () => {
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual(callNames.map(channelOf).sort());
    expect(fake.ipcMain.handlers.has('agentteam:wakes.list')).toBe(true);
  });

  it('answers a call from the main frame of a known app window with {ok:true,value}', async () => {
    const result = await fake.ipcMain.invoke(channelOf('wakes.list'), window, window.webContents.mainFrame, {
      activeOnly: true,
    });
    expect(result).toEqual({ ok: true, value: [sampleWake()] });
    expect(daemon.calls).toEqual([['wakes.list', { activeOnly: true }]]);
  });

  describe('refuses a spoofed sender with forbidden_sender and never reaches the daemon', () => {
    it('a subframe of our window', async () => {
      const sub = new fake.FakeWebFrame(APP_ENTRY_URL, window.webContents.mainFrame);
      expect(await fake.ipcMain.invoke(channelOf('wakes.list'), window, sub, {})).toMatchObject({
        ok: false,
        code: 'forbidden_sender',
      });
    });
    it('a main frame showing another origin', async () => {
      const foreign = new fake.FakeWebFrame('https://evil.example/');
      expect(
        await fake.ipcMain.invoke(channelOf('messages.send'), window, foreign, { target: '#general', content: 'x' }),
      ).toMatchObject({ ok: false, code: 'forbidden_sender' });
    });
    it('an app:// page with a look-alike host', async () => {
      const foreign = new fake.FakeWebFrame('app://agentteam.evil/index.html');
      expect(await fake.ipcMain.invoke(channelOf('wakes.list'), window, foreign, {})).toMatchObject({
        ok: false,
        code: 'forbidden_sender',
      });
    });
    it('a window the gate does not know', async () => {
      const stranger = new fake.BrowserWindow({});
      void stranger.loadURL(APP_ENTRY_URL);
      expect(
        await fake.ipcMain.invoke(channelOf('wakes.list'), stranger, stranger.webContents.mainFrame, {}),
      ).toMatchObject({ ok: false, code: 'forbidden_sender' });
    });
    it('web contents that belong to no window', async () => {
      const orphan = new fake.FakeWebContents(new fake.FakeSession());
      expect(
        await fake.ipcMain.invoke(channelOf('wakes.list'), orphan, new fake.FakeWebFrame(APP_ENTRY_URL), {}),
      ).toMatchObject({ ok: false, code: 'forbidden_sender' });
    });
    it('a destroyed frame (senderFrame null)', async () => {
      expect(await fake.ipcMain.invoke(channelOf('wakes.list'), window, null, {})).toMatchObject({
        ok: false,
        code: 'forbidden_sender',
      });
    });
    it('a window that was closed', async () => {
      window.close();
      expect(
        await fake.ipcMain.invoke(channelOf('wakes.list'), window, window.webContents.mainFrame, {}),
      ).toMatchObject({ ok: false, code: 'forbidden_sender' });
    });
    it('logs the refusal without the payload', async () => {
      await fake.ipcMain.invoke(channelOf('messages.send'), window, new fake.FakeWebFrame('https://evil.example/'), {
        target: '#general',
        content: 'secret words',
      });
      expect(daemon.calls).toEqual([]);
      expect(JSON.stringify(log.lines)).not.toContain('secret words');
      expect(log.lines.some(([level, msg]) => level === 'warn' && msg.includes('sender refused'))).toBe(true);
    });
  });

  it('answers an invalid payload with invalid_request naming the bad field, and never calls the daemon', async () => {
    const result = await fake.ipcMain.invoke(channelOf('wakes.list'), window, window.webContents.mainFrame, {
      limit: 'ten',
    });
    expect(result).toMatchObject({ ok: false, code: 'invalid_request' });
    expect((result as { message: string }).message).toMatch(/^wakes\.list: limit: /);
    expect(daemon.calls).toEqual([]);
  });

  it('refuses unknown keys (strict requests)', async () => {
    const result = await fake.ipcMain.invoke(channelOf('agents.list'), window, window.webContents.mainFrame, {
      __proto__x: 1,
    });
    expect(result).toMatchObject({ ok: false, code: 'invalid_request' });
  });

  it('answers oversized content with content_too_large', async () => {
    const result = await fake.ipcMain.invoke(channelOf('messages.send'), window, window.webContents.mainFrame, {
      target: '#general',
      content: 'x'.repeat(1_048_577),
    });
    expect(result).toMatchObject({ ok: false, code: 'content_too_large' });
  });

  it("passes a daemon ApiError's code and message through", async () => {
    daemon.api['wakes.inspect'] = async () => {
      throw new ApiError('unknown_wake', 'No wake "w_x"; list wakes to find its token.');
    };
    gate.close();
    gate = open();
    gate.addWindow(asWindow(window));
    const result = await fake.ipcMain.invoke(channelOf('wakes.inspect'), window, window.webContents.mainFrame, {
      wakeToken: 'w_x',
    });
    expect(result).toEqual({
      ok: false,
      code: 'unknown_wake',
      message: 'No wake "w_x"; list wakes to find its token.',
    });
  });

  it('issue 23: answers limits.get with the limit it names in its refusals, the schema default without one', async () => {
    const limitsOf = () => fake.ipcMain.invoke(channelOf('limits.get'), window, window.webContents.mainFrame, {});
    expect(await limitsOf()).toEqual({ ok: true, value: { maxMessageBytes: 32_768 } });
    gate.close();
    gate = openIpcGate({
      handlers: daemon.api,
      events$: daemon.events$,
      isAllowedOrigin: isAppUrl,
      log,
      maxMessageBytes: 102_400,
    });
    gate.addWindow(asWindow(window));
    expect(await limitsOf()).toEqual({ ok: true, value: { maxMessageBytes: 102_400 } });
    expect(daemon.calls).toEqual([]);
  });

  it('checks every daemon answer against the contract (unpackaged: checkResponses defaults to true)', async () => {
    daemon.api['messages.send'] = (async () => ({ messageId: 1 })) as unknown as (typeof daemon.api)['messages.send'];
    gate.close();
    gate = open();
    gate.addWindow(asWindow(window));
    const result = await fake.ipcMain.invoke(channelOf('messages.send'), window, window.webContents.mainFrame, {
      target: '#general',
      content: 'hi',
    });
    expect(result).toMatchObject({ ok: false, code: 'internal' });
  });

  it('pushes contract events to our windows on the events channel, those of one stretch as one message in order (issue 30)', async () => {
    const wake = sampleWake({ status: 'reply_sent', endedAt: '2026-11-30T07:00:01.000Z' });
    daemon.events.next({ name: 'wake.status', payload: wake });
    daemon.events.next({ name: 'alert.raised', payload: sampleAlert });
    expect(window.webContents.sent).toEqual([]);
    await tick();
    expect(window.webContents.sent).toEqual([
      [
        EVENTS_CHANNEL,
        [
          { name: 'wake.status', payload: wake },
          { name: 'alert.raised', payload: sampleAlert },
        ],
      ],
    ]);
    daemon.events.next({ name: 'wake.status', payload: wake });
    await tick();
    expect(window.webContents.sent).toHaveLength(2);
  });

  it('issue 39: a lazy event waits for the next event shown at once, or an answer, and goes with it in order; alone, within LAZY_EVENT_MS', async () => {
    const wake = sampleWake({ status: 'delivered' });
    daemon.events.next({ name: 'usage.updated', payload: { agentId: 'demo' } });
    await tick();
    expect(window.webContents.sent).toEqual([]);
    daemon.events.next({ name: 'wake.status', payload: wake });
    await tick();
    expect(window.webContents.sent).toEqual([
      [
        EVENTS_CHANNEL,
        [
          { name: 'usage.updated', payload: { agentId: 'demo' } },
          { name: 'wake.status', payload: wake },
        ],
      ],
    ]);
    // Before an answer: what is held goes first, as it happened.
    daemon.events.next({ name: 'usage.updated', payload: { agentId: 'demo' } });
    await fake.ipcMain.invoke(channelOf('conversations.list'), window, window.webContents.mainFrame, {});
    expect(window.webContents.sent).toHaveLength(2);
    // Alone: it goes by itself once LAZY_EVENT_MS have passed.
    daemon.events.next({ name: 'usage.updated', payload: { agentId: 'other' } });
    await tick();
    expect(window.webContents.sent).toHaveLength(2);
    await new Promise((r) => setTimeout(r, LAZY_EVENT_MS + 20));
    expect(window.webContents.sent.at(-1)).toEqual([
      EVENTS_CHANNEL,
      [{ name: 'usage.updated', payload: { agentId: 'other' } }],
    ]);
  });

  it('never pushes to a window that navigated off our origin, nor to an unknown window', async () => {
    const stranger = new fake.BrowserWindow({});
    void stranger.loadURL(APP_ENTRY_URL);
    void window.webContents.loadURL('https://evil.example/');
    daemon.events.next({ name: 'wake.status', payload: sampleWake() });
    await tick();
    expect(window.webContents.sent).toEqual([]);
    expect(stranger.webContents.sent).toEqual([]);
  });

  it('drops (and logs) an event that breaks the contract', async () => {
    daemon.events.next({ name: 'wake.status', payload: { wakeToken: 'w_1' } as never });
    await tick();
    expect(window.webContents.sent).toEqual([]);
    expect(log.lines.some(([level, msg]) => level === 'error' && msg.includes('event breaks the contract'))).toBe(true);
  });

  it('closes channels libraries opened on ipcMain by themselves (one gate, no side doors)', () => {
    gate.close();
    fake.ipcMain.on('__ELECTRON_LOG__', () => undefined);
    fake.ipcMain.on('electron-store-get-data', () => undefined);
    fake.ipcMain.handle('__ELECTRON_LOG__', () => undefined);
    gate = open();
    for (const channel of LIBRARY_CHANNELS) {
      expect(fake.ipcMain.listenerCount(channel)).toBe(0);
      expect(fake.ipcMain.handlers.has(channel)).toBe(false);
    }
  });

  it('close() removes every handler and stops pushing, even what was held; it is idempotent', async () => {
    daemon.events.next({ name: 'wake.status', payload: sampleWake() });
    gate.close();
    gate.close();
    expect(fake.ipcMain.handlers.size).toBe(0);
    daemon.events.next({ name: 'wake.status', payload: sampleWake() });
    await tick();
    expect(window.webContents.sent).toEqual([]);
  });
});
