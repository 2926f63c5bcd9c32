/**
 * JSON-RPC over newline-delimited JSON, as `codex app-server` speaks it on stdio
 * (research/runtimes.md §3: one object per line, no `jsonrpc` field). Three kinds of lines
 * arrive: responses to our requests, notifications, and server→client requests that must be
 * answered (approvals, elicitation) — at once, or later when the operator must decide (issue 14).
 *
 * Messages are typed by the protocol generated from the installed CLI (./codex-protocol.ts):
 * requests by method, notifications as the `ServerNotification` union and server requests as
 * the `ServerRequest` union, both discriminated by `method`. The client checks the envelope
 * only (a `method` string, an `id`); the params are the CLI's own, pinned by its version and the
 * drift test of ./generated/. A method a newer CLI adds still arrives and falls to `default:`.
 */
import type { Readable, Writable } from 'node:stream';
import type {
  ClientNotificationMethod,
  ClientRequestArgs,
  ClientRequestMethod,
  ClientResponse,
  ServerNotification,
  ServerRequest,
} from './codex-protocol.js';
import { LineReader, type DroppedLine } from '../line-reader.js';

export type JsonRpcId = number | string;

export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type RpcResult<T = unknown> =
  { readonly ok: true; readonly result: T } | { readonly ok: false; readonly error: RpcError };

/** A server→client notification: the generated union, discriminated by `method`. */
export type RpcNotification = ServerNotification;

/** A server→client request (must be answered): the generated union, discriminated by `method`. */
export type RpcServerRequest = ServerRequest;

export interface CodexRpcHandlers {
  onNotification(n: RpcNotification): void;
  /** Must answer every server request: a result, or an error (later, for an operator's approval: issue 14). */
  onServerRequest(
    r: RpcServerRequest,
  ):
    | { readonly result: unknown }
    | { readonly error: RpcError }
    | Promise<{ readonly result: unknown } | { readonly error: RpcError }>;
  /** A line that is not JSON-RPC (diagnostics only). */
  onBadLine?(line: string): void;
  /** issue 29: a line over the reader's cap was dropped (its length only; the stream goes on). */
  onDroppedLine?(dropped: DroppedLine): void;
  /** stdout closed: every pending request resolves with an error. */
  onClose?(): void;
}

/** Pending requests are answered with this when the stream closes. */
export const RPC_CLOSED: RpcError = { code: -32099, message: 'the runtime closed its stdio before answering' };

export class CodexRpcClient {
  readonly #out: Writable;
  readonly #pending = new Map<JsonRpcId, (r: RpcResult) => void>();
  #nextId = 1;
  #closed = false;

  constructor(input: Readable, output: Writable, handlers: CodexRpcHandlers, maxLineChars?: number) {
    this.#out = output;
    // issue 29: the shared bounded reader (linear, capped), not an unbounded readline buffer.
    const lines = new LineReader({
      ...(maxLineChars === undefined ? {} : { maxLineChars }),
      onDropped: (d) => handlers.onDroppedLine?.(d),
    });
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) this.#onLine(line, handlers);
    });
    const close = () => {
      if (this.#closed) return;
      const rest = lines.end();
      if (rest !== null) this.#onLine(rest, handlers);
      this.#closed = true;
      for (const resolve of this.#pending.values()) resolve({ ok: false, error: RPC_CLOSED });
      this.#pending.clear();
      handlers.onClose?.();
    };
    input.on('end', close);
    input.on('close', close);
    // A write to a dead process must not crash the daemon; the close path reports it.
    output.on('error', () => undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** A request typed by method: params from the generated `ClientRequest`, result from `ClientResponses`. */
  request<M extends ClientRequestMethod>(
    method: M,
    ...params: ClientRequestArgs<M>
  ): Promise<RpcResult<ClientResponse<M>>>;
  request(method: string, params?: unknown): Promise<RpcResult> {
    if (this.#closed) return Promise.resolve({ ok: false, error: RPC_CLOSED });
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#write({ id, method, params });
    });
  }

  /** The protocol's client notifications carry no params (`ClientNotification`). */
  notify(method: ClientNotificationMethod): void {
    this.#write({ method });
  }

  #write(message: Record<string, unknown>): void {
    if (this.#closed || this.#out.destroyed) return;
    this.#out.write(`${JSON.stringify(message)}\n`);
  }

  #onLine(line: string, handlers: CodexRpcHandlers): void {
    if (line.trim() === '') return;
    let msg: { id?: JsonRpcId; method?: string; params?: unknown; result?: unknown; error?: RpcError };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      handlers.onBadLine?.(line);
      return;
    }
    if (typeof msg !== 'object' || msg === null) return handlers.onBadLine?.(line);
    const hasId = msg.id !== undefined && msg.id !== null;
    if (typeof msg.method === 'string' && hasId) {
      const id = msg.id as JsonRpcId;
      const internal = (err: unknown) => ({
        error: { code: -32603, message: err instanceof Error ? err.message : String(err) },
      });
      let answer: ReturnType<CodexRpcHandlers['onServerRequest']>;
      try {
        // Envelope checked above; the params are the CLI's (see the header).
        answer = handlers.onServerRequest({ id, method: msg.method, params: msg.params } as ServerRequest);
      } catch (err) {
        answer = internal(err);
      }
      // An approval is answered when the operator decides (issue 14); the rest at once.
      if (answer instanceof Promise)
        void answer.then(
          (a) => this.#write({ id, ...a }),
          (err: unknown) => this.#write({ id, ...internal(err) }),
        );
      else this.#write({ id, ...answer });
      return;
    }
    if (typeof msg.method === 'string')
      return handlers.onNotification({ method: msg.method, params: msg.params } as ServerNotification);
    if (hasId) {
      const resolve = this.#pending.get(msg.id as JsonRpcId);
      if (resolve === undefined) return;
      this.#pending.delete(msg.id as JsonRpcId);
      resolve(msg.error !== undefined ? { ok: false, error: msg.error } : { ok: true, result: msg.result });
      return;
    }
    handlers.onBadLine?.(line);
  }
}
