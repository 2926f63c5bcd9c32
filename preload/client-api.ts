/**
 * The preload's `ClientApi`: the shared builder over a minimal IPC port, so it is tested
 * without Electron. Only this file's output crosses the context bridge. It imports the
 * contract's names, never its zod schemas (the main-side gate parses every request).
 */
import { EVENTS_CHANNEL, channelOf, isApiEventName } from '../shared/api/api-names.js';
import { buildClientApi } from '../shared/api/client-api.js';
import type { ApiEvent, ClientApi } from '../shared/api/contract.js';

export interface PreloadIpc {
  invoke(channel: string, request: unknown): Promise<unknown>;
  /** Listens on one channel; returns the function that stops listening. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

/**
 * One named method per call, each a fixed `invoke` on its own channel; events from the one events
 * channel, each message the events of one stretch of the main process in order (issue 30).
 */
export function clientApiOverIpc(ipc: PreloadIpc): ClientApi {
  return buildClientApi(
    (name, request) => ipc.invoke(channelOf(name), request),
    (listener) => {
      if (typeof listener !== 'function') throw new TypeError('events.subscribe needs a function');
      const stop = ipc.on(EVENTS_CHANNEL, (batch) => {
        if (!Array.isArray(batch)) return;
        for (const e of batch as Array<{ name?: unknown; payload?: unknown }>)
          if (typeof e?.name === 'string' && isApiEventName(e.name))
            listener({ name: e.name, payload: e.payload } as ApiEvent);
      });
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        stop();
      };
    },
  );
}
