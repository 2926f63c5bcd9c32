/**
 * Guards every web contents gets, whatever created it (research/electron-style.md (c) 11–15):
 * no new windows, navigation only within our origin, no `<webview>`, every permission denied.
 * `app.on('web-contents-created')` applies them to any contents, so a window or frame made
 * anywhere else in the app cannot slip past.
 */
import { shell, type Session, type WebContents } from 'electron';
import { isAppUrl } from './app-protocol.js';

export interface NavigationPolicy {
  /** Whether a top-level navigation to `url` stays in the app. */
  isAllowedUrl(url: string): boolean;
  /** What happens with an https link the page asks to open (the system browser in the app). */
  openExternal(url: string): void;
}

/** The policy of the packaged app: only `app://agentteam/...`; https links go to the system browser. */
export function appNavigationPolicy(extraOrigins: readonly string[] = []): NavigationPolicy {
  return {
    isAllowedUrl: (url) => isAppUrl(url) || extraOrigins.some((origin) => sameOrigin(url, origin)),
    openExternal: (url) => void openExternalHttps(url),
  };
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/**
 * `shell.openExternal` only for well-formed https URLs (security checklist 15): never a
 * `file:`, `javascript:`, custom scheme or anything the OS would execute.
 */
export async function openExternalHttps(url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return false;
  await shell.openExternal(parsed.href);
  return true;
}

/** Applies the navigation guards to one web contents. */
export function hardenWebContents(contents: WebContents, policy: NavigationPolicy): void {
  // checklist 14: no new windows, ever; an https link is handed to the system browser.
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https:')) policy.openExternal(url);
    return { action: 'deny' };
  });
  // checklist 13: a URL-parser allowlist for every navigation and redirect.
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!policy.isAllowedUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', (event) => guard(event, event.url));
  contents.on('will-frame-navigate', (event) => guard(event, event.url));
  contents.on('will-redirect', (event) => guard(event, event.url));
  // checklist 11–12: no <webview> can be attached.
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Checklist 5: every permission request and check is refused (notifications come from main, not the page). */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
