/**
 * Builds the `ClientApi` (one named method per call, grouped by domain, plus `events.subscribe`)
 * from a transport's generic invoke and subscribe. Both transports use it: the preload over
 * `ipcRenderer`, the renderer's WebSocket client over `agentteam serve`. The generic function
 * stays inside the transport; components only see named methods (STYLE.md habit 3).
 * Zod-free (types only from contract.ts) so the preload bundles no schema.
 */
import { API_CALL_NAMES, splitCallName, type ApiCallName } from './api-names.js';
import type { ApiEvent, ClientApi } from './contract.js';

/** Carries one call; the request is passed as given (the daemon-side gate parses it: never trust the renderer). */
export type Invoke = (name: ApiCallName, request: unknown) => Promise<unknown>;
export type Subscribe = (listener: (event: ApiEvent) => void) => () => void;

export function buildClientApi(invoke: Invoke, subscribe: Subscribe): ClientApi {
  const domains: Record<string, Record<string, (request: unknown) => Promise<unknown>>> = {};
  for (const name of API_CALL_NAMES) {
    const [domain, verb] = splitCallName(name);
    (domains[domain] ??= {})[verb] = (request: unknown) => invoke(name, request ?? {});
  }
  const api: Record<string, unknown> = { events: Object.freeze({ subscribe }) };
  for (const [domain, methods] of Object.entries(domains)) api[domain] = Object.freeze(methods);
  return Object.freeze(api) as ClientApi;
}
