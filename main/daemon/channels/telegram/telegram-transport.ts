/**
 * The HTTP transport under grammy's raw API (its `fetch` option) that knows *when* a request
 * failed, which Telegram's lack of an idempotency key makes decisive (watchdog spec B; DESIGN.md
 * "Retry only what provably never left"):
 *
 * - `not_written`: the request never fully left this process (refused, DNS, TLS, reset or
 *   timeout before Node handed the last byte to the socket — `'finish'` of the request). The Bot
 *   API cannot act on a request it did not fully receive, so a resend cannot duplicate.
 * - `no_answer`: written, then no response within the timeout. It may have been delivered.
 * - `lost_after_write`: written, then the connection died before a complete response. Ambiguous too.
 * - `not_bot_api`: an HTTP answer that is not a Bot API JSON body (a proxy's 502 page); `code` is
 *   `HTTP_<status>`, and the channel decides what that status means.
 *
 * A fresh connection per request (no keep-alive): a reused socket the server already closed
 * fails *after* the write, which would turn a provably lost send into an ambiguous one.
 * The URL holds the bot token: it is never put in an error, a message or a log line.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export type TransportPhase = 'not_written' | 'no_answer' | 'lost_after_write' | 'not_bot_api';

/** A transport failure with its phase; `code` is Node's error code (`ECONNREFUSED`…), never the URL. */
export class TelegramTransportError extends Error {
  constructor(
    readonly phase: TransportPhase,
    readonly code: string,
  ) {
    super(`Telegram request failed (${phase}: ${code})`);
    this.name = 'TelegramTransportError';
  }
}

export interface PhaseFetchOptions {
  /** No response within this time after the request started: `no_answer` (or `not_written`). */
  readonly timeoutMs: (body: string) => number;
}

type FetchInit = { method?: string; headers?: Record<string, string>; body?: unknown; signal?: AbortSignal | null };

/** A `fetch` for grammy's `ApiClientOptions.fetch`: JSON bodies only (this channel never uploads files). */
export function phaseTrackingFetch(options: PhaseFetchOptions): typeof fetch {
  const phaseFetch = (input: string | URL, init: FetchInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const body = typeof init.body === 'string' ? init.body : '';
      if (init.body !== undefined && typeof init.body !== 'string') {
        reject(new TelegramTransportError('not_written', 'unsupported_body'));
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let written = false;
      let settled = false;
      const fail = (phase: TransportPhase, code: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', onAbort);
        req.destroy();
        reject(new TelegramTransportError(phase, code));
      };
      const req: ClientRequest = send(url, {
        method: init.method ?? 'POST',
        agent: false,
        headers: { ...(init.headers ?? {}), 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
      });
      const timer = setTimeout(() => fail(written ? 'no_answer' : 'not_written', 'ETIMEDOUT'), options.timeoutMs(body));
      const onAbort = () => fail(written ? 'lost_after_write' : 'not_written', 'ABORTED');
      if (init.signal?.aborted === true) {
        onAbort();
        return;
      }
      init.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('finish', () => (written = true));
      req.on('error', (err: NodeJS.ErrnoException) =>
        fail(written ? 'lost_after_write' : 'not_written', err.code ?? 'ERROR'),
      );
      req.on('response', (res: IncomingMessage) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', (err: NodeJS.ErrnoException) => fail('lost_after_write', err.code ?? 'ERROR'));
        res.on('aborted', () => fail('lost_after_write', 'ECONNRESET'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          init.signal?.removeEventListener('abort', onAbort);
          const bytes = Buffer.concat(parts);
          const status = res.statusCode ?? 0;
          if (!isBotApiBody(bytes)) {
            reject(new TelegramTransportError('not_bot_api', `HTTP_${status}`));
            return;
          }
          resolve(new Response(bytes, { status, headers: { 'content-type': 'application/json' } }));
        });
      });
      req.end(body);
    });
  return phaseFetch as unknown as typeof fetch;
}

/** A Bot API answer is a JSON object with a boolean `ok` (success and error bodies alike). */
function isBotApiBody(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
  } catch {
    return false;
  }
}
