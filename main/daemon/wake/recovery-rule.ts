/**
 * The recovery rule (contract §6.6, issue 16), in one home: how a runtime-visible wake ends when
 * the session that saw it is gone — its process was replaced, its context overflowed, or the
 * daemon restarted — and which exact targets come back as recovery frontiers
 * for one recovery continuation. Pure data in, decisions out; the pending-delivery table applies
 * it to its own rows and to the in-flight wakes the journal holds after a daemon restart.
 *
 * issue 24 (contract §9.2 "runtime error → failed", §12 "never reclassified"): when the session
 * ended by a failure — the CLI exited, the process was replaced, the daemon restarted — the
 * originals end `failed` with that failure's reason (`cli_exited`, `process_replaced`,
 * `daemon_restarted`, …), never `completed_without_visible_reply`; the recovery continuation still
 * re-delivers their work. `no_reply` is left to an agent that ended its turns without the tool.
 */
import type { FailureReason } from '../../../shared/wake-status.js';
import type { TargetKey } from '../../../shared/target.js';
import {
  failureReasonOf,
  isRecoveryMessage,
  RECOVERY_CAUSES,
  type PendingDelivery,
  type RecoveryCause,
  type RecoveryFrontier,
  type TerminalOutcome,
} from './pending-delivery.js';

/** What the journal knows of a wake beyond its row; only a daemon restart has it (a live row has neither). */
export interface StoredWakeFacts {
  /** The agent's stored RepliedUpToSeq of the wake's target: a reply that landed covers the wake. */
  readonly repliedUpToSeq?: number;
  /** Recovery continuations that already covered the wake (absent = 0). */
  readonly recoveries?: number;
}

/**
 * issue 24: the failure a session ended with (a crash's reason and bounded detail, a replacement, a
 * daemon restart). Causes that end a session this way (`SESSION_FAILURE_CAUSES`) always have one.
 */
export interface SessionFailure {
  readonly reason: FailureReason;
  readonly detail: string;
}

/** The causes whose session ended by a failure: their originals end `failed` (issue 24). */
export const SESSION_FAILURE_CAUSES: ReadonlySet<RecoveryCause> = new Set(['daemon_restarted', 'process_replaced']);

/** A daemon restart, in words: the failure of every wake the journal held in flight (issue 24). */
export const DAEMON_RESTARTED: SessionFailure = Object.freeze({
  reason: 'daemon_restarted',
  detail: 'AgentTeam restarted while the agent was working on this wake',
});

/** A replacement the runtime did not report an exit for (issue 24). */
export const PROCESS_REPLACED: SessionFailure = Object.freeze({
  reason: 'process_replaced',
  detail: 'the runtime process was replaced while the agent was working on this wake',
});

/** How one runtime-visible wake ends at a recovery, and whether its exact target comes back as a frontier. */
export interface RecoveryDecision {
  readonly outcome: TerminalOutcome;
  readonly recover: boolean;
}

/** Where the causes differ, as data. */
interface CauseRule {
  /** The ordinary rule (no_reply, detail = the cause); the wake's exact target is recovered. */
  readonly recovered: RecoveryDecision;
  /** A synthetic recovery wake, or one a recovery already covered: at most one recovery per wake. */
  readonly recoveredAgain: RecoveryDecision;
  /** A wake with no exact target: nothing to recover it into. */
  readonly noExactTarget: RecoveryDecision;
}

const decision = (outcome: TerminalOutcome, recover = false): RecoveryDecision =>
  Object.freeze({ outcome: Object.freeze(outcome), recover });

// contract §9.3: a signal-only row carries only its classification.
const SIGNAL_ONLY = decision({ status: 'completed_without_visible_reply', reason: 'signal_only', detail: null });
// issue 16: the reply landed before the daemon died (the stored RepliedUpToSeq covers it): never asked again.
const ALREADY_SENT = decision({ status: 'reply_sent', reason: null, detail: 'already_sent' });

function ruleOf(cause: RecoveryCause, failure: SessionFailure | undefined): CauseRule {
  const restarted = cause === 'daemon_restarted';
  // issue 24: a session that ended by a failure fails its originals with it; an overflow's
  // originals end without a reply and say so (`context_overflow`), never `no_reply` (the agent's own silence).
  const ended: TerminalOutcome =
    failure !== undefined
      ? { status: 'failed', reason: failure.reason, detail: failure.detail }
      : {
          status: 'completed_without_visible_reply',
          reason: cause === 'context_overflow' ? 'context_overflow' : 'no_reply',
          detail: cause,
        };
  return {
    recovered: decision(ended, true),
    recoveredAgain: decision({
      status: 'failed',
      reason: failure?.reason ?? failureReasonOf(cause),
      detail: restarted
        ? 'the daemon restarted while this wake was already being recovered once'
        : `the recovery continuation was interrupted too (${cause})`,
    }),
    // A live session still ends it by the ordinary rule; after a daemon restart it fails.
    noExactTarget: restarted
      ? decision({
          status: 'failed',
          reason: 'daemon_restarted',
          detail: 'the daemon restarted and this wake has no exact target to recover',
        })
      : decision(ended),
  };
}

/** The rules of the causes whose session did not fail (built once; a failure's rule carries its detail). */
const RULES = Object.fromEntries(
  RECOVERY_CAUSES.filter((cause) => !SESSION_FAILURE_CAUSES.has(cause)).map((cause) => [
    cause,
    ruleOf(cause, undefined),
  ]),
) as Partial<Record<RecoveryCause, CauseRule>>;
/** A failure's rule per cause, built once per failure (one per replacement, shared by its rows). */
const FAILURE_RULES = new WeakMap<SessionFailure, Map<RecoveryCause, CauseRule>>();

function ruleFor(cause: RecoveryCause, failure: SessionFailure | undefined): CauseRule {
  if (!SESSION_FAILURE_CAUSES.has(cause)) return RULES[cause] as CauseRule;
  const f = failure ?? (cause === 'daemon_restarted' ? DAEMON_RESTARTED : PROCESS_REPLACED);
  let byCause = FAILURE_RULES.get(f);
  if (byCause === undefined) FAILURE_RULES.set(f, (byCause = new Map()));
  let rule = byCause.get(cause);
  if (rule === undefined) byCause.set(cause, (rule = ruleOf(cause, f)));
  return rule;
}

/**
 * The rule for one runtime-visible wake, in this order: a signal-only wake keeps its
 * classification; a reply that already landed (`facts.repliedUpToSeq` covers its TargetSeq)
 * settles it `reply_sent`; a synthetic recovery wake, or one a recovery already covered, is never
 * recovered again and fails with the reason of the cause; a wake with no exact target ends without
 * a frontier (`failed` after a daemon restart); any other wake ends — `failed` with the session's
 * `failure` when it ended by one (issue 24), else by the ordinary rule — and its exact target is
 * recovered.
 */
export function recoveryDecision(
  row: Pick<PendingDelivery, 'deliveryClass' | 'messageId' | 'targetKey' | 'targetSeq'>,
  cause: RecoveryCause,
  facts?: StoredWakeFacts,
  failure?: SessionFailure,
): RecoveryDecision {
  if (row.deliveryClass === 'signal_only') return SIGNAL_ONLY;
  if (facts?.repliedUpToSeq !== undefined && facts.repliedUpToSeq >= row.targetSeq) return ALREADY_SENT;
  const rule = ruleFor(cause, failure);
  if (isRecoveryMessage(row.messageId) || (facts?.recoveries ?? 0) > 0) return rule.recoveredAgain;
  return row.targetKey === null ? rule.noExactTarget : rule.recovered;
}

/**
 * The recovery frontiers of the recovered wakes (given in FIFO order): one per canonical target,
 * in first-seen order, at its highest TargetSeq, with every covered wake token in FIFO order.
 */
export function recoveryFrontiers(
  recovered: ReadonlyArray<Pick<PendingDelivery, 'targetKey' | 'targetSeq' | 'messageId' | 'wakeToken'>>,
): RecoveryFrontier[] {
  const byTarget = new Map<TargetKey, { frontier: RecoveryFrontier; tokens: string[] }>();
  for (const row of recovered) {
    if (row.targetKey === null) continue;
    const frontier: RecoveryFrontier = {
      target: row.targetKey,
      targetSeq: row.targetSeq,
      messageId: row.messageId,
      wakeToken: row.wakeToken,
    };
    const prev = byTarget.get(row.targetKey);
    if (prev === undefined) byTarget.set(row.targetKey, { frontier, tokens: [row.wakeToken] });
    else {
      prev.tokens.push(row.wakeToken);
      if (prev.frontier.targetSeq < row.targetSeq) prev.frontier = frontier;
    }
  }
  return [...byTarget.values()].map(({ frontier, tokens }) => ({ ...frontier, wakeTokens: tokens }));
}
