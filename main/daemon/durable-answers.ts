/**
 * issue 30 (group commit): the daemon's answers leave only after the writes they report are
 * durable. The store commits at once and syncs the WAL once per event-loop turn, off the main
 * thread (store/group-commit.ts); a FULL write is durable when `whenDurable()` resolves. So the
 * answers someone acts on wait for it, here at the composition root:
 * - an API answer (IPC, WebSocket, the CLI): after its handler's writes are durable;
 * - an MCP tool result (`sent` to an agent): after the reply and its frontier are durable
 *   (Telegram's sends and update offset wait the same way, telegram/).
 * A failed sync fails the API call and the tool call (the rows stay stored; the caller may ask
 * again and is answered idempotently).
 *
 * Pushed API events do not wait. They show the operator what the store holds, and nobody acts on
 * them as a promise kept: a committed WAL write survives the daemon's kill (it is in the OS's page
 * cache), only a power loss inside the sync's few milliseconds could undo one, and the next start
 * re-derives the state from the store. Waiting made a chip wait behind every other agent's sync
 * (ACK → chip p95 28 → 250 ms under a busy team, bench/PROFILES.md) — exactly what issue 30 forbids.
 */
import { ApiError, type ApiHandlers } from '../../shared/api/contract.js';
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
