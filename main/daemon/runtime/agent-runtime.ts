/**
 * A turn-based agent runtime (Codex app-server, OpenCode serve): the transport layer under
 * `TurnRuntimeAdapter`, which presents it as the runtime-neutral `RuntimeAdapter` (runtime-adapter.ts).
 *
 * - `submit` writes one prompt (a delivery or the final-check) into the **same session** as
 *   a new turn; it resolves once the runtime accepted it (Claude: stdin line written; Codex:
 *   `turn/start` answered; OpenCode: `prompt_async` 204). A prompt submitted while a turn runs
 *   waits in the adapter's FIFO and starts after that turn ends (one turn per delivery).
 * - Events are tagged with the process `generation` so a stale event can never settle a
 *   newer process's rows (STYLE.md "generation-tagged watches").
 * - `local_text` is diagnostics only (DESIGN.md "Runtime text is never a message"): it is
 *   handed to the wake lifecycle to count bytes/runes and never stored or sent.
 */
import type { Observable } from 'rxjs';
import type { RuntimeKind } from '../../../shared/wake-status.js';

export type TurnOutcome = 'completed' | 'failed' | 'interrupted';

/** Stable codes of runtime failures (errors are values at this boundary). */
export type RuntimeErrorCode =
  | 'spawn_failed'
  | 'not_ready'
  | 'protocol_error'
  | 'session_failed'
  | 'submit_failed'
  | 'not_running'
  | 'api_error'
  | 'process_exited'
  | 'interrupt_failed';

export interface RuntimeFailure {
  readonly ok: false;
  readonly code: RuntimeErrorCode;
  /** One line a person can act on; never runtime text. */
  readonly message: string;
}

export type RuntimeResult<T> = { readonly ok: true; readonly value: T } | RuntimeFailure;

export type RuntimeEvent =
  /** The process is up and its session is open (after `start`, and after each restart). */
  | { readonly type: 'ready'; readonly generation: number; readonly sessionId: string; readonly resumed: boolean }
  /** Watchdog hook `turn.start`. */
  | { readonly type: 'turn.start'; readonly generation: number; readonly turnId: string; readonly at: number }
  /** A tool call seen on the runtime side (never proof of a reply: only the MCP server's result is). */
  | {
      readonly type: 'tool';
      readonly generation: number;
      readonly turnId: string;
      readonly tool: string;
      readonly status: 'started' | 'completed' | 'failed';
    }
  /** Local assistant text: diagnostics only (contract §6.5). */
  | { readonly type: 'local_text'; readonly generation: number; readonly turnId: string; readonly text: string }
  /** Watchdog hook `turn.end`; `failed` carries a bounded error (contract §9.2 runtime error). */
  | {
      readonly type: 'turn.end';
      readonly generation: number;
      readonly turnId: string;
      readonly outcome: TurnOutcome;
      readonly error: string | null;
      readonly at: number;
    }
  /** The process ended. `expected` when `stop()` asked for it. */
  | {
      readonly type: 'exit';
      readonly generation: number;
      readonly code: number | null;
      readonly signal: string | null;
      readonly expected: boolean;
    };

export type PromptKind = 'delivery' | 'final_check';

export interface RuntimePrompt {
  readonly kind: PromptKind;
  readonly text: string;
}

export interface SubmitReceipt {
  readonly generation: number;
  /** The runtime's turn id when it is known at acceptance (Codex), else null. */
  readonly turnId: string | null;
}

export interface RuntimeDiagnostics {
  readonly pid: number | null;
  /** Last bytes of stderr (bounded): for a person debugging, never a message. */
  readonly stderrTail: string;
}

export interface AgentRuntime {
  readonly kind: RuntimeKind;
  readonly events$: Observable<RuntimeEvent>;
  /** The current process generation (0 before the first start). */
  readonly generation: number;
  /** Starts the process and opens (or resumes) the session; resolves when ready. */
  start(): Promise<
    RuntimeResult<{ readonly generation: number; readonly sessionId: string; readonly resumed: boolean }>
  >;
  submit(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>>;
  /** Cancels the running turn (it ends `interrupted`) and drops prompts still waiting. */
  interrupt(): Promise<RuntimeResult<void>>;
  /** Stops the process and every child it started (no orphans). Idempotent. */
  stop(): Promise<void>;
  diagnostics(): RuntimeDiagnostics;
}

export function fail(code: RuntimeErrorCode, message: string): RuntimeFailure {
  return { ok: false, code, message };
}

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export { boundedDetail } from '../diagnostics.js';
