import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);
vi.mock('electron-log/main', async () => import('electron-log/node'));

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { createFakeDaemon, sampleWake, type FakeDaemon } from '../../../fixtures/daemon-fake.js';
import { apiCalls, channelOf, type ApiCallName } from '../../../../shared/api/contract.js';
import type { CreateDaemonOptions as DaemonOptions } from '../../../../main/daemon/index.js';
import { bootDesktopApp, type DesktopApp } from '../../../../main/app/desktop-app.js';

describe('desktop app composition root', () => {
  let dir: string;
  let daemon: FakeDaemon;
  let daemonOptions: DaemonOptions[];
  let createDaemon: (o: DaemonOptions) => Promise<FakeDaemon>;

  const boot = (env: Record<string, string> = {}) =>
    bootDesktopApp({
      createDaemon,
      outDir: join(dir, 'out'),
      env: { AGENTTEAM_USER_DATA_DIR: join(dir, 'user-data'), AGENTTEAM_LOG_CONSOLE: '0', ...env },
    });
  const started = async (env?: Record<string, string>): Promise<DesktopApp> => {
    const desktop = boot(env);
    if (desktop === null) throw new Error('no single-instance lock');
    fake.app.becomeReady();
    await desktop.started();
    return desktop;
  };
  const theWindow = () => {
    expect(fake.BrowserWindow.all).toHaveLength(1);
    return fake.BrowserWindow.all[0]!;
  };

  beforeEach(() => {
    fake.resetElectronFake();
    dir = mkdtempSync(join(tmpdir(), 'desktop-app-'));
    daemon = createFakeDaemon();
    daemonOptions = [];
    createDaemon = async (o) => {
      daemonOptions.push(o);
      return daemon;
    };
  });
  afterEach(() => {
    fake.app.emit('will-quit', {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second launch takes no lock, opens nothing and quits (the first instance is focused by Electron)', async () => {
    fake.app.lockGranted = false;
    expect(boot()).toBeNull();
    expect(fake.app.quitCalls).toBe(1);
    fake.app.becomeReady();
    await Promise.resolve();
    expect(fake.BrowserWindow.all).toEqual([]);
    expect(daemonOptions).toEqual([]);
  });

  it('registers the app:// scheme and the sandbox before ready; the userData override precedes the lock', () => {
    boot();
    expect(fake.app.getPath('userData')).toBe(join(dir, 'user-data'));
    expect(fake.protocol.privileged).toHaveLength(1);
    expect(fake.app.sandboxEnabled).toBe(true);
    expect(fake.crashReporter.started).toEqual([{ uploadToServer: false }]);
    expect(fake.BrowserWindow.all).toEqual([]);
  });

  it('builds the daemon from the factory with its data under userData and opens one hardened window on app://', async () => {
    await started();
    expect(daemonOptions.map((o) => o.dataDir)).toEqual([join(dir, 'user-data', 'data')]);
    expect(daemonOptions[0]?.log).toBeDefined();
    const window = theWindow();
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: join(dir, 'out', 'preload', 'index.cjs'),
    });
    expect(window.webContents.loads).toEqual(['app://agentteam/index.html']);
    expect(fake.protocol.handlers.has('app')).toBe(true);
    expect(fake.session.defaultSession.permissionCheckHandler?.()).toBe(false);
  });

  it("electron-vite's dev server is used only unpackaged: a packaged app ignores ELECTRON_RENDERER_URL", async () => {
    fake.app.isPackaged = true;
    await started({ ELECTRON_RENDERER_URL: 'http://localhost:5173' });
    const window = theWindow();
    expect(window.webContents.loads).toEqual(['app://agentteam/index.html']);
    expect(window.webContents.navigate('will-navigate', 'http://localhost:5173/')).toBe(true);
    const page = await fake.ipcMain.invoke(
      channelOf('agents.list'),
      window,
      new fake.FakeWebFrame('http://localhost:5173/'),
      {},
    );
    expect(page).toMatchObject({ ok: false, code: 'forbidden_sender' });
  });

  it('unpackaged, the dev server page loads and may call', async () => {
    await started({ ELECTRON_RENDERER_URL: 'http://localhost:5173' });
    const window = theWindow();
    expect(window.webContents.loads).toEqual(['http://localhost:5173']);
    expect(await fake.ipcMain.invoke(channelOf('agents.list'), window, window.webContents.mainFrame, {})).toMatchObject(
      { ok: true },
    );
  });

  it('AGENTTEAM_DATA_DIR points the daemon at a serve data dir', async () => {
    await started({ AGENTTEAM_DATA_DIR: join(dir, 'serve-data') });
    expect(daemonOptions[0]?.dataDir).toBe(join(dir, 'serve-data'));
  });

  it('serves every call of the contract through the gate; the daemon answers settings, kept in the store through its port', async () => {
    await started();
    const window = theWindow();
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual(
      (Object.keys(apiCalls) as ApiCallName[]).map(channelOf).sort(),
    );
    expect(await fake.ipcMain.invoke(channelOf('wakes.list'), window, window.webContents.mainFrame, {})).toEqual({
      ok: true,
      value: [sampleWake()],
    });
    const updated = await fake.ipcMain.invoke(channelOf('settings.update'), window, window.webContents.mainFrame, {
      language: 'zh-CN',
    });
    expect(updated).toMatchObject({ ok: true, value: { language: 'zh-CN' } });
    // issue 17: the daemon answers settings calls; it keeps the language through the store's port.
    expect(daemon.calls.map(([name]) => name)).toEqual(['wakes.list', 'settings.update']);
    expect(
      await fake.ipcMain.invoke(channelOf('settings.get'), window, window.webContents.mainFrame, {}),
    ).toMatchObject({ ok: true, value: { language: 'zh-CN' } });
    daemonOptions[0]?.settings?.save({ language: 'zh-CN' });
    expect(readFileSync(join(dir, 'user-data', 'data', 'settings.json'), 'utf8')).toContain('zh-CN');
  });

  it('issue 14: desktop.chooseFolder is answered by the main process with a folder picker on the app window', async () => {
    await started();
    const window = theWindow();
    fake.dialog.nextOpenDialog = { canceled: false, filePaths: ['/home/me/project'] };
    expect(
      await fake.ipcMain.invoke(channelOf('desktop.chooseFolder'), window, window.webContents.mainFrame, {}),
    ).toEqual({ ok: true, value: { path: '/home/me/project' } });
    expect(fake.dialog.openDialogs).toHaveLength(1);
    expect(fake.dialog.openDialogs[0]?.[0]).toBe(window);
    expect(fake.dialog.openDialogs[0]?.[1]).toMatchObject({ properties: expect.arrayContaining(['openDirectory']) });
    // Never the daemon's answer (it has no picker).
    expect(daemon.calls.map(([name]) => name)).not.toContain('desktop.chooseFolder');
  });

  it('issue 23: limits.get answers the daemon’s limits through the gate', async () => {
    Object.assign(daemon, { limits: { maxMessageBytes: 102_400 } });
    await started();
    const window = theWindow();
    expect(await fake.ipcMain.invoke(channelOf('limits.get'), window, window.webContents.mainFrame, {})).toEqual({
      ok: true,
      value: { maxMessageBytes: 102_400 },
    });
  });

  it('pushes daemon events to the window', async () => {
    await started();
    daemon.events.next({ name: 'wake.status', payload: sampleWake({ status: 'delivered' }) });
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(theWindow().webContents.sent).toEqual([
      ['agentteam:events', [{ name: 'wake.status', payload: sampleWake({ status: 'delivered' }) }]],
    ]);
  });

  it('hardens any other web contents (web-contents-created)', async () => {
    await started();
    const other = new fake.FakeWebContents(new fake.FakeSession());
    fake.app.emit('web-contents-created', {}, other);
    expect(other.windowOpenHandler?.({ url: 'about:blank' })).toEqual({ action: 'deny' });
    expect(other.navigate('will-navigate', 'https://example.com/')).toBe(true);
  });

  it('a second launch focuses the first window', async () => {
    await started();
    const window = theWindow();
    window.minimized = true;
    window.visible = false;
    fake.app.emit('second-instance', {}, [], '/');
    expect(window).toMatchObject({ minimized: false, visible: true, focused: true });
    expect(fake.BrowserWindow.all).toHaveLength(1);
  });

  it('quit drains the daemon (which closes its store) before the app exits, once', async () => {
    const desktop = await started();
    let willQuit = 0;
    fake.app.on('will-quit', () => willQuit++);
    fake.app.quit();
    expect(willQuit).toBe(0);
    await desktop.stop();
    await Promise.resolve();
    expect(daemon.stopCalls).toBe(1);
    expect(fake.ipcMain.handlers.size).toBe(0);
    expect(willQuit).toBe(1);
    expect(fake.app.quitCalls).toBe(2);
  });

  it('quits anyway when the daemon does not drain in time', async () => {
    daemon.stop = () => new Promise<void>(() => undefined);
    const desktop = bootDesktopApp({
      createDaemon,
      outDir: join(dir, 'out'),
      env: { AGENTTEAM_USER_DATA_DIR: join(dir, 'user-data'), AGENTTEAM_LOG_CONSOLE: '0' },
      stopTimeoutMs: 20,
    })!;
    fake.app.becomeReady();
    await desktop.started();
    await desktop.stop();
    expect(desktop.stopped).toBe(true);
  });

  it('a daemon that cannot start: the window still opens and every call says why, naming the config file', async () => {
    createDaemon = async () => {
      throw new Error('agentteam.json: agents[0].runtime: invalid option');
    };
    await started();
    const window = theWindow();
    const result = await fake.ipcMain.invoke(channelOf('wakes.list'), window, window.webContents.mainFrame, {});
    expect(result).toMatchObject({ ok: false, code: 'unavailable' });
    expect((result as { message: string }).message).toContain('agents[0].runtime: invalid option');
    expect((result as { message: string }).message).toContain(join(dir, 'user-data', 'data', 'agentteam.json'));
    expect(
      await fake.ipcMain.invoke(channelOf('settings.get'), window, window.webContents.mainFrame, {}),
    ).toMatchObject({ ok: true });
  });

  it('render-process-gone reloads the window up to the crash-loop cap, then asks the person', async () => {
    await started();
    const window = theWindow();
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(window.webContents.loads).toHaveLength(1);
    for (let i = 0; i < 3; i++)
      window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(window.webContents.loads).toHaveLength(4);
    expect(fake.dialog.messageBoxes).toHaveLength(0);
    fake.dialog.nextResponse = 1;
    window.webContents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 0 });
    expect(window.webContents.loads).toHaveLength(4);
    expect(fake.dialog.messageBoxes).toHaveLength(1);
  });

  it('clicking a FAILED_FINAL notification focuses the window and asks the UI to open that wake', async () => {
    await started();
    const window = theWindow();
    daemon.events.next({
      name: 'alert.raised',
      payload: {
        id: 'a1',
        kind: 'delivery_failed',
        target: '#general',
        wakeToken: 'w_42',
        responseId: 'r_1',
        message: 'Reply not delivered — kept for re-delivery',
        at: '2026-11-30T07:00:00.000Z',
      },
    });
    expect(fake.Notification.shown).toHaveLength(1);
    fake.Notification.shown[0]!.emit('click');
    expect(window.focused).toBe(true);
    await new Promise<void>((resolve) => process.nextTick(resolve));
    const [channel, batch] = window.webContents.sent.at(-1) as [string, unknown[]];
    expect(channel).toBe('agentteam:events');
    expect(batch.at(-1)).toEqual({ name: 'wake.focusRequested', payload: { wakeToken: 'w_42' } });
  });
});
