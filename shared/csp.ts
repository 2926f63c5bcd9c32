/**
 * The renderer's Content Security Policy, one source (issue 41: the `app://` header, serve's header
 * and renderer/index.html's `<meta>` each had their own, and disagreed on `connect-src`). When a
 * page has both a header and a `<meta>` policy the browser enforces both, so a disagreement is
 * at best dead text and at worst blocks the UI's own WebSocket.
 *
 * `connect-src 'self'` covers serve's WebSocket: the UI opens `ws://<the page's host>/api`
 * (renderer/src/api/ws-client.ts `wsUrlFor`), and CSP Level 3 §6.7.2.8 lets `'self'` match `ws:`
 * on the page's own host and port when the page is `http:`. The Electron window talks over IPC only.
 * No inline script, no eval, no plugins, no framing, no form posts (issue 9); inline styles for
 * React's `style` attributes only.
 */
const DIRECTIVES: ReadonlyArray<readonly [string, string]> = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

/** CSP3 §6.1: directives a `<meta>` policy may not carry (the browser ignores them there, with a warning). */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/** The header every response of the renderer carries (`app://` and `agentteam serve`). */
export const RENDERER_CSP = DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ');

/** The same policy as the `<meta>` of index.html (for a page loaded without the header: the dev server). */
export const RENDERER_META_CSP = DIRECTIVES.filter(([name]) => !HEADER_ONLY.has(name))
  .map(([name, value]) => `${name} ${value}`)
  .join('; ');

/** index.html with the `<meta>` policy as the first element of its `<head>` (electron.vite.config.ts). */
export function withMetaCsp(html: string): string {
  if (/http-equiv=["']?content-security-policy/i.test(html))
    throw new Error('renderer/index.html has a CSP <meta> of its own; the policy lives in shared/csp.ts only');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${RENDERER_META_CSP}" />`;
  return html.replace(/<head>/i, (head) => `${head}\n    ${meta}`);
}
