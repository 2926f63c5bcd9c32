/**
 * Builds the `ClientApi` object from the contract's call names, over a minimal IPC port so it
 * is tested without Electron. Only this file's output crosses the context bridge.
 */
import {
  apiCalls,
  apiEvents,
  channelOf,
  splitCallName,
  type ApiCallName,
  type ApiEvent,
  type ApiEventName,
  type ClientApi,
} from '../shared/api/contract.js';

export interface PreloadIpc {
  invoke(channel: string, request: unknown): Promise<unknown>;
  /** Listens on one channel; returns the function that stops listening. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

export function buildClientApi(ipc: PreloadIpc): ClientApi {
  const domains: Record<string, Record<string, (request: unknown) => Promise<unknown>>> = {};
  for (const name of Object.keys(apiCalls) as ApiCallName[]) {
    const [domain, verb] = splitCallName(name);
    const channel = channelOf(name);
    // The request is passed as given: the main-side gate parses it (never trust the renderer).
    (domains[domain] ??= {})[verb] = (request: unknown) => ipc.invoke(channel, request ?? {});
  }
  const eventNames = Object.keys(apiEvents) as ApiEventName[];
  const events = {
    subscribe(listener: (event: ApiEvent) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('events.subscribe needs a function');
      const stops = eventNames.map((name) =>
        ipc.on(channelOf(name), (payload) => listener({ name, payload } as ApiEvent)),
      );
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        for (const stop of stops) stop();
      };
    },
  };
  const api: Record<string, unknown> = { events: Object.freeze(events) };
  for (const [domain, methods] of Object.entries(domains)) api[domain] = Object.freeze(methods);
  return Object.freeze(api) as ClientApi;
}
