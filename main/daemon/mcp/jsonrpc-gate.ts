/**
 * What the MCP endpoint checks before the SDK sees a POST body (issue 41, protocol): the body is read
 * here, bounded in size and in JSON nesting depth before `JSON.parse`, and classified with the error
 * codes JSON-RPC 2.0 §5.1 gives: not JSON → -32700 (parse error); JSON that is not a request,
 * notification or response → -32600 (invalid request). SDK 1.32.2 answers both with -32700.
 *
 * Batches: JSON-RPC batching was added to MCP in revision 2025-03-26 and removed in 2025-06-18
 * (changelog "Remove support for JSON-RPC batching"); a session is refused a batch unless it
 * negotiated a revision that has them. An empty array is an invalid request in every revision
 * (JSON-RPC 2.0 §6). `initialize` is never batched (2025-03-26 lifecycle), so a POST without a
 * session is never a batch.
 *
 * Params: `tools/call` and `tools/list` with malformed params are -32602 (invalid params) with a
 * short message naming the field (JSON-RPC 2.0 §5.1; MCP 2025-06-18 and 2025-11-25 server/tools
 * "Error Handling"); the SDK's Server answers -32603 with the raw zod dump.
 */
import type { IncomingMessage } from 'node:http';
import {
  CallToolRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  isJSONRPCRequest,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describeIssues } from '../../../shared/api/describe-issues.js';

/** JSON-RPC 2.0 §5.1 error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/**
 * Deepest JSON nesting a body may have. Our tools take flat arguments and MCP requests nest a few
 * levels (`params.arguments`, `_meta`); a body 10 000 levels deep is only work for the parser and
 * the SDK's schemas (issue 41: such bodies took /healthz from 7 ms to 433 ms).
 */
export const MAX_JSON_DEPTH = 32;

/** The first revision that removed JSON-RPC batching (MCP changelog 2025-06-18). */
const BATCHES_REMOVED_IN = '2025-06-18';
/** The revision that added batching (MCP changelog 2025-03-26); earlier ones used another transport. */
const BATCHES_ADDED_IN = '2025-03-26';

export type ReadBody = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly tooLarge: true };

/** Reads the request body, stopping (and draining nothing more) as soon as it exceeds `maxBytes`. */
export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      done = true;
      req.resume();
      resolve({ ok: false, tooLarge: true });
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        req.resume();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}

/** True when `text` nests arrays/objects deeper than `max` (strings skipped; one linear pass, no parse). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

export interface GateRefusal {
  readonly ok: false;
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export type GatedBody = { readonly ok: true; readonly body: JSONRPCMessage | JSONRPCMessage[] } | GateRefusal;

function refuse(status: number, code: number, message: string): GateRefusal {
  return { ok: false, status, code, message };
}

/** Whether a session that negotiated `version` may send JSON-RPC batches. */
export function batchesAllowed(version: string | undefined): boolean {
  return version !== undefined && version >= BATCHES_ADDED_IN && version < BATCHES_REMOVED_IN;
}

/**
 * Parses and classifies one POST body. `sessionVersion` is the protocol revision the session
 * negotiated, undefined for a POST that opens a session.
 */
export function gateBody(text: string, sessionVersion: string | undefined): GatedBody {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return refuse(400, INVALID_REQUEST, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refuse(400, PARSE_ERROR, 'Parse error: the body is not valid JSON.');
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) return refuse(400, INVALID_REQUEST, 'Invalid Request: an empty batch.');
    if (!batchesAllowed(sessionVersion))
      return refuse(
        400,
        INVALID_REQUEST,
        sessionVersion === undefined
          ? 'Invalid Request: initialize is a single request, never a batch.'
          : `Invalid Request: JSON-RPC batches were removed in MCP ${BATCHES_REMOVED_IN} and this session negotiated ${sessionVersion}; send one message per POST.`,
      );
    const messages: JSONRPCMessage[] = [];
    for (const [i, item] of raw.entries()) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success)
        return refuse(400, INVALID_REQUEST, `Invalid Request: batch element ${i} is not a JSON-RPC 2.0 message.`);
      messages.push(parsed.data);
    }
    return { ok: true, body: messages };
  }
  const parsed = JSONRPCMessageSchema.safeParse(raw);
  if (!parsed.success)
    return refuse(400, INVALID_REQUEST, 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message.');
  return { ok: true, body: parsed.data };
}

/**
 * The -32602 message for a `tools/call` or `tools/list` request whose params do not match the MCP
 * schema, naming the field (never its value); null when the params are valid or the method is
 * another one (the SDK checks those).
 */
export function invalidToolParams(message: JSONRPCMessage): string | null {
  if (!isJSONRPCRequest(message)) return null;
  const schema =
    message.method === 'tools/call'
      ? CallToolRequestSchema
      : message.method === 'tools/list'
        ? ListToolsRequestSchema
        : null;
  if (schema === null) return null;
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (parsed.success) return null;
  return `Invalid params for ${message.method}: ${describeIssues(parsed.error.issues, '(params)')}`;
}
