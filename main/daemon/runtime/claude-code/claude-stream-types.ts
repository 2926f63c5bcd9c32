/**
 * The Claude Code stream-json messages the adapter reads (stdout of `claude -p --output-format
 * stream-json --verbose --input-format stream-json`), as one union discriminated by `type`.
 *
 * Claude Code ships no schema generator (Codex does: ../codex/generated/, behind ../codex/codex-protocol.ts),
 * so these are written by hand from research/runtimes.md §3 "Claude Code" (the `system/init`, `assistant`, `user`
 * tool_result and `result` events of a real turn, the wake-1 excerpt) and §3 "final-check"
 * (the control protocol: `initialize` with a `Stop` hook, `hook_callback`, `can_use_tool`,
 * `control_response`). Only the fields the adapter reads are written out, and a field the
 * mapper tolerates missing is optional, so a CLI that drops it degrades instead of crashing.
 * Types the adapter does not read (`stream_event`, `rate_limit_event`, …) are not members:
 * `claudeStreamMessage` lets them through by their `type` and every switch ignores them.
 */

/** `system`: `init` (start of every turn; names the session), or another subtype (`api_retry`, hook progress, …). */
export interface ClaudeSystemMessage {
  readonly type: 'system';
  /** `init` at each turn start, `compact_boundary` after a compaction (contract §6.6), `api_retry`, … */
  readonly subtype: string;
  readonly session_id?: string;
  /** On a `status` after a compaction (issue 38): `success` or `failed`, and Claude Code's error code. */
  readonly compact_result?: string;
  readonly compact_error?: string;
  /** On `compact_boundary`: what triggered it and the context size before. */
  readonly compact_metadata?: { readonly trigger?: string; readonly pre_tokens?: number };
}

/** An assistant content block; block kinds the adapter does not map (thinking, …) only by their `type`. */
export type ClaudeAssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id?: string; readonly name: string; readonly input?: unknown }
  | { readonly type: 'thinking' | 'redacted_thinking' };

/** `assistant`: one message per content block; `error` marks the synthetic message of an API error. */
export interface ClaudeAssistantMessage {
  readonly type: 'assistant';
  readonly error?: string | null;
  readonly message?: { readonly content?: readonly ClaudeAssistantBlock[] };
}

/** `user`: echoes a tool's result back into the conversation (`is_error` when the tool failed). */
export interface ClaudeUserMessage {
  readonly type: 'user';
  readonly message?: {
    readonly content?:
      | string
      | readonly {
          readonly type: 'tool_result' | 'text';
          readonly tool_use_id?: string;
          readonly is_error?: boolean;
          readonly content?: unknown;
        }[];
  };
}

/** `result`: the end of a turn; `is_error` with the structured fields of the failure. */
export interface ClaudeResultMessage {
  readonly type: 'result';
  /** `success`, or `error_during_execution`, `error_max_turns`, … */
  readonly subtype?: string;
  readonly is_error?: boolean;
  /** The final text; for an API failure the `API Error: …` string. */
  readonly result?: string;
  readonly api_error_status?: number | null;
  readonly terminal_reason?: string;
  readonly errors?: readonly unknown[];
  readonly session_id?: string;
}

/** A request the CLI sends us over the control protocol (it waits for our `control_response`). */
export interface ClaudeControlRequestMessage {
  readonly type: 'control_request';
  readonly request_id: string;
  readonly request:
    | { readonly subtype: 'hook_callback'; readonly callback_id: string; readonly input?: unknown }
    | ClaudeCanUseToolRequest;
}

/**
 * `can_use_tool` (issue 14, `--permission-prompt-tool stdio`): the CLI asks whether a tool may run;
 * we answer `{behavior:"allow", updatedInput}` or `{behavior:"deny", message}` (claude-permissions.ts).
 */
export interface ClaudeCanUseToolRequest {
  readonly subtype: 'can_use_tool';
  readonly tool_name: string;
  readonly input?: Readonly<Record<string, unknown>>;
  readonly tool_use_id?: string;
  readonly blocked_path?: string;
  readonly decision_reason?: string;
}

/** The CLI's answer to a request of ours (`initialize`, `interrupt`). */
export interface ClaudeControlResponseMessage {
  readonly type: 'control_response';
  readonly response:
    | { readonly subtype: 'success'; readonly request_id: string; readonly response?: unknown }
    | { readonly subtype: 'error'; readonly request_id: string; readonly error?: string };
}

export type ClaudeStreamMessage =
  | ClaudeSystemMessage
  | ClaudeAssistantMessage
  | ClaudeUserMessage
  | ClaudeResultMessage
  | ClaudeControlRequestMessage
  | ClaudeControlResponseMessage;

/**
 * A parsed stdout object as a stream-json message: the envelope (a string `type`) is checked,
 * the fields are the CLI's. Null for an object without a `type` (nothing the adapter reads).
 */
export function claudeStreamMessage(value: Readonly<Record<string, unknown>>): ClaudeStreamMessage | null {
  return typeof value.type === 'string' ? (value as unknown as ClaudeStreamMessage) : null;
}
