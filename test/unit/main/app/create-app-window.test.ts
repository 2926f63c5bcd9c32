import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import * as fake from '../../../fixtures/electron-fake.js';
import { APP_ENTRY_URL } from '../../../../main/app/app-protocol.js';
import { createAppWindow, HARDENED_WEB_PREFERENCES } from '../../../../main/app/create-app-window.js';
import { appNavigationPolicy, hardenWebContents, openExternalHttps } from '../../../../main/app/web-contents-guards.js';
import type { WebContents } from 'electron';

const policy = appNavigationPolicy();
const open = () =>
  createAppWindow({
    preload: '/app/out/preload/index.cjs',
    url: APP_ENTRY_URL,
    policy,
  }) as unknown as fake.FakeBrowserWindow;

describe('createAppWindow', () => {
  beforeEach(() => fake.resetElectronFake());

  it('uses the hardened webPreferences (security checklist 2–4, 6, 8–12) and our preload', () => {
    const prefs = open().options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      preload: '/app/out/preload/index.cjs',
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(Object.isFrozen(HARDENED_WEB_PREFERENCES)).toBe(true);
  });

  it('loads the app:// entry, never file://, and shows the window only once ready', () => {
    const window = open();
    expect(window.webContents.loads).toEqual(['app://agentteam/index.html']);
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('denies every new window; an https link goes to the system browser, anything else nowhere', async () => {
    const contents = open().webContents;
    for (const url of [
      'https://example.com/docs',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://agentteam/index.html',
      'about:blank',
    ]) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    }
    await Promise.resolve();
    expect(fake.shell.opened).toEqual(['https://example.com/docs']);
  });

  it('allows navigation only within app://agentteam (will-navigate, will-frame-navigate, will-redirect)', () => {
    const contents = open().webContents;
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const) {
      expect(contents.navigate(event, 'app://agentteam/index.html#/wake/w_1')).toBe(false);
      expect(contents.navigate(event, 'https://example.com/')).toBe(true);
      expect(contents.navigate(event, 'file:///etc/passwd')).toBe(true);
      expect(contents.navigate(event, 'app://agentteam.evil/index.html')).toBe(true);
      expect(contents.navigate(event, 'app://other/index.html')).toBe(true);
      expect(contents.navigate(event, 'not a url')).toBe(true);
    }
  });

  it('refuses to attach a <webview>', () => {
    expect(open().webContents.navigate('will-attach-webview', 'https://example.com/')).toBe(true);
  });

  it('denies every permission request and check of its session', () => {
    const session = open().webContents.session;
    const answers: boolean[] = [];
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      session.permissionRequestHandler?.({}, permission, (granted) => answers.push(granted));
    }
    expect(answers).toEqual([false, false, false, false, false]);
    expect(session.permissionCheckHandler?.({}, 'notifications')).toBe(false);
    expect(session.devicePermissionHandler?.({})).toBe(false);
  });
});

describe('web contents guards', () => {
  beforeEach(() => fake.resetElectronFake());

  it('apply to any web contents (as web-contents-created does)', () => {
    const contents = new fake.FakeWebContents(new fake.FakeSession());
    hardenWebContents(contents as unknown as WebContents, policy);
    expect(contents.windowOpenHandler?.({ url: 'about:blank' })).toEqual({ action: 'deny' });
    expect(contents.navigate('will-navigate', 'https://example.com/')).toBe(true);
  });

  it('a dev-server origin is allowed only when given', () => {
    const dev = appNavigationPolicy(['http://localhost:5173']);
    expect(dev.isAllowedUrl('http://localhost:5173/index.html')).toBe(true);
    expect(dev.isAllowedUrl('http://localhost:5174/')).toBe(false);
    expect(policy.isAllowedUrl('http://localhost:5173/index.html')).toBe(false);
  });

  it('shell.openExternal only for https', async () => {
    expect(await openExternalHttps('https://example.com/a?b=c')).toBe(true);
    for (const url of [
      'http://example.com/',
      'file:///bin/sh',
      'smb://host/share',
      'javascript:alert(1)',
      'https://user:pw@example.com/',
      '',
    ]) {
      expect(await openExternalHttps(url)).toBe(false);
    }
    expect(fake.shell.opened).toEqual(['https://example.com/a?b=c']);
  });
});
