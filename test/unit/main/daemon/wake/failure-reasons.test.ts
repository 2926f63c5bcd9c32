/**
 * issue 15 "each reason code reachable by a test": the reasons the wake layer itself gives.
 * A recovery continuation (contract §6.6) that is interrupted again cannot be recovered twice:
 * it ends `failed` with the reason of what interrupted it — `context_overflow` (the context
 * overflowed or was compacted again), `cli_exited` (the process was replaced again),
 * `daemon_restarted` (the daemon restarted). A runtime's own failures are classified by
 * failure-classifier.ts and reach the wake through the session (see agent-session.test.ts and
 * test/integration/runtime/failure-reasons.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import { PendingDeliveryTable, type WakeAdmission } from '../../../../../main/daemon/wake/index.js';
import { RECOVERY_MESSAGE_PREFIX } from '../../../../../main/daemon/wake/pending-delivery.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

const recoveryWake: WakeAdmission = {
  wakeToken: 'wr',
  messageId: `${RECOVERY_MESSAGE_PREFIX}1`,
  target: '#general',
  targetKey: targetKey('#general'),
  targetSeq: 3,
  deliveryClass: 'visible_reply',
};

function visibleRecoveryRow(): PendingDeliveryTable {
  const t = new PendingDeliveryTable(4);
  t.enqueue(recoveryWake);
  t.markDelivered(0, ['wr']);
  return t;
}

const failedOf = (effects: ReadonlyArray<{ kind: string }>) =>
  effects.flatMap((e) => (e.kind === 'terminal' ? [(e as unknown as { outcome: unknown }).outcome] : []));

describe('failure reasons the wake layer gives (issue 15)', () => {
  it.each([['context_overflow', 'context_overflow']] as const)(
    'a recovery interrupted by %s ends failed: %s',
    (cause, reason) => {
      const t = visibleRecoveryRow();
      const r = t.contextReset(0, cause);
      expect(failedOf(r.effects)).toEqual([
        { status: 'failed', reason, detail: `the recovery continuation was interrupted too (${cause})` },
      ]);
      // never recovered twice
      expect(r.recovery).toEqual([]);
    },
  );

  it('a recovery whose process is replaced again ends failed: process_replaced (issue 24: the reason of the replacement)', () => {
    const t = visibleRecoveryRow();
    const r = t.processReplaced(1);
    expect(failedOf(r.effects)).toEqual([
      {
        status: 'failed',
        reason: 'process_replaced',
        detail: 'the recovery continuation was interrupted too (process_replaced)',
      },
    ]);
  });

  it('a recovery row still in the runtime when its process exits ends failed: cli_exited', () => {
    const t = visibleRecoveryRow();
    expect(failedOf(t.processExited(0, 'Claude Code exited during a turn (code 1, signal null)'))).toEqual([
      { status: 'failed', reason: 'cli_exited', detail: 'Claude Code exited during a turn (code 1, signal null)' },
    ]);
  });

  it('a recovery in flight when the daemon restarts ends failed: daemon_restarted', () => {
    const h = wakeHarness();
    h.wake('#general', { token: 'wr' });
    // The journal holds it in flight as a recovery continuation.
    const stored = h.journal.wakes.get('wr');
    if (stored === undefined) throw new Error('wake not journaled');
    h.journal.wakes.set('wr', { ...stored, messageId: `${RECOVERY_MESSAGE_PREFIX}1`, status: 'delivered' });
    const after = wakeHarness();
    for (const [k, v] of h.journal.wakes) after.journal.wakes.set(k, v);
    after.lifecycle.restore(after.agentId);
    expect(after.terminals('wr')).toMatchObject([{ status: 'failed', reason: 'daemon_restarted' }]);
  });

  it('a delivery that fails because the runtime is down carries the reason it went down for', () => {
    const h = wakeHarness({ autoDeliver: false });
    const w = h.wake('#general');
    h.lifecycle.onDeliveryFailed(h.agentId, 0, [w], 'Could not start "codex" (spawn codex ENOENT).', 'cli_missing');
    expect(h.terminals(w)).toMatchObject([{ status: 'failed', reason: 'cli_missing' }]);
  });
});
