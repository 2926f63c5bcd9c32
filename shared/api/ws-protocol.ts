/**
 * The WebSocket framing of the shared API contract (`agentteam serve` at `/api`). Calls and
 * events are exactly those of `contract.ts`; this file only adds the envelope:
 *   client → server  `{ id, call, request }`
 *   server → client  `{ id, ok: true, value } | { id, ok: false, code, message }`
 *   server → client  `{ event, payload }` (pushed)
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

/**
 * A frame the server sends: a response to a call or a pushed event. Events first: under load
 * they are most frames, and a union collects the issues of every option tried before the one
 * that matches (issue 19: a few percent of the renderer's time with 20 agents at work).
 */
export const WsServerFrameSchema = z.union([WsEventSchema, WsResponseSchema]);
