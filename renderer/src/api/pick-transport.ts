/**
 * Picks the transport at startup: Electron IPC when the preload bridge exists, else the
 * WebSocket of `agentteam serve` with the token from the page URL.
 */
import type { ClientApi } from '../../../shared/api/contract.js';
import { hostWindow, ipcClient, type HostWindow } from './ipc-client.js';
import { createWsClient, wsUrlFor, type ConnectionState } from './ws-client.js';

export type Transport =
  | { readonly kind: 'ipc'; readonly api: ClientApi; readonly connection: null }
  | {
      readonly kind: 'ws';
      readonly api: ClientApi;
      readonly connection: { get(): ConnectionState; subscribe(l: (s: ConnectionState) => void): () => void };
    }
  | { readonly kind: 'none'; readonly reason: 'no_token' };

export function pickTransport(win: HostWindow = hostWindow()): Transport {
  const ipc = ipcClient(win);
  if (ipc !== null) return { kind: 'ipc', api: ipc, connection: null };
  const token = new URLSearchParams(win.location.search).get('token');
  if (token === null || token === '') return { kind: 'none', reason: 'no_token' };
  const client = createWsClient(wsUrlFor(win.location, token));
  return { kind: 'ws', api: client.api, connection: client.connection };
}
