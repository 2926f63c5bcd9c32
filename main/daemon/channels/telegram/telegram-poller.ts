/**
 * Inbound: Bot API long polling (`getUpdates`) with a persisted update offset (issue 18). The
 * store's channel cursor is the next update_id to ask for; it moves forward only after the
 * update was handled (its message stored), and the next poll (which tells Telegram) waits until
 * both are durable (issue 30: group commit), so a restart never loses an update, and the
 * handler's idempotency key (the update_id) makes a replay of the one in flight store nothing.
 * Updates below the cursor (a duplicate delivery) are skipped and counted.
 *
 * The loop is an RxJS pipeline on the injected scheduler: one request at a time (`repeat`), a
 * failed poll waits with capped backoff (`retry`), and unsubscribing aborts the request in flight.
 */
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import { Observable, asyncScheduler, defer, repeat, retry, timer, type SchedulerLike, type Subscription } from 'rxjs';
import { describeTelegramError } from './telegram-api.js';

export interface CursorPort {
  channelCursor(channel: string): number | null;
  setChannelCursor(channel: string, position: number): void;
  /** issue 30 (group commit): resolves once the writes made so far (messages, the cursor) are durable. */
  whenDurable(): Promise<void>;
}

export interface TelegramPollerOptions {
  readonly channel: string;
  readonly api: Api;
  readonly cursor: CursorPort;
  /** Long-poll seconds asked of Telegram (`getUpdates.timeout`). */
  readonly pollTimeoutSeconds: number;
  /** Handles one update; throws only when it could not be stored (the cursor then stays, and the poll retries). */
  readonly handle: (update: Update) => void;
  /** An update below the cursor arrived again (Telegram re-sent it): skipped. */
  readonly onDuplicate?: (updateId: number) => void;
  readonly onPoll?: (ok: boolean, detail: string | null) => void;
  readonly scheduler?: SchedulerLike;
  /** First backoff after a failed poll; doubles up to 60 s. */
  readonly backoffMs?: number;
}

/** Operator messages, and presses on approval buttons (issue 14 from the phone: telegram-approvals.ts). */
const ALLOWED_UPDATES: ['message', 'callback_query'] = ['message', 'callback_query'];

/** Starts polling; unsubscribe to stop (aborts a request in flight). */
export function startTelegramPoller(o: TelegramPollerOptions): Subscription {
  const scheduler = o.scheduler ?? asyncScheduler;
  const backoffMs = o.backoffMs ?? 1000;
  const poll$ = defer(() => getUpdates(o)).pipe(
    repeat(),
    retry({
      resetOnSuccess: true,
      delay: (error: unknown, count: number) => {
        o.onPoll?.(false, describeTelegramError(error));
        return timer(Math.min(60_000, backoffMs * 2 ** (count - 1)), scheduler);
      },
    }),
  );
  return poll$.subscribe();
}

/** One getUpdates call from the stored cursor; its updates handled in order, the cursor moved after each. */
function getUpdates(o: TelegramPollerOptions): Observable<void> {
  return new Observable<void>((subscriber) => {
    const abort = new AbortController();
    const offset = o.cursor.channelCursor(o.channel);
    o.api
      .getUpdates(
        { ...(offset !== null ? { offset } : {}), timeout: o.pollTimeoutSeconds, allowed_updates: ALLOWED_UPDATES },
        // grammy types its signal with the abort-controller polyfill's class; Node's own is what it uses.
        abort.signal as unknown as Parameters<Api['getUpdates']>[1],
      )
      .then((updates) => {
        if (abort.signal.aborted) return;
        o.onPoll?.(true, null);
        for (const update of [...updates].sort((a, b) => a.update_id - b.update_id)) {
          const next = o.cursor.channelCursor(o.channel);
          if (next !== null && update.update_id < next) {
            o.onDuplicate?.(update.update_id);
            continue;
          }
          o.handle(update);
          o.cursor.setChannelCursor(o.channel, update.update_id + 1);
        }
        // issue 30: the next getUpdates tells Telegram the offset (it then forgets those
        // updates): only once the messages and the cursor are durable. A failed sync retries.
        return o.cursor.whenDurable().then(() => {
          subscriber.next();
          subscriber.complete();
        });
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) subscriber.error(error);
      });
    return () => abort.abort();
  });
}
