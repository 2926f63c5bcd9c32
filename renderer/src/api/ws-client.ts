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
import {
  HandoverAnswerSchema,
  WS_API_PATH,
  WS_HANDOVER_CALL,
  WS_OPERATOR_PARAM,
  WsServerFrameSchema,
  eventsOfFrame,
  type HandoverAnswer,
  type HandoverRequest,
} from '../../../shared/api/ws-protocol.js';
import { isApiEventName } from '../../../shared/api/api-names.js';
import { buildClientApi } from '../../../shared/api/client-api.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/**
 * issue 40 item 1: whether this page speaks as the operator on its connection — `unknown` until
 * the daemon answered its hand-over, `lost` when the daemon (a later start) did not take it.
 */
export type Authority = 'unknown' | 'operator' | 'lost';

/** A small store of one value (the connection's state, its authority). */
export interface Watched<T> {
  get(): T;
  subscribe(listener: (value: T) => void): () => void;
}

export interface WsClient {
  readonly api: ClientApi;
  readonly connection: Watched<ConnectionState>;
  readonly authority: Watched<Authority>;
  /** Connects again now (a new operator key was pasted into the address bar). */
  reconnect(): void;
  close(): void;
}

/**
 * issue 40 item 1: the page's side of the operator hand-over (main/serve/operator-handover.ts):
 * what to present first on each open, and what the daemon answered to it.
 */
export interface OperatorPort {
  handover(): HandoverRequest;
  answered(answer: HandoverAnswer, sent: HandoverRequest): void;
}

export interface WsClientOptions {
  readonly makeSocket?: (url: string) => WebSocket;
  readonly operator?: OperatorPort;
  /**
   * issue 40 item 1: the words a refusal is shown with where it was clicked; an `operator_only`
   * refusal says in one line what to do (the daemon's own sentence speaks to any client).
   */
  readonly refusal?: (code: string, message: string) => string;
}

function watched<T>(initial: T): Watched<T> & { set(value: T): void } {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of [...listeners]) l(next);
    },
  };
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

export function createWsClient(url: string | (() => string), options: WsClientOptions = {}): WsClient {
  const makeSocket = options.makeSocket ?? ((u: string) => new WebSocket(u));
  const urlNow = typeof url === 'string' ? () => url : url;
  let socket: WebSocket | null = null;
  const connection = watched<ConnectionState>('connecting');
  const authority = watched<Authority>('unknown');
  let closedByUs = false;
  let attempt = 0;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  /** Frames of calls made while disconnected, sent in order on open. */
  const queue = new Map<number, string>();
  const eventListeners = new Set<(event: ApiEvent) => void>();
  /** The id of this open's hand-over and what it presented (its answer is the client's, not a caller's). */
  let handover: { id: number; sent: HandoverRequest } | null = null;
  const setState = connection.set;

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
    if ('id' in f && handover !== null && f.id === handover.id) return onHandover(f, handover.sent);
    // issue 30: one event, or the events of one stretch of the daemon's code in one message, in
    // order; React renders once for them all (they are handled in this one task).
    if ('event' in f || 'events' in f) {
      for (const e of eventsOfFrame(f)) dispatch(e.event, e.payload);
      return;
    }
    const p = pending.get(f.id);
    if (p === undefined) return;
    pending.delete(f.id);
    if (!f.ok) {
      // A refusal for want of the operator's key: this page is not the operator's (any more).
      if (f.code === 'operator_only') authority.set('lost');
      const message = options.refusal?.(f.code, f.message) ?? f.message;
      return p.resolve({ ok: false, code: f.code, message });
    }
    const value = apiCalls[p.name].response.safeParse(f.value);
    p.resolve(
      value.success
        ? { ok: true, value: value.data }
        : { ok: false, code: 'internal', message: `${p.name}: the daemon answered with an unexpected shape.` },
    );
  }

  /** Calls in flight on a lost connection have an unknown outcome; say so instead of resending. */
  function failInFlight(): void {
    for (const [id, p] of pending) {
      if (queue.has(id)) continue;
      pending.delete(id);
      p.resolve({
        ok: false,
        code: 'unavailable',
        message: 'The connection to the daemon was lost; check before retrying.',
      });
    }
  }

  function onHandover(f: { ok: boolean; value?: unknown }, sent: HandoverRequest): void {
    handover = null;
    const answer = f.ok ? HandoverAnswerSchema.safeParse(f.value) : null;
    if (answer?.success !== true) return authority.set('lost');
    options.operator?.answered(answer.data, sent);
    authority.set(answer.data.operator ? 'operator' : 'lost');
  }

  function connect(): void {
    setState('connecting');
    const ws = makeSocket(urlNow());
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      // issue 40 item 1: the hand-over goes first, so what follows is answered with its outcome.
      if (options.operator !== undefined) {
        const sent = options.operator.handover();
        handover = { id: nextId++, sent };
        ws.send(JSON.stringify({ id: handover.id, call: WS_HANDOVER_CALL, request: sent }));
      }
      setState('open');
      for (const frame of queue.values()) ws.send(frame);
      queue.clear();
    };
    ws.onmessage = (e: MessageEvent) => onFrame(e.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      handover = null;
      failInFlight();
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
    connection: { get: connection.get, subscribe: connection.subscribe },
    authority: { get: authority.get, subscribe: authority.subscribe },
    reconnect() {
      // The old socket's close is ignored (socket !== ws); its calls in flight are told the outcome is unknown.
      const old = socket;
      if (old === null) return;
      socket = null;
      handover = null;
      old.close(1000);
      failInFlight();
      attempt = 0;
      connect();
    },
    close() {
      closedByUs = true;
      socket?.close(1000);
    },
  };
}
