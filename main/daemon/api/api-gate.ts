/**
 * The one API gate both transports answer through (STYLE.md habit 4): the Electron IPC gate
 * (main/app/ipc-gate.ts, after its sender checks) and the WebSocket bridge of `agentteam serve`
 * (main/serve/serve-server.ts, after its token check). For each call it
 *   1. refuses a name that is not a call of the contract (`unknown_call`);
 *   2. parses the request with the call's zod schema (`invalid_request`, or `content_too_large`
 *      when only the size of `content` is wrong);
 *   3. runs the daemon handler; an `ApiError` keeps its code and message, anything else becomes
 *      `internal` with a safe message, and its stack goes to the log;
 *   4. in development and tests, parses the answer with the response schema too.
 * The answer is `{ok:true,value}` or `{ok:false,code,message}`; it never throws. Pushed events
 * are checked here as well, so both transports carry only what the contract describes.
 */
import {
  ApiError,
  apiCalls,
  apiEvents,
  isApiCallName,
  type ApiCallName,
  type ApiEvent,
  type ApiHandlers,
  type ApiResult,
} from '../../../shared/api/contract.js';
import type { DaemonLog } from '../daemon-log.js';
import { describeIssues } from '../../../shared/api/describe-issues.js';

export interface AnswerOptions {
  /**
   * Also parse the daemon's answer with the response schema. The request is always parsed (it
   * comes from the renderer or a browser, never trusted); the answer comes from our own typed
   * daemon, so this is a development and test net (research/electron-style.md (b) 4). It costs
   * ~1.3 µs per wake in a `wakes.list` answer (`npm run bench -- ipc-gate`). Default true.
   */
  readonly checkResponse?: boolean;
  /** Which transport asked (`ipc`, `ws`), for log lines only. */
  readonly transport?: string;
  /**
   * The daemon's configured message limit in UTF-8 bytes (`limits.maxMessageBytes`), so an
   * oversized body is refused naming the limit that applies, never the schema's cap (issue 16).
   */
  readonly maxMessageBytes?: number;
}

/** The contract's cap on `content` (characters); every configured byte limit is at most this. */
const CONTENT_CAP = 1_048_576;

/**
 * Answers one call of the contract. Log lines carry the call name, transport and error code,
 * never the request or the response (they hold message content).
 */
export async function answerCall(
  handlers: ApiHandlers,
  name: string,
  raw: unknown,
  log: DaemonLog,
  options: AnswerOptions = {},
): Promise<ApiResult<unknown>> {
  if (!isApiCallName(name))
    return { ok: false, code: 'unknown_call', message: `"${name}" is not a call of the AgentTeam API.` };
  const schema = apiCalls[name];
  const request = schema.request.safeParse(raw);
  if (!request.success) {
    const tooLarge = request.error.issues.some((i) => i.code === 'too_big' && i.path[0] === 'content');
    if (tooLarge) {
      const content = (raw as { content?: unknown }).content;
      const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : null;
      const limit = options.maxMessageBytes ?? CONTENT_CAP;
      return {
        ok: false,
        code: 'content_too_large',
        message: `${name}: the message is ${bytes === null ? 'too large' : `${bytes} bytes`}; at most ${limit} bytes are allowed (limits.maxMessageBytes). Split it or send less.`,
      };
    }
    return { ok: false, code: 'invalid_request', message: `${name}: ${describeIssues(request.error.issues)}` };
  }
  let value: unknown;
  try {
    const handler = handlers[name] as (request: unknown) => Promise<unknown>;
    value = await handler(request.data);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, code: error.code, message: error.message };
    log.error('api call failed', {
      call: name,
      transport: options.transport,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return { ok: false, code: 'internal', message: `${name} failed inside the app; the log has the details.` };
  }
  if (options.checkResponse === false) return { ok: true, value };
  return checkedResponse(name, value, log, options.transport);
}

function checkedResponse(name: ApiCallName, value: unknown, log: DaemonLog, transport?: string): ApiResult<unknown> {
  const response = apiCalls[name].response.safeParse(value);
  if (response.success) return { ok: true, value: response.data };
  // A daemon bug: never hand the client something the contract does not describe.
  log.error('api response breaks the contract', {
    call: name,
    transport,
    issues: describeIssues(response.error.issues),
  });
  return {
    ok: false,
    code: 'internal',
    message: `${name} answered outside the API contract; the log has the details.`,
  };
}

/** An event as the contract describes it (its payload parsed), or null (logged) when it breaks the contract. */
export function checkedEvent(event: ApiEvent, log: DaemonLog, transport?: string): ApiEvent | null {
  const parsed = apiEvents[event.name].safeParse(event.payload);
  if (parsed.success) return { name: event.name, payload: parsed.data } as ApiEvent;
  log.error('api event breaks the contract', {
    event: event.name,
    transport,
    issues: describeIssues(parsed.error.issues),
  });
  return null;
}
