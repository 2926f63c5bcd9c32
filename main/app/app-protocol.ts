/**
 * The `app://` protocol: the renderer is served from `app://agentteam/…` out of the built
 * `out/renderer` folder, never from `file://` (research/electron-style.md (c) 18), with the
 * strict CSP as a response header so it holds even if the page's own `<meta>` is edited.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';
import { RENDERER_CSP } from '../../shared/csp.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'agentteam';
/** Our origin. Compare with `isAppUrl`, not `new URL(x).origin`: Node reports "null" as the origin of non-special schemes. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Whether `url` is on our origin (`app://agentteam/...`). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Must run before `app.whenReady()`: a standard + secure scheme gets a real origin
 * (relative URLs, localStorage, CSP 'self') and counts as a secure context.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

/**
 * Answers one `app://` request from `rootDir`. Pure of Electron so it is tested directly:
 * only GET/HEAD, only our host, no path escaping `rootDir`, unknown paths → 404.
 */
export async function serveAppRequest(rootDir: string, request: Request): Promise<Response> {
  const headers = { 'content-security-policy': RENDERER_CSP, 'x-content-type-options': 'nosniff' };
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('method not allowed', { status: 405, headers });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return new Response('bad request', { status: 400, headers });
  }
  if (url.host !== APP_HOST) return new Response('not found', { status: 404, headers });
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return new Response('bad request', { status: 400, headers });
  }
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const root = resolve(rootDir);
  const file = resolve(root, `.${pathname}`);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..') || pathname.includes('\0')) {
    return new Response('not found', { status: 404, headers });
  }
  try {
    const body = await readFile(file);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { ...headers, 'content-type': type },
    });
  } catch {
    return new Response('not found', { status: 404, headers });
  }
}

/** Serves `rootDir` on `app://` for the default session. Call after `app.whenReady()`. */
export function handleAppProtocol(rootDir: string): () => void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rootDir, request));
  return () => protocol.unhandle(APP_SCHEME);
}
