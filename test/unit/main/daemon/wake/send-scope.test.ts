import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import type { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import type { Store } from '../../../../../main/daemon/store/index.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';
import { PendingDeliveryTable } from '../../../../../main/daemon/wake/index.js';

const general = targetKey('#general');
const ops = targetKey('#ops');

describe('contract §8.3 turn message-send scope', () => {
  it('admits only exact destinations of runtime-visible inputs; a thread is not its parent', () => {
    const h = wakeHarness({ autoDeliver: false });
    const w = h.wake('#general:ab12');
    // admitted but not yet runtime-visible: not in scope
    expect(h.lifecycle.checkSendScope(h.agentId, targetKey('#general:ab12'), false)).toMatchObject({
      ok: false,
      code: 'out_of_scope',
    });
    h.lifecycle.onDelivered(h.agentId, 0, [w]);
    expect(h.lifecycle.checkSendScope(h.agentId, targetKey('#general:ab12'), false)).toEqual({
      ok: true,
      crossTarget: false,
    });
    expect(h.lifecycle.checkSendScope(h.agentId, general, false)).toMatchObject({ ok: false, code: 'out_of_scope' });
  });

  it('includes extra sendable targets the input carries (task scope / workflow target)', () => {
    const h = wakeHarness();
    h.lifecycle.enqueue(h.agentId, {
      wakeToken: 'w1',
      messageId: 'm1',
      target: '#general',
      targetSeq: 1,
      deliveryClass: 'visible_reply',
      sendableTargets: [ops],
    });
    expect(h.lifecycle.checkSendScope(h.agentId, ops, false)).toEqual({ ok: true, crossTarget: false });
  });

  it('rejects a send outside the scope with an actionable message unless allow_cross_target, which is allowed and audited', async () => {
    const h = wakeHarness();
    // issue 39: the communication service audits the send (on the harness's journal), the lifecycle settles it.
    const service = new CommunicationService({
      store: {
        agentCursor: () => ({ seenUpToSeq: 0, repliedUpToSeq: 0 }),
        getConversation: () => ({}),
        getMessage: () => undefined,
        getWake: () => undefined,
        appendAudit: (a: never) => h.journal.appendAudit(a),
        // A reply's settling and routing are one transaction (issue 39); this store keeps no rows of its own.
        transaction: <T>(fn: () => T): T => fn(),
      } as unknown as Store,
      lifecycle: h.lifecycle,
      tracker: { send: async () => ({ status: 'sent', messageIds: ['out1'] }) } as unknown as DeliveryTracker,
      currentTurn: () => 'turn_1',
      onMessageStored: () => undefined,
    });
    const sending = h.wake('#general', { targetSeq: 1 });
    const rejected = h.lifecycle.checkSendScope(h.agentId, ops, false);
    expect(rejected).toMatchObject({ ok: false, code: 'out_of_scope' });
    if (!rejected.ok) expect(rejected.message).toContain('allow_cross_target');
    expect(h.lifecycle.checkSendScope(h.agentId, ops, true)).toEqual({ ok: true, crossTarget: true });
    await service.messageSend(h.agentId, { target: ops, content: 'to ops on purpose', allowCrossTarget: true });
    expect(h.journal.audits).toEqual([
      // issue 24: on the timeline of the wake being handled when it sent
      { agentId: h.agentId, kind: 'cross_target_send', target: '#ops', messageId: 'out1', wakeTokens: [sending] },
    ]);
    // a cross-target send settles nothing of the other target
    expect(h.lifecycle.pending(h.agentId)).toHaveLength(1);
  });

  it('retires on an ordinary turn_end with nothing pending, but not while a final-check continuation is pending', () => {
    const h = wakeHarness();
    h.wake('#general', { targetSeq: 1 });
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).not.toBeNull();
    expect(h.lifecycle.checkSendScope(h.agentId, general, false).ok).toBe(true); // final-check continuation keeps it
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.lifecycle.checkSendScope(h.agentId, general, false)).toMatchObject({ ok: false, code: 'out_of_scope' });
  });

  it('retires on idle, is kept across a compaction continuation, and a fresh input re-establishes it', () => {
    const h = wakeHarness();
    h.wake('#general', { targetSeq: 1 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    h.lifecycle.onTurnBoundary(h.agentId, 0, 'compaction');
    expect(h.lifecycle.checkSendScope(h.agentId, general, false).ok).toBe(true);
    h.lifecycle.onTurnBoundary(h.agentId, 0, 'idle');
    expect(h.lifecycle.checkSendScope(h.agentId, general, false).ok).toBe(false);
    h.wake('#general', { targetSeq: 2 });
    expect(h.lifecycle.checkSendScope(h.agentId, general, false).ok).toBe(true);
  });

  it('is not restored after process replacement, and never falls back to the latest delivery', () => {
    const h = wakeHarness();
    h.wake('#general', { targetSeq: 1 });
    h.lifecycle.onProcessReplaced(h.agentId, 1);
    expect(h.lifecycle.checkSendScope(h.agentId, general, false)).toMatchObject({ ok: false, code: 'out_of_scope' });
  });

  it('is not restored after a daemon restart (a fresh table starts empty)', () => {
    const t = new PendingDeliveryTable(4);
    expect(t.scope().size).toBe(0);
    expect(t.inScope(general)).toBe(false);
  });

  it('answers unknown_agent for an agent the daemon does not know', () => {
    const h = wakeHarness();
    expect(h.lifecycle.checkSendScope('ghost', general, true)).toMatchObject({ ok: false, code: 'unknown_agent' });
  });
});
