/**
 * issue 14: the workspace folder picker goes through the one IPC gate like every other call — the
 * sender is checked before the dialog opens, the request is parsed — and the main process opens
 * the OS picker (a fake dialog port here: no Electron binary runs in this environment, so the real
 * `dialog.showOpenDialog` is not exercised; the wiring in desktop-app.ts passes it through as is).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import * as fake from '../../../fixtures/electron-fake.js';
import { createFakeDaemon, createRecordingLog } from '../../../fixtures/daemon-fake.js';
import { channelOf } from '../../../../shared/api/contract.js';
import { APP_ENTRY_URL, isAppUrl } from '../../../../main/app/app-protocol.js';
import { folderPickerHandlers, type FolderDialogPort } from '../../../../main/app/folder-picker.js';
import { openIpcGate } from '../../../../main/app/ipc-gate.js';
import type { BrowserWindow, OpenDialogOptions } from 'electron';

const CHANNEL = channelOf('desktop.chooseFolder');

describe('desktop.chooseFolder through the IPC gate', () => {
  let opened: Array<{ parent: unknown; options: OpenDialogOptions }>;
  let answer: { canceled: boolean; filePaths: string[] };
  let window: fake.FakeBrowserWindow;

  beforeEach(() => {
    fake.resetElectronFake();
    opened = [];
    answer = { canceled: false, filePaths: ['/home/me/project'] };
    const port: FolderDialogPort = {
      showOpenDialog: async (parent, options) => {
        opened.push({ parent, options });
        return answer;
      },
    };
    window = new fake.BrowserWindow({});
    void window.loadURL(APP_ENTRY_URL);
    const daemon = createFakeDaemon();
    const gate = openIpcGate({
      handlers: { ...daemon.api, ...folderPickerHandlers(port, () => window as unknown as BrowserWindow) },
      events$: daemon.events$,
      isAllowedOrigin: isAppUrl,
      log: createRecordingLog(),
    });
    gate.addWindow(window as unknown as BrowserWindow);
  });

  it('opens a folder-only picker on the app window and answers the chosen path', async () => {
    const r = await fake.ipcMain.invoke(CHANNEL, window, window.webContents.mainFrame, { defaultPath: '/home/me' });
    expect(r).toEqual({ ok: true, value: { path: '/home/me/project' } });
    expect(opened).toHaveLength(1);
    expect(opened[0]?.parent).toBe(window);
    expect(opened[0]?.options.properties).toContain('openDirectory');
    expect(opened[0]?.options.properties).not.toContain('openFile');
    expect(opened[0]?.options.defaultPath).toBe('/home/me');
  });

  it('a cancelled picker answers path null', async () => {
    answer = { canceled: true, filePaths: [] };
    expect(await fake.ipcMain.invoke(CHANNEL, window, window.webContents.mainFrame, {})).toEqual({
      ok: true,
      value: { path: null },
    });
  });

  it('a spoofed sender is refused before any dialog opens', async () => {
    const sub = new fake.FakeWebFrame(APP_ENTRY_URL, window.webContents.mainFrame);
    expect(await fake.ipcMain.invoke(CHANNEL, window, sub, {})).toMatchObject({ ok: false, code: 'forbidden_sender' });
    const foreign = new fake.FakeWebFrame('https://evil.example/');
    expect(await fake.ipcMain.invoke(CHANNEL, window, foreign, {})).toMatchObject({
      ok: false,
      code: 'forbidden_sender',
    });
    expect(opened).toEqual([]);
  });

  it('a request outside the contract is refused before any dialog opens', async () => {
    expect(
      await fake.ipcMain.invoke(CHANNEL, window, window.webContents.mainFrame, { properties: ['openFile'] }),
    ).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(opened).toEqual([]);
  });
});
