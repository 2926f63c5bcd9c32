/**
 * The HTTP side of `agentteam serve` (issue 8): 127.0.0.1 only, the built renderer as static
 * files under a CSP, `GET /healthz`, `GET /metrics` (Prometheus text, token required) and the
 * WebSocket bridge at `/api` that carries the shared API contract unchanged. After the token
 * check, every call is answered by the daemon's API gate (main/daemon/api/api-gate.ts), the
 * same function the Electron IPC gate uses: the request is parsed before the daemon sees it,
 * and every answer is `{ok:true,value} | {ok:false,code,message}` (STYLE.md habit 9).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Subscription } from 'rxjs';
import type { ApiEvent } from '../../shared/api/contract.js';
import { isApiCallName, isLazyEvent, isOperatorCall } from '../../shared/api/api-names.js';
import {
  WS_API_PATH,
  WS_MAX_PAYLOAD_BYTES,
  WS_OPERATOR_PARAM,
  WS_EVENTS_PARAM,
  WS_NO_EVENTS,
  WS_HANDOVER_CALL,
  HandoverRequestSchema,
  WsRequestSchema,
  type WsResponse,
} from '../../shared/api/ws-protocol.js';
import { answerCall, checkedEvent } from '../daemon/api/api-gate.js';
import { describeIssues } from '../../shared/api/describe-issues.js';
import { handlersFor, limitsApi } from '../daemon/api/limits-api.js';
import type { DaemonLog } from '../daemon/daemon-log.js';
import type { Daemon } from '../daemon/daemon-types.js';
import { RENDERER_CSP } from '../../shared/csp.js';
import type { OperatorHandover } from './operator-handover.js';
import { tokenMatches } from './token.js';
import { WriteBatcher } from './write-batcher.js';

export interface ServeServerOptions {
  readonly daemon: Daemon;
  readonly token: string;
  /**
   * issue 29: this start's operator key (serve-command.ts makes it). A connection that presents it
   * (`?operator=`) may make every call; one with the serve token alone gets only what an agent may
   * (shared/api/api-names.ts `TOKEN_CALL_NAMES`, issue 41), and `operator_only` for the rest.
   */
  readonly operatorKey: string;
  /**
   * issue 40 item 1: a page of the previous start regains the operator's authority by its
   * hand-over secret (operator-handover.ts). Absent: `operator.handover` answers from the key alone.
   */
  readonly handover?: OperatorHandover;
  /** 0 picks a free port. */
  readonly port: number;
  /** The built renderer (`out/renderer`); null serves no UI (API and metrics only). */
  readonly rendererDir: string | null;
  readonly log?: DaemonLog;
  /**
   * Parse every daemon answer AND every pushed event against the contract too (development and
   * tests; default false, as packaged). Both come from our own typed daemon; one rule for both
   * (issue 19: checking each push cost ~0.5 ms CPU per wake under the 20-agent load).
   */
  readonly checkResponses?: boolean;
  /** How long `close()` waits for in-flight calls before closing sockets anyway. */
  readonly drainTimeoutMs?: number;
}

export interface ServeServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT/` (without the token). */
  readonly origin: string;
  /**
   * The URL a person opens: origin plus `?token=` and, in the fragment (never sent in a request,
   * so never in a log or a Referer), `#operator=` — the operator key the UI connects with.
   */
  readonly url: string;
  /** issue 41: origin plus `?token=` only — what is printed where the operator key must not go. */
  readonly urlWithoutOperatorKey: string;
  /** Stops accepting calls, lets in-flight calls finish, closes sockets and the listener. Idempotent. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** One WebSocket: whether it speaks as the operator (issue 29), and whether a browser opened it. */
interface Connection {
  operator: boolean;
  readonly browser: boolean;
}
/** A client that falls this far behind on pushed events is dropped; it reconnects and refetches. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Largest frame read at all: above the contract's limit, so an oversized call is answered, not just cut off. */
const WS_HARD_CAP_BYTES = 4 * WS_MAX_PAYLOAD_BYTES;

function frameBytes(data: WebSocket.RawData): number {
  return Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  // The page URL carries the token: never leak it in a Referer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** Where log lines go when the caller gives no log (tests, embedders). */
const SILENT_LOG: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

/** The token presented as `?token=` or `Authorization: Bearer`. */
function presentedToken(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  // RFC 7235 §2.1: the auth scheme is case-insensitive (`bearer`, `BEARER` are the same scheme).
  const bearer = typeof auth === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth) : null;
  if (bearer !== null) return bearer[1] ?? null;
  return url.searchParams.get('token');
}

/** Why an operator call was refused, and what the operator does instead (issue 29). */
export function operatorOnlyMessage(call: string): string {
  return (
    `${call} is the operator's to make: it is answered only for the AgentTeam UI opened from the URL "agentteam serve" ` +
    `(or "agentteam url") prints with the operator key, or for the operator's CLI, which reads that start's key from ` +
    `<data-dir>/operator-key (or AGENTTEAM_OPERATOR_KEY) — never for the serve token alone. Nothing was changed or read.`
  );
}

/** Starts the server; resolves once it listens on 127.0.0.1. */
export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const { daemon, token, operatorKey } = options;
  const log = options.log ?? SILENT_LOG;
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  let port = options.port;
  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  // `limits.get` is answered from the daemon's limits (issue 23).
  const limits = limitsApi(daemon.limits);

  // Guards against DNS rebinding: a page on another name resolving to 127.0.0.1 is refused.
  const hostAllowed = (host: string | undefined): boolean => host === `${HOST}:${port}` || host === `localhost:${port}`;
  const originAllowed = (origin: string | undefined): boolean =>
    // Browsers always send Origin on a WebSocket; the CLI (Node) sends none and authenticates by token.
    origin === undefined || origin === `http://${HOST}:${port}` || origin === `http://localhost:${port}`;

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
      ...headers,
    });
    res.end(body);
  };

  async function serveStatic(res: ServerResponse, pathname: string, head: boolean): Promise<void> {
    if (options.rendererDir === null) return send(res, 404, 'This server has no UI.\n');
    const root = normalize(options.rendererDir + sep);
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'Bad path.\n');
    }
    if (rel.includes('\0')) return send(res, 400, 'Bad path.\n');
    let file = normalize(join(root, rel));
    if (!file.startsWith(root) && file + sep !== root) return send(res, 403, 'Forbidden.\n');
    const isFile = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    // A route of the single-page app (no file extension) gets index.html.
    if (!isFile) {
      if (extname(rel) !== '') return send(res, 404, 'Not found.\n');
      file = join(root, 'index.html');
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return send(res, 503, 'The UI is not built yet; run "npm run build".\n');
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-store';
    res.writeHead(200, {
      'content-type': type,
      'content-length': String(body.length),
      'cache-control': cache,
      'content-security-policy': RENDERER_CSP,
      ...SECURITY_HEADERS,
    });
    res.end(head ? undefined : body);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host))
      return send(res, 421, 'Wrong host; open the URL printed by "agentteam serve".\n');
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    if (url.pathname === '/healthz') return send(res, closing ? 503 : 200, closing ? 'stopping\n' : 'ok\n');
    if (url.pathname === '/metrics') {
      if (!tokenMatches(token, presentedToken(req, url)))
        return send(res, 401, 'Missing or wrong token; use the token in <data-dir>/serve-token.\n', {
          'www-authenticate': 'Bearer',
        });
      const text = await daemon.metrics.metrics();
      return send(res, 200, text, { 'content-type': daemon.metrics.contentType });
    }
    if (url.pathname === WS_API_PATH) return send(res, 426, 'Upgrade to a WebSocket.\n', { upgrade: 'websocket' });
    return serveStatic(res, url.pathname, req.method === 'HEAD');
  }

  const http = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      log.error('serve: request failed', { error: String(err) });
      if (!res.headersSent) send(res, 500, 'Internal error.\n');
      else res.destroy();
    });
  });
  // Frames up to the hard cap are read so an oversized call gets a coded answer (issue 16); only a
  // frame beyond it is cut off by ws itself (close 1009) before it is held in memory.
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_HARD_CAP_BYTES });
  /** The connections that take pushed events, with their authority (only the operator's are sent any: see broadcast). */
  const clients = new Map<WebSocket, Connection>();
  const checkContract = options.checkResponses ?? false;
  // Every frame a client gets in one event-loop turn leaves in one socket write (issue 19: one
  // writev per push per client was ~2.4 ms of the daemon's CPU per wake with 20 agents at work).
  const batcher = new WriteBatcher((client, text) => {
    const ws = client as WebSocket;
    if (ws.readyState === ws.OPEN) ws.send(text);
  });

  const reject = (socket: Duplex, status: number, text: string): void => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (!hostAllowed(req.headers.host)) return reject(socket, 421, 'Misdirected Request');
    if (url.pathname !== WS_API_PATH) return reject(socket, 404, 'Not Found');
    if (!originAllowed(req.headers.origin)) return reject(socket, 403, 'Forbidden');
    if (!tokenMatches(token, presentedToken(req, url))) return reject(socket, 401, 'Unauthorized');
    if (closing) return reject(socket, 503, 'Service Unavailable');
    // A wrong or stale operator key (an earlier start's) is no error: the connection is just not the operator's.
    // issue 40 item 1: a page's `operator.handover` may make it the operator's later (per connection).
    const conn: Connection = {
      operator: tokenMatches(operatorKey, url.searchParams.get(WS_OPERATOR_PARAM)),
      browser: req.headers.origin !== undefined,
    };
    // issue 30: a calls-only connection (the CLI) is answered but not sent the pushed events.
    const events = url.searchParams.get(WS_EVENTS_PARAM) !== WS_NO_EVENTS;
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (events) clients.set(ws, conn);
      // ws writes its frames to this very socket: corking it keeps each frame whole and in order.
      batcher.track(ws, socket);
      ws.on('close', () => clients.delete(ws));
      ws.on('error', () => clients.delete(ws));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return ws.close(1003, 'text frames only');
        const size = frameBytes(data);
        if (size > WS_MAX_PAYLOAD_BYTES) return refuseOversized(ws, data, size);
        void answer(ws, data.toString(), conn);
      });
    });
  });

  /** A frame over the limit: a `content_too_large` answer to its call (the id read from its head); the socket stays open. */
  function refuseOversized(ws: WebSocket, data: WebSocket.RawData, size: number): void {
    const first = Array.isArray(data) ? data[0] : data;
    const head = (Buffer.isBuffer(first) ? first : Buffer.from(first ?? new ArrayBuffer(0)))
      .subarray(0, 256)
      .toString('utf8');
    const id = Number(/^\s*\{\s*"id"\s*:\s*(\d{1,15})\s*,/.exec(head)?.[1] ?? -1);
    const limit = daemon.limits?.maxMessageBytes;
    log.warn('serve: oversized websocket frame refused', { bytes: size, limit: WS_MAX_PAYLOAD_BYTES });
    if (ws.readyState === ws.OPEN)
      ws.send(
        JSON.stringify({
          id,
          ok: false,
          code: 'content_too_large',
          message: `The request is ${size} bytes; a WebSocket frame may be at most ${WS_MAX_PAYLOAD_BYTES} bytes${limit === undefined ? '' : ` and a message at most ${limit} bytes (limits.maxMessageBytes)`}. Split it or send less.`,
        } satisfies WsResponse),
      );
  }

  /**
   * issue 40 item 1: the page's hand-over, answered at once (before the frames after it are read,
   * so the calls it queued while disconnected are answered as the operator's when it is granted).
   */
  function handOver(id: number, conn: Connection, request: unknown): WsResponse {
    const parsed = HandoverRequestSchema.safeParse(request);
    if (!parsed.success)
      return {
        id,
        ok: false,
        code: 'invalid_request',
        message: `${WS_HANDOVER_CALL}: ${describeIssues(parsed.error.issues)}`,
      };
    // Only a browser page hands over (the CLI reads the key file); an Origin is no boundary, just the rule.
    const handover = conn.browser ? options.handover : undefined;
    const value =
      handover !== undefined
        ? handover.exchange(parsed.data, conn.operator)
        : conn.operator || tokenMatches(operatorKey, parsed.data.key)
          ? { operator: true as const, key: operatorKey }
          : { operator: false as const };
    conn.operator = value.operator;
    return { id, ok: true, value };
  }

  async function answer(ws: WebSocket, text: string, conn: Connection): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return ws.close(1007, 'not JSON');
    }
    const envelope = WsRequestSchema.safeParse(raw);
    if (!envelope.success)
      return ws.close(1008, `bad envelope: ${describeIssues(envelope.error.issues)}`.slice(0, 120));
    const { id, call, request } = envelope.data;
    const reply = (frame: WsResponse): void => {
      if (ws.readyState !== ws.OPEN) return;
      batcher.hold(ws);
      // The events pushed to this client before the answer go first (their order is kept).
      batcher.beforeAnswer(ws);
      ws.send(JSON.stringify(frame));
    };
    if (closing)
      return reply({
        id,
        ok: false,
        code: 'unavailable',
        message: 'The daemon is shutting down; try again when it is back.',
      });
    if (call === WS_HANDOVER_CALL) return reply(handOver(id, conn, request));
    if (!conn.operator && isApiCallName(call) && isOperatorCall(call)) {
      log.warn('serve: operator call refused without the operator key', { call });
      return reply({ id, ok: false, code: 'operator_only', message: operatorOnlyMessage(call) });
    }
    inFlight += 1;
    try {
      const result = await answerCall(handlersFor(call, daemon.api, limits), call, request, log, {
        checkResponse: options.checkResponses ?? false,
        transport: 'ws',
        ...(daemon.limits === undefined ? {} : { maxMessageBytes: daemon.limits.maxMessageBytes }),
      });
      reply({ id, ...result });
    } finally {
      inFlight -= 1;
      if (inFlight === 0 && drained !== null) drained();
    }
  }

  const broadcast = (event: ApiEvent): void => {
    if (clients.size === 0) return;
    const checked = checkContract ? checkedEvent(event, log, 'ws') : event;
    if (checked === null) return;
    // Serialised once for every client.
    const frame = JSON.stringify({ event: checked.name, payload: checked.payload });
    const lazy = isLazyEvent(checked.name);
    for (const [ws, conn] of clients) {
      // Pushed events carry every conversation's messages, approvals and wakes: they are the
      // operator's to read (issues 29, 41). A connection with the serve token alone — which an agent
      // can read in the data dir — gets none; a page that gains authority (operator.handover) gets
      // them from then on.
      if (!conn.operator) continue;
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.terminate();
        continue;
      }
      // issue 30: with the others pushed to it in this stretch, as one message.
      batcher.push(ws, frame, lazy);
    }
  };
  const subscription: Subscription = daemon.events$.subscribe({
    next: broadcast,
    error: (err: unknown) => log.error('serve: daemon event stream failed', { error: String(err) }),
  });

  await new Promise<void>((resolve, rejectListen) => {
    http.once('error', rejectListen);
    http.listen(options.port, HOST, () => {
      http.off('error', rejectListen);
      resolve();
    });
  });
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('internal: server has no TCP address');
  port = address.port;
  const origin = `http://${HOST}:${port}/`;

  let closed: Promise<void> | null = null;
  async function close(): Promise<void> {
    closing = true;
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainTimeoutMs);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    subscription.unsubscribe();
    batcher.flush();
    for (const ws of clients.keys()) ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    // Sockets that ignore the close handshake must not hold shutdown.
    for (const ws of clients.keys()) ws.terminate();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  }

  return {
    port,
    origin,
    url: `${origin}?token=${encodeURIComponent(token)}#${WS_OPERATOR_PARAM}=${encodeURIComponent(operatorKey)}`,
    urlWithoutOperatorKey: `${origin}?token=${encodeURIComponent(token)}`,
    close: () => (closed ??= close()),
  };
}
