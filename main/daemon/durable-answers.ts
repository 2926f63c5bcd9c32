/**
 * issue 30 (group commit): the daemon's answers leave only after the writes they report are
 * durable. The store commits at once and syncs the WAL once per event-loop turn, off the main
 * thread (store/group-commit.ts); a FULL write is durable when `whenDurable()` resolves. So the
 * three ways the daemon tells someone outside wait for it, here at the composition root:
 * - an API answer (IPC, WebSocket, the CLI): after its handler's writes are durable;
 * - a pushed API event: in order, each after the writes made before it are durable (without
 *   delay when nothing waits for a sync);
 * - an MCP tool result (`sent` to an agent): after the reply and its frontier are durable.
 * A failed sync fails the API call and the tool call (the rows stay stored; the caller may ask
 * again and is answered idempotently); a push still goes out (it shows what the store holds).
 */
import { Observable } from 'rxjs';
import { ApiError, type ApiHandlers } from '../../shared/api/contract.js';
import type { DaemonLog } from './daemon-log.js';
import type { CommunicationHandler } from './mcp/communication-handler.js';
import { StoreError } from './store/index.js';

/** What of the store the answers wait on. */
export interface Durability {
  whenDurable(): Promise<void>;
  readonly durabilityPending: boolean;
}

async function durable(store: Durability): Promise<void> {
  try {
    await store.whenDurable();
  } catch (err) {
    if (err instanceof StoreError) throw new ApiError('unavailable', err.message);
    throw err;
  }
}

/** Every handler answers once the writes it made are durable. */
export function durableApi(handlers: ApiHandlers, store: Durability): ApiHandlers {
  const wrapped: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as Array<[string, (request: unknown) => Promise<unknown>]>)
    wrapped[name] = async (request) => {
      const value = await handler(request);
      if (store.durabilityPending) await durable(store);
      return value;
    };
  return wrapped as unknown as ApiHandlers;
}

/** The tool results (`sent`, a reaction's ok) once the writes behind them are durable. */
export function durableTools(handler: CommunicationHandler, store: Durability): CommunicationHandler {
  return {
    messageSend: async (agentId, args) => {
      const result = await handler.messageSend(agentId, args);
      if (store.durabilityPending) await store.whenDurable();
      return result;
    },
    reaction: async (agentId, args) => {
      const result = await handler.reaction(agentId, args);
      if (store.durabilityPending) await store.whenDurable();
      return result;
    },
  };
}

/**
 * The events of `source$` in their order, each once every write made before it is durable.
 * With nothing waiting for a sync an event passes at once; otherwise it queues, and each sync
 * releases the events queued before it was asked for (later ones wait for the next).
 */
export function afterDurable<T>(source$: Observable<T>, store: Durability, log: DaemonLog): Observable<T> {
  return new Observable<T>((subscriber) => {
    const queue: T[] = [];
    let waiting = false;
    let ended: (() => void) | null = null;
    const wait = (): void => {
      waiting = true;
      const covered = queue.length;
      const release = (): void => {
        for (const value of queue.splice(0, covered)) subscriber.next(value);
        if (queue.length > 0) wait();
        else {
          waiting = false;
          ended?.();
        }
      };
      store.whenDurable().then(release, (err: unknown) => {
        log.error('api events: pushed although their writes could not be synced', { error: String(err) });
        release();
      });
    };
    const subscription = source$.subscribe({
      next: (value) => {
        if (!waiting && !store.durabilityPending) return void subscriber.next(value);
        queue.push(value);
        if (!waiting) wait();
      },
      error: (err: unknown) => {
        ended = () => subscriber.error(err);
        if (!waiting) ended();
      },
      complete: () => {
        ended = () => subscriber.complete();
        if (!waiting) ended();
      },
    });
    return () => subscription.unsubscribe();
  });
}
