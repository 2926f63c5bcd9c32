/**
 * `ClientApi` over Electron IPC: the preload exposes exactly `ClientApi` as `window.agentteam`
 * (one named method per call). Returns null outside Electron.
 */
import type { ClientApi } from '../../../shared/api/contract.js';

declare global {
  interface Window {
    readonly agentteam?: ClientApi;
  }
}

export function ipcClient(win: Window = window): ClientApi | null {
  const api = win.agentteam;
  // A partial bridge (an old or broken preload) is treated as absent rather than half-working.
  if (api === undefined || typeof api.events?.subscribe !== 'function' || typeof api.messages?.send !== 'function') return null;
  return api;
}
