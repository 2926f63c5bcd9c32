/**
 * HTTP + SSE client for one `opencode serve` process on 127.0.0.1 (research/runtimes.md §3
 * "OpenCode"), with basic auth as user `opencode` and the per-process password the daemon set
 * in `OPENCODE_SERVER_PASSWORD`. Calls return values, never throw: a refused or unreachable
 * server is an `HttpFailure` with the status (0 when the connection failed).
 */
import { request, type IncomingMessage } from 'node:http';
import type { OpencodeEvent } from './opencode-events.js';
import { createOpencodeEventDecoder, type OpencodeBadFrame } from './opencode-sse.js';

export type { OpencodeEvent };

export type HttpResult<T> =
  | { readonly ok: true; readonly status: number; readonly body: T }
  | { readonly ok: false; readonly status: number; readonly message: string };

export interface EventStream {
  close(): void;
  /** Resolves when the stream ends (server gone or closed by us). */
  readonly ended: Promise<void>;
}

/**
 * The REST bodies the adapter reads (research/runtimes.md §3 "OpenCode"; the server's own
 * OpenAPI at `GET /doc`: `Session`, `MCPStatus`). Only the fields read are written out.
 */
export interface OpencodeSessionInfo {
  readonly id: string;
}

/** `MCPStatus`, by `status`; `GET /mcp` answers one per configured server name. */
export type OpencodeMcpStatus =
  | { readonly status: 'connected' | 'disabled' | 'needs_auth' }
  | { readonly status: 'failed' | 'needs_client_registration'; readonly error: string };

/** `POST /session/:id/prompt_async` (answers 204). */
export interface OpencodePromptBody {
  readonly parts: readonly { readonly type: 'text'; readonly text: string }[];
}

const MAX_ERROR_BODY = 300;

export class OpencodeClient {
  readonly #port: number;
  readonly #auth: string;

  constructor(port: number, password: string) {
    this.#port = port;
    this.#auth = `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** One JSON request; an empty 2xx body (`prompt_async` answers 204) is `null`. */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    timeoutMs = 15_000,
  ): Promise<HttpResult<T>> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.#port,
          method,
          path,
          headers: {
            authorization: this.#auth,
            accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300)
              return resolve({
                ok: false,
                status,
                message: `${method} ${path} answered ${status}: ${text.slice(0, MAX_ERROR_BODY)}`,
              });
            if (text.trim() === '') return resolve({ ok: true, status, body: null as T });
            try {
              resolve({ ok: true, status, body: JSON.parse(text) as T });
            } catch {
              resolve({ ok: false, status, message: `${method} ${path} answered non-JSON` });
            }
          });
          res.on('error', (err) => resolve({ ok: false, status: 0, message: err.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', (err) => resolve({ ok: false, status: 0, message: err.message }));
      req.end(payload);
    });
  }

  /**
   * Subscribes to `GET /event` (SSE of `{type, properties}`, decoded by ./opencode-sse.ts).
   * Resolves once the response headers arrived (connected) or with a failure. A frame that
   * cannot be decoded goes to `onBad` (when given) and the stream goes on.
   */
  events(
    onEvent: (e: OpencodeEvent) => void,
    onBad?: (bad: OpencodeBadFrame) => void,
  ): Promise<HttpResult<EventStream>> {
    return new Promise((resolve) => {
      let endResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endResolve = r));
      const req = request(
        {
          host: '127.0.0.1',
          port: this.#port,
          method: 'GET',
          path: '/event',
          headers: { authorization: this.#auth, accept: 'text/event-stream' },
        },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            res.resume();
            endResolve();
            return resolve({ ok: false, status, message: `GET /event answered ${status}` });
          }
          // utf8 decoding keeps a character split across chunks whole; the decoder keeps a split frame.
          res.setEncoding('utf8');
          const decoder = createOpencodeEventDecoder(onEvent, onBad);
          res.on('data', (chunk: string) => decoder.feed(chunk));
          res.on('end', endResolve);
          res.on('close', endResolve);
          res.on('error', endResolve);
          resolve({ ok: true, status, body: { close: () => req.destroy(), ended } });
        },
      );
      req.on('error', (err) => {
        endResolve();
        resolve({ ok: false, status: 0, message: err.message });
      });
      req.end();
    });
  }
}
