/**
 * Picks the transport at startup: Electron IPC when the preload bridge exists, else the
 * WebSocket of `agentteam serve` with the token from the page URL (and the operator key from its
 * fragment, issue 29).
 */
import type { ClientApi } from '../../../shared/api/contract.js';
import { hostWindow, ipcClient, type HostWindow } from './ipc-client.js';
import { createWsClient, wsUrlFor, type Authority, type ConnectionState, type Watched } from './ws-client.js';
import { WS_OPERATOR_PARAM, type HandoverAnswer, type HandoverRequest } from '../../../shared/api/ws-protocol.js';
import { copy } from '../i18n/copy.js';

export type Transport =
  | { readonly kind: 'ipc'; readonly api: ClientApi; readonly connection: null; readonly authority: null }
  | {
      readonly kind: 'ws';
      readonly api: ClientApi;
      readonly connection: Watched<ConnectionState>;
      /** issue 40 item 1: whether this tab speaks as the operator (a restart may have taken it away). */
      readonly authority: Watched<Authority>;
    }
  | { readonly kind: 'none'; readonly reason: 'no_token' };

const OPERATOR_STORAGE_KEY = 'agentteam.operatorKey';
/** issue 40 item 1: this tab's hand-over secret for the next start (never sent anywhere but to the daemon). */
const HANDOVER_STORAGE_KEY = 'agentteam.operatorHandover';

function stored(win: HostWindow, key: string): string | undefined {
  try {
    return win.sessionStorage?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(win: HostWindow, key: string, value: string): void {
  try {
    win.sessionStorage?.setItem(key, value);
  } catch {
    // No storage (a locked-down browser): the value still works until this page reloads.
  }
}

/** The operator key in the address bar's fragment (`#operator=`), taken out of it (kept for the tab). */
function keyFromFragment(win: HostWindow): string | undefined {
  const fromUrl = new URLSearchParams((win.location.hash ?? '').replace(/^#/, '')).get(WS_OPERATOR_PARAM);
  if (fromUrl === null || fromUrl === '') return undefined;
  store(win, OPERATOR_STORAGE_KEY, fromUrl);
  try {
    win.history?.replaceState(null, '', win.location.search);
  } catch {
    // The key still works; it just stays visible in the address bar.
  }
  return fromUrl;
}

/**
 * issue 29: the operator key from the printed URL's fragment (`#operator=`), kept for this tab in
 * sessionStorage and taken out of the address bar (so a bookmark or a shared screen lacks it).
 * A tab opened without it is not the operator's: it connects to nothing (issue 41) and says what to open.
 */
export function operatorKeyOf(win: HostWindow): string | undefined {
  return keyFromFragment(win) ?? stored(win, OPERATOR_STORAGE_KEY);
}

/** A fresh hand-over secret: 256 random bits, base64url. */
function newSecret(win: HostWindow): string | undefined {
  const bytes = win.crypto?.getRandomValues(new Uint8Array(32));
  if (bytes === undefined) return undefined;
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * issue 40 item 1: the page's side of the operator hand-over (main/serve/operator-handover.ts says
 * why it is safe). On each open the tab presents its key, the secret it gave the previous start and
 * a fresh one; when the daemon grants it, the tab keeps the key it answered (a later start's, after
 * a restart) and the fresh secret — both in this tab's sessionStorage only.
 */
function operatorPort(win: HostWindow, key: () => string | undefined) {
  return {
    handover(): HandoverRequest {
      const current = key();
      const secret = stored(win, HANDOVER_STORAGE_KEY);
      const next = newSecret(win) ?? '';
      return {
        ...(current === undefined ? {} : { key: current }),
        ...(secret === undefined ? {} : { secret }),
        next,
      };
    },
    answered(answer: HandoverAnswer, sent: HandoverRequest): void {
      if (!answer.operator) return;
      store(win, OPERATOR_STORAGE_KEY, answer.key);
      store(win, HANDOVER_STORAGE_KEY, sent.next);
    },
  };
}

export function pickTransport(win: HostWindow = hostWindow()): Transport {
  const ipc = ipcClient(win);
  if (ipc !== null) return { kind: 'ipc', api: ipc, connection: null, authority: null };
  const token = new URLSearchParams(win.location.search).get('token');
  if (token === null || token === '') return { kind: 'none', reason: 'no_token' };
  // issue 41: without the operator key every call but limits.get is refused (api-names.ts
  // TOKEN_CALL_NAMES): say which URL to open instead of a page of refusals.
  const operatorKey = operatorKeyOf(win);
  if (operatorKey === undefined) return { kind: 'none', reason: 'no_token' };
  const key = () => stored(win, OPERATOR_STORAGE_KEY) ?? operatorKey;
  const client = createWsClient(() => wsUrlFor(win.location, token, key()), {
    operator: operatorPort(win, key),
    // issue 40 item 1: a refusal for want of the operator's key says in one line what to do.
    refusal: (code, message) =>
      code === 'operator_only'
        ? copy(win.document?.documentElement.lang === 'zh-CN' ? 'zh-CN' : 'en', 'connection.notOperator')
        : message,
  });
  // issue 40 item 1: the URL `agentteam url` prints, pasted into this tab, changes only the fragment
  // (no reload): its key is taken and the connection made again with it.
  win.addEventListener?.('hashchange', () => {
    if (keyFromFragment(win) !== undefined) client.reconnect();
  });
  return { kind: 'ws', api: client.api, connection: client.connection, authority: client.authority };
}
