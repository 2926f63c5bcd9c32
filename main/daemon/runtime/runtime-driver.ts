/**
 * What one runtime adds to the shared skeleton (runtime-skeleton.ts): only where its wire
 * differs (STYLE.md habit 12). The skeleton owns the process, the prompt queue, restarts, the
 * session store, generations, stop/kill and the host vocabulary; a driver owns the launch
 * spec, opening (or resuming) its session on one process, submitting a prompt, interrupting,
 * and mapping its wire's messages onto the few `DriverEvent`s below.
 *
 * A capability added to every runtime touches the skeleton plus one driver file per runtime.
 */
import type { SchedulerLike } from 'rxjs';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-types.js';
import type { RuntimeProcess } from './runtime-process.js';

/** The wire's turn facts, in runtime-neutral words. Local text is reduced to counts by the skeleton (contract §6.5). */
export type DriverEvent =
  /** The provider session id is known (e.g. Claude's `system/init`); the skeleton remembers it with the fingerprint. */
  | { readonly type: 'session'; readonly sessionId: string }
  | { readonly type: 'turn_started' }
  /** A tool call the runtime started; settles nothing (contract §9.2). */
  | { readonly type: 'tool_call'; readonly name: string }
  /** Local assistant text: diagnostics only, never stored or sent (contract §6.5). */
  | { readonly type: 'local_text'; readonly text: string }
  /** `failed` carries the wire's error (the skeleton bounds it). */
  | {
      readonly type: 'turn_ended';
      readonly outcome: 'completed' | 'failed' | 'interrupted';
      readonly error: string | null;
    };

/** A wire operation's outcome: errors are values at this boundary. */
export type WireResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** What a driver gets for one process generation. */
export interface DriverContext {
  readonly generation: number;
  readonly process: RuntimeProcess;
  /** The stored session to resume: its thread-contract fingerprint matched (contract §8.1); else null. */
  readonly resumeSessionId: string | null;
  readonly scheduler: SchedulerLike;
  readonly log: DaemonLog | undefined;
  /** Events of a replaced process are dropped by the skeleton (generation-tagged watches). */
  emit(event: DriverEvent): void;
  /** Resolves after `ms` on the injected scheduler (readiness polling). */
  delay(ms: number): Promise<void>;
  /**
   * `finalCheck: 'in_turn'`: the runtime asks at its own boundary (Claude's Stop hook). The
   * skeleton asks the host (contract §8.3); `answer` writes the reply into the runtime (null:
   * let the turn end) and resolves whether it was written.
   */
  askInTurn(answer: (finalCheck: string | null) => Promise<boolean>): Promise<void>;
}

/** One open session on one process. */
export interface DriverSession {
  /** Writes one prompt as a new turn in the same session; resolves once the runtime accepted it. */
  submit(text: string): Promise<WireResult>;
  /** Cancels the running turn (it then ends `interrupted`). */
  interrupt(): Promise<WireResult>;
  /** The process is exiting or gone: release wire resources (event streams). */
  close?(): void;
}

export type ConnectResult =
  | {
      readonly ok: true;
      readonly session: DriverSession;
      /** Null when the runtime names it later (a `session` event). */
      readonly sessionId: string | null;
      readonly resumed: boolean;
    }
  | { readonly ok: false; readonly message: string };

export interface RuntimeDriver {
  readonly runtime: RuntimeKind;
  /** How messages name the runtime ("Claude Code", "Codex", "OpenCode"). */
  readonly label: string;
  /**
   * Where the final-check goes (contract §8.3):
   * - `in_turn`: the runtime asks before it goes idle (`askInTurn`) and the check continues the
   *   same turn; a completed turn that never asked falls back to `next_turn` as its own turn;
   * - `next_turn`: at a completed turn end the host is asked and the check is submitted as the
   *   next turn in the same session; both turns are one logical turn for the host.
   */
  readonly finalCheck: 'in_turn' | 'next_turn';
  /**
   * `launch`: resuming is a command-line flag, so a process that exits before ready forgets the
   * stored session (it is stale) and the first start retries fresh once. `open`: the driver
   * falls back to a fresh session itself.
   */
  readonly resumeAt: 'launch' | 'open';
  /** Budget for spawn → session open, on the injected scheduler. */
  readonly startTimeoutMs: number;
  /** Start attempts when the process came up but its session did not open (e.g. a port race). */
  readonly startAttempts?: number;
  /** After stdin closes, how long a clean exit may take before SIGTERM (stream-json ends on EOF). */
  readonly stdinGraceMs?: number;
  /** The process's command line and environment; writes the runtime's config files first. */
  launch(resumeSessionId: string | null): Promise<LaunchSpec>;
  /** Opens (or resumes) the session on a freshly spawned process. */
  connect(ctx: DriverContext): Promise<ConnectResult>;
  /** The failure message when `connect` did not finish within `startTimeoutMs`. */
  timeoutMessage(ms: number): string;
}
