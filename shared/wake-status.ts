/** Wake statuses (DESIGN.md "Wake terminal statuses"; contract §5, §9). */
export const TERMINAL_WAKE_STATUSES = ['reply_sent', 'failed', 'completed_without_visible_reply'] as const;
/**
 * issue 27: `paused` — the wake's turn was refused by a usage or rate limit (or its agent's daily
 * budget is reached): it waits, in its place, for the reset and is delivered again once.
 */
export const ACTIVE_WAKE_STATUSES = ['queued', 'delivered', 'final_check_sent', 'paused'] as const;
export const WAKE_STATUSES = [...ACTIVE_WAKE_STATUSES, ...TERMINAL_WAKE_STATUSES] as const;

export type TerminalWakeStatus = (typeof TERMINAL_WAKE_STATUSES)[number];
export type WakeStatus = (typeof WAKE_STATUSES)[number];

export const RUNTIMES = ['claude-code', 'codex', 'opencode', 'demo', 'acp'] as const;
export type RuntimeKind = (typeof RUNTIMES)[number];

export function isTerminal(status: WakeStatus): status is TerminalWakeStatus {
  return (TERMINAL_WAKE_STATUSES as readonly string[]).includes(status);
}

/** The fields of a wake its timeline entries move (the store's mirror of its events: store.ts `appendWakeEvent`). */
interface TimelineMirror {
  readonly beacons: number;
  readonly lastBeaconAt: string | null;
  readonly escalated: boolean;
  readonly finalCheck: boolean;
}

/**
 * issue 39: a wake after one timeline entry, as the store mirrors it on the wake's row: a beacon
 * counts and stamps its time, the escalation marks it, a final-check sets it; other kinds (delivery,
 * alert, compaction) leave it as it was. The daemon's `wake.status` and the renderer's wakes merge `wake.timeline` by it.
 */
export function withTimelineEntry<W extends TimelineMirror>(wake: W, kind: string, at: string): W {
  if (kind === 'beacon') return { ...wake, beacons: wake.beacons + 1, lastBeaconAt: at };
  if (kind === 'escalation') return wake.escalated ? wake : { ...wake, escalated: true };
  if (kind === 'final_check') return wake.finalCheck ? wake : { ...wake, finalCheck: true };
  return wake;
}

/**
 * Why a wake ended `failed` (issue 15; DESIGN.md "More CLI"): one closed vocabulary, classified
 * where the runtime error is known (driver → skeleton → session → lifecycle). `provider_error`
 * carries the HTTP status in the wake's detail. `runtime_error` is the remainder: a failure the
 * runtime reported without anything more specific. The metric names and labels do not change.
 */
export const FAILURE_REASONS = [
  'auth_required',
  'provider_error',
  'provider_rate_limited',
  'cli_missing',
  'cli_exited',
  'context_overflow',
  'daemon_restarted',
  // issue 24: the agent's runtime was restarted by AgentTeam (its configuration changed) while it worked.
  'process_replaced',
  'approval_expired',
  /** issue 29: the turn ran longer than the agent's `turnTimeoutMinutes`; the daemon interrupted it. */
  'turn_timeout',
  /** issue 29: the operator stopped the working turn (Stop on its chip, `agentteam stop`, Telegram). */
  'stopped_by_operator',
  /**
   * issue 41: a usage report of the running turn made the agent's day reach its daily `budget`;
   * the daemon interrupted the turn (its queued wakes then wait `paused / daily_budget`).
   */
  'budget_reached',
  /**
   * issue 43: the SSH connection to an agent's host dropped (or never came up) while it worked: a
   * runtime exit, its wakes end `failed / host_unreachable` (main/daemon/hosts/).
   */
  'host_unreachable',
  /**
   * issue 40: the agent could not start, for a cause readiness names (never `runtime_error` or
   * `cli_exited`): its workspace does not exist (or is not a folder), cannot be read, or overlaps
   * AgentTeam's data folder (issue 29); or its entry cannot be run as written (an unknown runtime).
   */
  'workspace_missing',
  'workspace_unreadable',
  'workspace_overlap',
  'config_invalid',
  'runtime_error',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === 'string' && (FAILURE_REASONS as readonly string[]).includes(value);
}

/**
 * Reasons carried by `completed_without_visible_reply` (contract §9.3): `no_reply` only when the
 * agent ended its turns without the tool after its final-check; `context_overflow` for the
 * originals of an overflow whose recovery continues them (issue 24). Listed so the §10.2 counter
 * has a series at 0 for each from the start (issue 41).
 */
export const NO_REPLY_REASONS = ['no_reply', 'signal_only', 'context_overflow'] as const;
export type NoReplyReason = (typeof NO_REPLY_REASONS)[number];

/**
 * issue 27: why a wake is `paused` (its status event's `reason`): the provider's usage or rate
 * limit (until its reset), or the agent's daily budget (until the next day or a raise); issue 42:
 * `waiting_for_memory`: its sleeping agent's process is not started while free memory is below
 * `resources.minFreeMemoryMB` (until memory is back, or the operator's Try now); `waiting_for_start`:
 * `resources.startsAtOnce` agent processes are starting (until one of them is up, or Try now).
 */
export const PAUSE_KINDS = ['usage_limit', 'daily_budget', 'waiting_for_memory', 'waiting_for_start'] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];

/** issue 27: what the agent does when its provider refuses a turn for a usage or rate limit. */
export const ON_USAGE_LIMIT = ['wait', 'fail'] as const;
export type OnUsageLimit = (typeof ON_USAGE_LIMIT)[number];

/** Our own refusals of an agent's `message_send` that a wake records (issue 15: refusals are visible). */
export const SEND_REFUSAL_CODES = ['rate_limited', 'out_of_scope', 'content_too_large'] as const;
export type SendRefusalCode = (typeof SEND_REFUSAL_CODES)[number];
