/**
 * The recovery rule (contract §6.6, issue 16) as a table: one row per case, for every cause. The
 * pending-delivery table applies it to its own rows and to the in-flight wakes of a daemon restart
 * (pending-delivery-table.test.ts checks both paths). issue 24: a session that ended by a failure
 * (a crash, a replacement, a daemon restart) fails its originals with that failure, never
 * `completed_without_visible_reply`; only a context reset keeps the ordinary rule here.
 */
import { describe, expect, it } from 'vitest';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import {
  RECOVERY_MESSAGE_PREFIX,
  type DeliveryClass,
  type RecoveryCause,
} from '../../../../../main/daemon/wake/pending-delivery.js';
import {
  DAEMON_RESTARTED,
  PROCESS_REPLACED,
  recoveryDecision,
  recoveryFrontiers,
  type SessionFailure,
  type StoredWakeFacts,
} from '../../../../../main/daemon/wake/recovery-rule.js';

const general = targetKey('#general');
const ops = targetKey('#ops');

interface Case {
  readonly name: string;
  readonly deliveryClass?: DeliveryClass;
  readonly messageId?: string;
  readonly targetKey?: TargetKey | null;
  readonly facts?: StoredWakeFacts;
  readonly cause: RecoveryCause;
  /** The failure the session ended with (a crash's exit); absent: the rule's default for the cause. */
  readonly failure?: SessionFailure;
  readonly outcome: { status: string; reason: string | null; detail: string | null };
  readonly recover: boolean;
}

const recoveryId = `${RECOVERY_MESSAGE_PREFIX}1`;
// issue 24: an overflow's originals end with the reason that says so, never `no_reply`.
const noReply = (cause: RecoveryCause) => ({
  status: 'completed_without_visible_reply',
  reason: cause === 'context_overflow' ? 'context_overflow' : 'no_reply',
  detail: cause,
});
const signalOnly = { status: 'completed_without_visible_reply', reason: 'signal_only', detail: null };
const crash: SessionFailure = { reason: 'cli_exited', detail: 'the claude-code runtime exited unexpectedly (SIGKILL)' };
const reconfigured: SessionFailure = { reason: 'process_replaced', detail: "the agent's workspace changed" };
const failedWith = (f: SessionFailure) => ({ status: 'failed', reason: f.reason, detail: f.detail });

const CASES: readonly Case[] = [
  // a context overflow in a live session: the ordinary rule, ended with the cause, its exact target recovered
  ...(['context_overflow'] as const).map((cause): Case => ({
    name: `a visible_reply wake, ${cause}`,
    cause,
    outcome: noReply(cause),
    recover: true,
  })),
  // issue 24: a session that failed fails its originals with that failure, and still recovers them
  {
    name: 'a visible_reply wake, process_replaced after a crash',
    cause: 'process_replaced',
    failure: crash,
    outcome: failedWith(crash),
    recover: true,
  },
  {
    name: 'a visible_reply wake, process_replaced by a new configuration',
    cause: 'process_replaced',
    failure: reconfigured,
    outcome: failedWith(reconfigured),
    recover: true,
  },
  {
    name: 'a visible_reply wake, process_replaced with no exit reported',
    cause: 'process_replaced',
    outcome: failedWith(PROCESS_REPLACED),
    recover: true,
  },
  {
    name: 'a visible_reply wake, daemon_restarted',
    cause: 'daemon_restarted',
    outcome: failedWith(DAEMON_RESTARTED),
    recover: true,
  },
  // signal-only keeps its classification, whatever the cause or the facts
  ...(['process_replaced', 'daemon_restarted'] as const).map((cause): Case => ({
    name: `a signal_only wake, ${cause}`,
    deliveryClass: 'signal_only',
    facts: { repliedUpToSeq: 9, recoveries: 1 },
    cause,
    outcome: signalOnly,
    recover: false,
  })),
  // a synthetic recovery wake is never recovered twice: failed with the reason of the cause
  {
    name: 'a recovery wake, process_replaced after a crash',
    messageId: recoveryId,
    cause: 'process_replaced',
    failure: crash,
    outcome: {
      status: 'failed',
      reason: 'cli_exited',
      detail: 'the recovery continuation was interrupted too (process_replaced)',
    },
    recover: false,
  },
  {
    name: 'a recovery wake, context_overflow',
    messageId: recoveryId,
    cause: 'context_overflow',
    outcome: {
      status: 'failed',
      reason: 'context_overflow',
      detail: 'the recovery continuation was interrupted too (context_overflow)',
    },
    recover: false,
  },
  {
    name: 'no exact target, context_overflow',
    targetKey: null,
    cause: 'context_overflow',
    outcome: noReply('context_overflow'),
    recover: false,
  },
  {
    name: 'a recovery wake, daemon_restarted',
    messageId: recoveryId,
    cause: 'daemon_restarted',
    outcome: {
      status: 'failed',
      reason: 'daemon_restarted',
      detail: 'the daemon restarted while this wake was already being recovered once',
    },
    recover: false,
  },
  {
    name: 'a wake a recovery already covered, daemon_restarted',
    facts: { recoveries: 1 },
    cause: 'daemon_restarted',
    outcome: {
      status: 'failed',
      reason: 'daemon_restarted',
      detail: 'the daemon restarted while this wake was already being recovered once',
    },
    recover: false,
  },
  // no exact target: nothing to recover into
  {
    name: 'no exact target, process_replaced after a crash',
    targetKey: null,
    cause: 'process_replaced',
    failure: crash,
    outcome: failedWith(crash),
    recover: false,
  },
  {
    name: 'no exact target, context_overflow',
    targetKey: null,
    cause: 'context_overflow',
    outcome: noReply('context_overflow'),
    recover: false,
  },
  {
    name: 'no exact target, daemon_restarted',
    targetKey: null,
    cause: 'daemon_restarted',
    outcome: {
      status: 'failed',
      reason: 'daemon_restarted',
      detail: 'the daemon restarted and this wake has no exact target to recover',
    },
    recover: false,
  },
  // a reply that already landed (stored RepliedUpToSeq covers the TargetSeq 3) settles it
  {
    name: 'a landed reply, daemon_restarted',
    facts: { repliedUpToSeq: 3, recoveries: 1 },
    cause: 'daemon_restarted',
    outcome: { status: 'reply_sent', reason: null, detail: 'already_sent' },
    recover: false,
  },
  {
    name: 'a reply below the wake, daemon_restarted',
    facts: { repliedUpToSeq: 2 },
    cause: 'daemon_restarted',
    outcome: failedWith(DAEMON_RESTARTED),
    recover: true,
  },
];

describe('the recovery rule (contract §6.6)', () => {
  it.each(CASES)('$name', (c) => {
    const row = {
      deliveryClass: c.deliveryClass ?? 'visible_reply',
      messageId: c.messageId ?? 'm3',
      targetKey: c.targetKey === undefined ? general : c.targetKey,
      targetSeq: 3,
    };
    expect(recoveryDecision(row, c.cause, c.facts, c.failure)).toEqual({ outcome: c.outcome, recover: c.recover });
  });

  it('issue 24: no_reply is never the end of a session that failed, whatever the wake', () => {
    for (const cause of ['process_replaced', 'daemon_restarted'] as const)
      for (const messageId of ['m3', recoveryId])
        for (const key of [general, null])
          for (const facts of [undefined, { recoveries: 1 }, { repliedUpToSeq: 1 }]) {
            const { outcome } = recoveryDecision(
              { deliveryClass: 'visible_reply', messageId, targetKey: key, targetSeq: 3 },
              cause,
              facts,
              cause === 'process_replaced' ? crash : undefined,
            );
            expect(outcome.status).toBe('failed');
          }
  });

  it('frontiers: one per canonical target in first-seen order, at its highest TargetSeq, every wake token in FIFO order', () => {
    const row = (n: number, key: TargetKey, seq: number) => ({
      targetKey: key,
      targetSeq: seq,
      messageId: `m${n}`,
      wakeToken: `w${n}`,
    });
    expect(recoveryFrontiers([row(1, general, 4), row(2, ops, 1), row(3, general, 2), row(4, general, 7)])).toEqual([
      { target: general, targetSeq: 7, messageId: 'm4', wakeToken: 'w4', wakeTokens: ['w1', 'w3', 'w4'] },
      { target: ops, targetSeq: 1, messageId: 'm2', wakeToken: 'w2', wakeTokens: ['w2'] },
    ]);
    expect(recoveryFrontiers([])).toEqual([]);
  });
});
