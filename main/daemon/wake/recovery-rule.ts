/**
 * The recovery rule (contract §6.6, issue 16), in one home: how a runtime-visible wake ends when
 * the session that saw it is gone — its process was replaced, its context overflowed, or the
 * daemon restarted — and which exact targets come back as recovery frontiers
 * for one recovery continuation. Pure data in, decisions out; the pending-delivery table applies
 * it to its own rows and to the in-flight wakes the journal holds after a daemon restart.
 */
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

function ruleOf(cause: RecoveryCause): CauseRule {
  // issue 24: an overflow's originals say so (`context_overflow`), never `no_reply` (the agent's own silence).
  const noReply: TerminalOutcome = {
    status: 'completed_without_visible_reply',
    reason: cause === 'context_overflow' ? 'context_overflow' : 'no_reply',
    detail: cause,
  };
  const restarted = cause === 'daemon_restarted';
  return {
    recovered: decision(noReply, true),
    recoveredAgain: decision({
      status: 'failed',
      reason: failureReasonOf(cause),
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
      : decision(noReply),
  };
}

const RULES = Object.fromEntries(RECOVERY_CAUSES.map((cause) => [cause, ruleOf(cause)])) as Record<
  RecoveryCause,
  CauseRule
>;

/**
 * The rule for one runtime-visible wake, in this order: a signal-only wake keeps its
 * classification; a reply that already landed (`facts.repliedUpToSeq` covers its TargetSeq)
 * settles it `reply_sent`; a synthetic recovery wake, or one a recovery already covered, is never
 * recovered again and fails with the reason of the cause; a wake with no exact target ends without
 * a frontier (`failed` after a daemon restart); any other wake ends by the ordinary rule and its
 * exact target is recovered.
 */
export function recoveryDecision(
  row: Pick<PendingDelivery, 'deliveryClass' | 'messageId' | 'targetKey' | 'targetSeq'>,
  cause: RecoveryCause,
  facts?: StoredWakeFacts,
): RecoveryDecision {
  if (row.deliveryClass === 'signal_only') return SIGNAL_ONLY;
  if (facts?.repliedUpToSeq !== undefined && facts.repliedUpToSeq >= row.targetSeq) return ALREADY_SENT;
  const rule = RULES[cause];
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
