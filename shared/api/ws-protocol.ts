/**
 * The WebSocket framing of the shared API contract (`agentteam serve` at `/api`). Calls and
 * events are exactly those of `contract.ts`; this file only adds the envelope:
 *   client → server  `{ id, call, request }`
 *   server → client  `{ id, ok: true, value } | { id, ok: false, code, message }`
 *   server → client  `{ event, payload }` (pushed), or `{ events: [{ event, payload }, …] }` (several
 *                    pushed in one stretch of the daemon's code, in order; issue 30)
 */
import { z } from 'zod';
import { API_ERROR_CODES } from './contract.js';

/** Path of the WebSocket bridge on the serve origin. */
export const WS_API_PATH = '/api';
/**
 * issue 29: the query parameter (on `/api`) and URL-fragment key (on the page) that carry this
 * start's operator key; without it a connection gets no operator call (api-names.ts).
 */
export const WS_OPERATOR_PARAM = 'operator';
/**
 * issue 30: `/api?events=none` — a connection that only makes calls (the CLI, an agent's
 * `agentteam agent send`) is not sent the pushed events; with a busy team they are hundreds per
 * second that such a client would read and drop.
 */
export const WS_EVENTS_PARAM = 'events';
export const WS_NO_EVENTS = 'none';
/**
 * issue 40 item 1: the transport's own call (not in the contract, so not on IPC) a page sends first
 * on every open of its WebSocket: its operator key, the hand-over secret it registered with the
 * previous start (if any) and a fresh one for this start. The answer says whether the connection is
 * the operator's and, when it is, this start's key (main/serve/operator-handover.ts says why).
 */
export const WS_HANDOVER_CALL = 'operator.handover';
const SECRET = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);
export const HandoverRequestSchema = z.strictObject({
  key: z.string().max(200).optional(),
  secret: SECRET.optional(),
  next: SECRET,
});
export type HandoverRequest = z.infer<typeof HandoverRequestSchema>;
export const HandoverAnswerSchema = z.union([
  z.strictObject({ operator: z.literal(true), key: z.string().min(1) }),
  z.strictObject({ operator: z.literal(false) }),
]);
export type HandoverAnswer = z.infer<typeof HandoverAnswerSchema>;
/** The environment variable the CLI's operator commands (approve, deny, revoke) read the operator key from. */
export const OPERATOR_KEY_ENV = 'AGENTTEAM_OPERATOR_KEY';
/** Largest frame either side accepts (a message body is at most 1 MiB, plus JSON overhead). */
export const WS_MAX_PAYLOAD_BYTES = 2 * 1024 * 1024;

export const WsRequestSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  call: z.string().min(1).max(100),
  request: z.unknown(),
});

export const WsResponseSchema = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), code: z.enum(API_ERROR_CODES), message: z.string() }),
]);
export type WsResponse = z.infer<typeof WsResponseSchema>;

const WsEventSchema = z.object({ event: z.string(), payload: z.unknown() });
export type WsEvent = z.infer<typeof WsEventSchema>;

/**
 * issue 30: the events pushed to a client in one stretch of the daemon's code, in order, as one
 * WebSocket message (main/serve/write-batcher.ts); a single event is sent as its own frame.
 */
const WsEventBatchSchema = z.object({ events: z.array(WsEventSchema) });

/**
 * A frame the server sends: a pushed event, a batch of them, or a response to a call. Events
 * first: under load they are most frames, and a union collects the issues of every option tried
 * before the one that matches (issue 19: a few percent of the renderer's time with 20 agents).
 */
export const WsServerFrameSchema = z.union([WsEventSchema, WsEventBatchSchema, WsResponseSchema]);

/** The pushed events a parsed server frame carries, in order (none for a response). */
export function eventsOfFrame(frame: unknown): WsEvent[] {
  if (typeof frame !== 'object' || frame === null) return [];
  const f = frame as { event?: unknown; payload?: unknown; events?: unknown };
  if (typeof f.event === 'string') return [{ event: f.event, payload: f.payload }];
  if (!Array.isArray(f.events)) return [];
  return f.events.filter(
    (e): e is WsEvent => typeof e === 'object' && e !== null && typeof (e as { event?: unknown }).event === 'string',
  );
}
