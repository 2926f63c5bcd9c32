/**
 * Steps 2–4 of the IPC gate (ipc-gate.ts), free of Electron so they are unit-tested and
 * benchmarked in plain Node: parse the request, run the daemon handler, check its answer
 * against the contract, wrap it as an `ApiResult`. Never throws.
 */
import type { z } from 'zod';
import {
  ApiError,
  apiCalls,
  type ApiCallName,
  type ApiHandlers,
  type ApiResponse,
  type ApiResult,
} from '../../shared/api/contract.js';
import type { DaemonLog } from '../daemon/index.js';

/** Zod issues as one line a person can act on: paths and messages, never the values. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(request)'}: ${issue.message}`)
    .join('; ');
}

export interface AnswerOptions {
  /**
   * Also parse the daemon's answer with the response schema. The request is always parsed (it
   * comes from the renderer, never trusted); the answer comes from our own typed daemon, so this
   * is a development and test net (research/electron-style.md (b) 4). It costs ~1.3 µs per wake
   * in a `wakes.list` answer (`npm run bench -- ipc-gate`).
   */
  readonly checkResponse: boolean;
}

/**
 * One call. Log lines carry the call name and error code, never the request or the response (they
 * hold message content).
 */
export async function answerCall<K extends ApiCallName>(
  handlers: ApiHandlers,
  name: K,
  raw: unknown,
  log: DaemonLog,
  options: AnswerOptions = { checkResponse: true },
): Promise<ApiResult<ApiResponse<K>>> {
  const schema = apiCalls[name];
  const request = schema.request.safeParse(raw);
  if (!request.success) {
    const tooLarge = request.error.issues.some((i) => i.code === 'too_big' && i.path[0] === 'content');
    return {
      ok: false,
      code: tooLarge ? 'content_too_large' : 'invalid_request',
      message: `${name}: ${describeIssues(request.error.issues)}`,
    };
  }
  let value: unknown;
  try {
    const handler = handlers[name] as (request: unknown) => Promise<unknown>;
    value = await handler(request.data);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, code: error.code, message: error.message };
    log.error('ipc call failed', {
      call: name,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return { ok: false, code: 'internal', message: `${name} failed inside the app; the log has the details.` };
  }
  if (!options.checkResponse) return { ok: true, value: value as ApiResponse<K> };
  const response = schema.response.safeParse(value);
  if (!response.success) {
    // A daemon bug: never hand the renderer something the contract does not describe.
    log.error('ipc response breaks the contract', { call: name, issues: describeIssues(response.error.issues) });
    return {
      ok: false,
      code: 'internal',
      message: `${name} answered outside the API contract; the log has the details.`,
    };
  }
  return { ok: true, value: response.data as ApiResponse<K> };
}
