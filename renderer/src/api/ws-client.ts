/**
 * `ClientApi` over the WebSocket bridge of `agentteam serve` (the token comes from the page
 * URL's `?token=`). Calls made while disconnected wait for the connection; the client
 * reconnects with backoff, and listeners hear `connection` changes so the app can refetch
 * what it may have missed.
 */
import {
  apiCalls,
  apiEvents,
  type ApiCallName,
  type ApiEvent,
  type ApiResult,
  type ClientApi,
} from '../../../shared/api/contract.js';
import { WS_API_PATH, WS_OPERATOR_PARAM, WsServerFrameSchema, eventsOfFrame } from '../../../shared/api/ws-protocol.js';
import { isApiEventName } from '../../../shared/api/api-names.js';
import { buildClientApi } from '../../../shared/api/client-api.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface WsClient {
  readonly api: ClientApi;
  readonly connection: { get(): ConnectionState; subscribe(listener: (state: ConnectionState) => void): () => void };
  close(): void;
}

interface Pending {
  readonly name: ApiCallName;
  resolve(result: ApiResult<unknown>): void;
}

/**
 * The `ws://host/api?token=` URL for a page served at `location`, with `&operator=` when the page
 * was opened with this start's operator key (issue 29: operator calls need it).
 */
export function wsUrlFor(location: { protocol: string; host: string }, token: string, operatorKey?: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const operator = operatorKey ? `&${WS_OPERATOR_PARAM}=${encodeURIComponent(operatorKey)}` : '';
  return `${scheme}//${location.host}${WS_API_PATH}?token=${encodeURIComponent(token)}${operator}`;
}

export function createWsClient(
  url: string,
  makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
): WsClient {
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'connecting';
  let closedByUs = false;
  let attempt = 0;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  /** Frames of calls made while disconnected, sent in order on open. */
  const queue = new Map<number, string>();
  const eventListeners = new Set<(event: ApiEvent) => void>();
  const stateListeners = new Set<(s: ConnectionState) => void>();

  const setState = (s: ConnectionState): void => {
    if (s === state) return;
    state = s;
    for (const l of stateListeners) l(s);
  };

  function dispatch(name: string, raw: unknown): void {
    if (!isApiEventName(name)) return;
    const payload = apiEvents[name].safeParse(raw);
    if (!payload.success) return;
    const event = { name, payload: payload.data } as ApiEvent;
    for (const l of eventListeners) l(event);
  }

  function onFrame(data: unknown): void {
    if (typeof data !== 'string') return;
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      return;
    }
    const frame = WsServerFrameSchema.safeParse(raw);
    if (!frame.success) return;
    const f = frame.data;
    // issue 30: one event, or the events of one stretch of the daemon's code in one message, in
    // order; React renders once for them all (they are handled in this one task).
    if ('event' in f || 'events' in f) {
      for (const e of eventsOfFrame(f)) dispatch(e.event, e.payload);
      return;
    }
    const p = pending.get(f.id);
    if (p === undefined) return;
    pending.delete(f.id);
    if (!f.ok) return p.resolve({ ok: false, code: f.code, message: f.message });
    const value = apiCalls[p.name].response.safeParse(f.value);
    p.resolve(
      value.success
        ? { ok: true, value: value.data }
        : { ok: false, code: 'internal', message: `${p.name}: the daemon answered with an unexpected shape.` },
    );
  }

  function connect(): void {
    setState('connecting');
    const ws = makeSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setState('open');
      for (const frame of queue.values()) ws.send(frame);
      queue.clear();
    };
    ws.onmessage = (e: MessageEvent) => onFrame(e.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      // Calls in flight on a lost connection have an unknown outcome; say so instead of resending.
      for (const [id, p] of pending) {
        if (!queue.has(id)) {
          pending.delete(id);
          p.resolve({
            ok: false,
            code: 'unavailable',
            message: 'The connection to the daemon was lost; check before retrying.',
          });
        }
      }
      setState('closed');
      if (closedByUs) return;
      attempt += 1;
      setTimeout(connect, Math.min(5000, 200 * 2 ** Math.min(attempt, 5)));
    };
  }

  const invoke = (name: ApiCallName, request: unknown): Promise<ApiResult<unknown>> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, { name, resolve });
      const frame = JSON.stringify({ id, call: name, request });
      if (socket !== null && socket.readyState === WebSocket.OPEN) socket.send(frame);
      else queue.set(id, frame);
    });

  connect();
  return {
    api: buildClientApi(invoke, (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    }),
    connection: {
      get: () => state,
      subscribe(listener) {
        stateListeners.add(listener);
        return () => stateListeners.delete(listener);
      },
    },
    close() {
      closedByUs = true;
      socket?.close(1000);
    },
  };
}
