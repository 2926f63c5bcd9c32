/**
 * What one runtime adds to the shared skeleton (runtime-skeleton.ts): only where its wire
 * differs (STYLE.md habit 12). The skeleton owns the process, the prompt queue, restarts, the
 * session store, generations, stop/kill and the host vocabulary; a driver owns the launch
 * spec, opening (or resuming) its session on one process, submitting a prompt, interrupting,
 * and mapping its wire's messages onto the few `DriverEvent`s of driver-session.ts.
 *
 * A capability added to every runtime touches the skeleton plus one driver file per runtime.
 */
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DriverContext, DriverSession } from './driver-session.js';

/** The agent's own settings every driver launches with (DESIGN.md "Config"); its args and env go last, on top. */
export interface AgentLaunchOptions {
  readonly agentId: string;
  readonly args: readonly string[];
  /** On top of the inherited basics; the daemon's isolation vars win. */
  readonly env: Readonly<Record<string, string>>;
  /** Absolute working directory of the runtime. */
  readonly cwd: string;
  readonly model: string | null;
}

export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
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
