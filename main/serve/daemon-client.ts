/**
 * The CLI's connection to a running `agentteam serve`: the same WebSocket bridge and
 * envelope as the renderer, authenticated with the token in the data dir; the operator's
 * commands also present the operator key `agentteam serve` printed (issue 29). Expected failures
 * are values with a stable code and a one-line message (STYLE.md habit 9).
 */
import { resolve } from 'node:path';
import WebSocket from 'ws';
import {
  apiCalls,
  type ApiCallName,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
} from '../../shared/api/contract.js';
import {
  WS_API_PATH,
  WS_MAX_PAYLOAD_BYTES,
  WS_OPERATOR_PARAM,
  WS_EVENTS_PARAM,
  WS_NO_EVENTS,
  WsResponseSchema,
  type WsResponse,
} from '../../shared/api/ws-protocol.js';
import { pidAlive, readServeState } from './serve-state.js';
import { readOperatorKey, readToken } from './token.js';
import type { CliIo } from './serve-command.js';

export type ConnectError = { ok: false; code: 'no_daemon' | 'auth_failed'; message: string };

export interface DaemonClient {
  call<K extends ApiCallName>(name: K, request: ApiRequest<K>): Promise<ApiResult<ApiResponse<K>>>;
  close(): void;
}

/** `ws`'s error when a message is over `maxPayload` (it then closes with RFC 6455 code 1009). */
const WS_TOO_BIG = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

const noDaemon = (dataDir: string): ConnectError => ({
  ok: false,
  code: 'no_daemon',
  message: `no daemon is running for ${dataDir}; start one with "agentteam serve --data-dir ${dataDir}".`,
});

/** Connects to the daemon serving `dataDir`, or says why it cannot. */
export async function connectDaemon(
  dataDir: string,
  timeoutMs = 5000,
  // issue 29: the operator key of this start (AGENTTEAM_OPERATOR_KEY); issue 41: by default the one
  // `agentteam serve` keeps in <data-dir>/operator-key. Without it every call but limits.get is refused.
  operatorKey?: string,
): Promise<{ ok: true; client: DaemonClient } | ConnectError> {
  const state = await readServeState(dataDir);
  if (state === null || !pidAlive(state.pid)) return noDaemon(dataDir);
  const token = await readToken(dataDir);
  if (token === null)
    return {
      ok: false,
      code: 'auth_failed',
      message: `${dataDir}/serve-token is missing or unreadable; restart "agentteam serve --data-dir ${dataDir}".`,
    };
  // issue 30: the CLI only makes calls: no pushed events on its connection.
  const query = new URLSearchParams({ [WS_EVENTS_PARAM]: WS_NO_EVENTS });
  const key = operatorKey?.trim() || (await readOperatorKey(dataDir));
  if (key) query.set(WS_OPERATOR_PARAM, key);
  const ws = new WebSocket(`ws://127.0.0.1:${state.port}${WS_API_PATH}?${query.toString()}`, {
    headers: { authorization: `Bearer ${token}` },
    maxPayload: WS_MAX_PAYLOAD_BYTES,
    handshakeTimeout: timeoutMs,
  });
  const opened = await new Promise<true | ConnectError>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('unexpected-response', (_req, res) =>
      resolve(
        res.statusCode === 401
          ? {
              ok: false,
              code: 'auth_failed',
              message: `the daemon for ${dataDir} refused the token in serve-token; restart it.`,
            }
          : noDaemon(dataDir),
      ),
    );
    ws.once('error', () => resolve(noDaemon(dataDir)));
  });
  if (opened !== true) {
    ws.terminate();
    return opened;
  }
  let nextId = 1;
  const pending = new Map<number, (frame: WsResponse | null) => void>();
  ws.on('message', (data) => {
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return;
    }
    const parsed = WsResponseSchema.safeParse(frame);
    if (!parsed.success) return; // not a response (the connection asked for no events)
    pending.get(parsed.data.id)?.(parsed.data);
    pending.delete(parsed.data.id);
  });
  // issue 29: why the connection closed, so a too-large answer is not mistaken for a daemon shutting down.
  let tooBig = false;
  const lost = (): Extract<ApiResult<never>, { ok: false }> => ({
    ok: false,
    code: 'unavailable',
    message: tooBig
      ? `the daemon's answer was larger than the CLI accepts (${WS_MAX_PAYLOAD_BYTES} bytes per WebSocket message); ask for less (e.g. --limit or --target).`
      : 'the daemon closed the connection; is it shutting down?',
  });
  ws.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === WS_TOO_BIG) tooBig = true;
  });
  ws.on('close', () => {
    for (const resolve of pending.values()) resolve(null);
    pending.clear();
  });
  const client: DaemonClient = {
    async call(name, request) {
      if (ws.readyState !== WebSocket.OPEN) return lost();
      const id = nextId++;
      const parsed = await new Promise<WsResponse | null>((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, call: name, request }));
      });
      if (parsed === null) return lost();
      if (!parsed.ok) return { ok: false, code: parsed.code, message: parsed.message };
      const value = apiCalls[name].response.safeParse(parsed.value);
      if (!value.success)
        return {
          ok: false,
          code: 'internal',
          message: `the daemon answered ${name} with an unexpected shape; are the CLI and the daemon the same version?`,
        };
      return { ok: true, value: value.data as ApiResponse<typeof name> };
    },
    close() {
      ws.close(1000);
    },
  };
  return { ok: true, client };
}

/** Runs one CLI command against the running daemon of `dataDir`; with none running, one line and exit 1. */
export async function withDaemon(
  dataDir: string,
  io: CliIo,
  body: (client: DaemonClient) => Promise<number>,
  /** issue 29: a key from `AGENTTEAM_OPERATOR_KEY`; issue 41: else the one in <data-dir>/operator-key. */
  operatorKey?: string,
): Promise<number> {
  const connected = await connectDaemon(resolve(dataDir), 5000, operatorKey);
  if (!connected.ok) {
    io.err(`agentteam: ${connected.message}`);
    return 1;
  }
  try {
    return await body(connected.client);
  } finally {
    connected.client.close();
  }
}

/** Prints an API error as one line; invalid input is exit 2, anything else 1. */
export function failed(io: CliIo, result: Extract<ApiResult<unknown>, { ok: false }>): number {
  io.err(`agentteam: ${result.message} (${result.code})`);
  return ['invalid_request', 'invalid_target', 'unknown_target', 'content_too_large'].includes(result.code) ? 2 : 1;
}
