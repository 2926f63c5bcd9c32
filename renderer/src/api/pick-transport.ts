/**
 * Picks the transport at startup: Electron IPC when the preload bridge exists, else the
 * WebSocket of `agentteam serve` with the token from the page URL (and the operator key from its
 * fragment, issue 29).
 */
import type { ClientApi } from '../../../shared/api/contract.js';
import { hostWindow, ipcClient, type HostWindow } from './ipc-client.js';
import { createWsClient, wsUrlFor, type ConnectionState } from './ws-client.js';
import { WS_OPERATOR_PARAM } from '../../../shared/api/ws-protocol.js';

export type Transport =
  | { readonly kind: 'ipc'; readonly api: ClientApi; readonly connection: null }
  | {
      readonly kind: 'ws';
      readonly api: ClientApi;
      readonly connection: { get(): ConnectionState; subscribe(l: (s: ConnectionState) => void): () => void };
    }
  | { readonly kind: 'none'; readonly reason: 'no_token' };

const OPERATOR_STORAGE_KEY = 'agentteam.operatorKey';

/**
 * issue 29: the operator key from the printed URL's fragment (`#operator=`), kept for this tab in
 * sessionStorage and taken out of the address bar (so a bookmark or a shared screen lacks it).
 * A tab opened without it is not the operator's: it connects to nothing (issue 41) and says what to open.
 */
export function operatorKeyOf(win: HostWindow): string | undefined {
  const fromUrl = new URLSearchParams((win.location.hash ?? '').replace(/^#/, '')).get(WS_OPERATOR_PARAM);
  if (fromUrl !== null && fromUrl !== '') {
    try {
      win.sessionStorage?.setItem(OPERATOR_STORAGE_KEY, fromUrl);
      win.history?.replaceState(null, '', win.location.search);
    } catch {
      // No storage (a locked-down browser): the key still works until this page reloads.
    }
    return fromUrl;
  }
  try {
    return win.sessionStorage?.getItem(OPERATOR_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function pickTransport(win: HostWindow = hostWindow()): Transport {
  const ipc = ipcClient(win);
  if (ipc !== null) return { kind: 'ipc', api: ipc, connection: null };
  const token = new URLSearchParams(win.location.search).get('token');
  if (token === null || token === '') return { kind: 'none', reason: 'no_token' };
  // issue 41: without the operator key every call but limits.get is refused (api-names.ts
  // TOKEN_CALL_NAMES): say which URL to open instead of a page of refusals.
  const operatorKey = operatorKeyOf(win);
  if (operatorKey === undefined) return { kind: 'none', reason: 'no_token' };
  const client = createWsClient(wsUrlFor(win.location, token, operatorKey));
  return { kind: 'ws', api: client.api, connection: client.connection };
}
