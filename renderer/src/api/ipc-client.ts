/**
 * `ClientApi` over Electron IPC: the preload exposes exactly `ClientApi` as `window.agentteam`
 * (one named method per call). Returns null outside Electron.
 */
import type { ClientApi } from '../../../shared/api/contract.js';

/** What transport choice reads from the page's global object (kept minimal so it is testable anywhere). */
export interface HostWindow {
  readonly agentteam?: ClientApi;
  readonly location: {
    readonly search: string;
    readonly protocol: string;
    readonly host: string;
    /** issue 29: `#operator=` of the URL `agentteam serve` printed. */
    readonly hash?: string;
  };
  /** issue 29: keeps the operator key of this tab across reloads once it left the address bar. */
  readonly sessionStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  readonly history?: { replaceState(data: unknown, unused: string, url?: string): void };
  /** issue 40 item 1: a pasted URL whose fragment carries a new operator key (`hashchange`). */
  addEventListener?(type: 'hashchange', listener: () => void): void;
  /** issue 40 item 1: the hand-over secrets (main/serve/operator-handover.ts). */
  readonly crypto?: { getRandomValues<T extends Uint8Array>(array: T): T };
  /** issue 40 item 1: the page's language, for the one line an `operator_only` refusal is shown with. */
  readonly document?: { readonly documentElement: { readonly lang: string } };
}

export const hostWindow = (): HostWindow => globalThis as unknown as HostWindow;

export function ipcClient(win: HostWindow = hostWindow()): ClientApi | null {
  const api = win.agentteam;
  // A partial bridge (an old or broken preload) is treated as absent rather than half-working.
  if (api === undefined || typeof api.events?.subscribe !== 'function' || typeof api.messages?.send !== 'function')
    return null;
  return api;
}
