/**
 * grammy's raw Bot API client over the phase-tracking transport (telegram-transport.ts), and
 * the one place a grammy error becomes a classified channel failure (channel.ts): what decides
 * between "retry" and "uncertain + alert, never a blind resend" (DESIGN.md "Beyond the specs").
 */
import { Api, GrammyError, HttpError } from 'grammy';
import type { ChannelFailure } from '../../delivery/channel.js';
import { phaseTrackingFetch, TelegramTransportError } from './telegram-transport.js';

export const DEFAULT_API_ROOT = 'https://api.telegram.org';

export interface TelegramApiOptions {
  readonly token: string;
  readonly apiRoot: string;
  /** No answer within this time after a send was written: ambiguous (`timeout_after_send`). */
  readonly timeoutMs: number;
}

/** A grammy `Api` whose requests time out (and report their phase) on our clock, before grammy's own. */
export function createTelegramApi(o: TelegramApiOptions): Api {
  return new Api(o.token, {
    apiRoot: o.apiRoot,
    fetch: phaseTrackingFetch({ timeoutMs: () => o.timeoutMs }),
    timeoutSeconds: Math.ceil(o.timeoutMs / 1000) + 30,
  });
}

/**
 * What a failed Bot API call means for delivery:
 * - a Bot API error body: 429 → `rate_limited` after `parameters.retry_after`; 5xx → `server_error`
 *   (Telegram answered that it did not take the message); 4xx → `rejected` (retrying cannot help);
 * - not fully written → `connection_refused` (provably never left: retried);
 * - written, then no answer / connection lost → ambiguous (`timeout_after_send`,
 *   `connection_lost_after_send`): Telegram has no idempotency key, so never resent blindly;
 * - a non-Bot-API HTTP answer (a proxy): 502/504 say the upstream may have taken it (ambiguous),
 *   any other 5xx that it was not forwarded, 4xx that it was refused.
 */
export function classifyTelegramError(error: unknown, retryDelayMs = 3000): ChannelFailure {
  if (error instanceof GrammyError) {
    const code = error.error_code;
    if (code === 429) {
      const after = error.parameters.retry_after;
      return { kind: 'rate_limited', retryAfterMs: typeof after === 'number' ? after * 1000 : retryDelayMs };
    }
    if (code >= 500) return { kind: 'server_error', status: code };
    return { kind: 'rejected', code: `telegram_${code}`, detail: error.description.slice(0, 200) };
  }
  const cause = error instanceof HttpError ? error.error : error;
  if (cause instanceof TelegramTransportError) {
    switch (cause.phase) {
      case 'not_written':
        return { kind: 'connection_refused' };
      case 'no_answer':
        return { kind: 'timeout_after_send' };
      case 'lost_after_write':
        return { kind: 'connection_lost_after_send' };
      case 'not_bot_api': {
        const status = Number(cause.code.slice('HTTP_'.length));
        if (status === 504) return { kind: 'timeout_after_send' };
        if (status === 502) return { kind: 'connection_lost_after_send' };
        if (status >= 500) return { kind: 'server_error', status };
        return { kind: 'rejected', code: `http_${status}`, detail: `HTTP ${status} from the Bot API root` };
      }
    }
  }
  // Unknown: it may have left, so it is treated as ambiguous (never resent).
  return { kind: 'connection_lost_after_send' };
}

/** A short, token-free description of a failed call for logs and the health view. */
export function describeTelegramError(error: unknown): string {
  if (error instanceof GrammyError) return `${error.error_code}: ${error.description}`.slice(0, 200);
  const cause = error instanceof HttpError ? error.error : error;
  if (cause instanceof TelegramTransportError) return `${cause.phase}: ${cause.code}`;
  return error instanceof Error ? error.name : 'unknown error';
}
