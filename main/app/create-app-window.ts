/**
 * The one window factory (research/electron-style.md (b) 13): fixed, hardened
 * `webPreferences`; the guards of `web-contents-guards.ts` are applied again here so a
 * window is safe even before `web-contents-created` fires for it.
 */
import { BrowserWindow, type WebPreferences } from 'electron';
import { denyAllPermissions, hardenWebContents, type NavigationPolicy } from './web-contents-guards.js';

/**
 * Security checklist 2–4, 6, 8–12: isolated, sandboxed, no Node, web security on, nothing
 * experimental, no webview, no insecure content. Tests read these back.
 */
export const HARDENED_WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  safeDialogs: true,
} satisfies WebPreferences);

export interface AppWindowOptions {
  /** Absolute path of the bundled CommonJS preload. */
  readonly preload: string;
  /** The page to load (our `app://` entry, or the dev server in development). */
  readonly url: string;
  readonly policy: NavigationPolicy;
  readonly title?: string;
}

export function createAppWindow(options: AppWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 420,
    title: options.title ?? 'AgentTeam',
    // Shown once painted, so a slow first load never flashes a blank white window.
    show: false,
    webPreferences: { ...HARDENED_WEB_PREFERENCES, preload: options.preload },
  });
  // Also applied by `web-contents-created`; repeating it here keeps this factory safe on its own.
  hardenWebContents(window.webContents, options.policy);
  denyAllPermissions(window.webContents.session);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}
