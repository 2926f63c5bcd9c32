/**
 * issue 38: the contract where features meet, one named case per finding (each fails on the code
 * before issue 38). The model-based test (wake-contract.model.test.ts) generates these and more;
 * these pin them by name.
 */
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

const general = targetKey('#general');
const LIMIT = { kind: 'usage_limit' as const, resetsAt: null, detail: 'HTTP 429' };

function finalChecksOf(h: ReturnType<typeof wakeHarness>, token: string): number {
  return h.journal.wakes.get(token)?.finalChecks ?? 0;
}

describe('issue 38: a usage limit inside a final-check turn', () => {
  it('pauses the wake (never fails it), continues it in the same session without the task, and never sends a second final-check', () => {
    const h = wakeHarness();
    const w = h.wake('#general');
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)?.wakeTokens).toEqual([w]);
    // The provider refuses the final-check turn: a usage limit.
    expect(h.lifecycle.pause(h.agentId, 0, LIMIT)).toEqual([w]);
    expect(h.journal.statusOf(w)).toBe('paused');
    const before = h.deliveries.length;
    expect(h.lifecycle.resume(h.agentId)).toBe(true);
    // Offered again, once, as a continuation: the session already holds the task.
    const again = h.deliveries.slice(before);
    expect(again.flatMap((d) => d.wakes.map((x) => ({ token: x.wakeToken, resumed: x.resumed })))).toEqual([
      { token: w, resumed: true },
    ]);
    // The continued turn ends without a reply: the wake ends no_reply, no second final-check.
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.terminals(w)).toMatchObject([{ status: 'completed_without_visible_reply', reason: 'no_reply' }]);
    expect(finalChecksOf(h, w)).toBe(1);
  });

  it('keeps its one final-check across a daemon restart while paused', () => {
    const h = wakeHarness();
    const w = h.wake('#general');
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.pause(h.agentId, 0, LIMIT);
    // The daemon restarts while the agent is paused: a new lifecycle over the same journal.
    const h2 = wakeHarness();
    for (const [k, v] of h.journal.wakes) h2.journal.wakes.set(k, v);
    h2.lifecycle.restore(h2.agentId, undefined, LIMIT);
    expect(h2.journal.statusOf(w)).toBe('paused');
    expect(h2.deliveries).toHaveLength(0);
    h2.lifecycle.resume(h2.agentId);
    // A new process: the input is written again (a new session), but its final-check already went out.
    expect(h2.deliveries.flatMap((d) => d.wakes.map((x) => [x.wakeToken, x.resumed]))).toEqual([[w, false]]);
    expect(h2.lifecycle.onTurnBoundary(h2.agentId, 0)).toBeNull();
    expect(h2.terminals(w)).toMatchObject([{ status: 'completed_without_visible_reply', reason: 'no_reply' }]);
    expect(finalChecksOf(h2, w)).toBe(1);
  });

  it('a delivery still waiting in the runtime when the pause comes is withdrawn (never written while paused), and written once at the resume', () => {
    const h = wakeHarness({ autoDeliver: false });
    const w1 = h.wake('#general');
    h.lifecycle.onDelivered(h.agentId, 0, [w1]);
    const w2 = h.wake('#general');
    // w2 is admitted and waits in the runtime's prompt queue behind w1's turn.
    expect(h.lifecycle.due(h.agentId, 0, [w2])).toBe(true);
    h.lifecycle.pause(h.agentId, 0, LIMIT);
    expect(h.lifecycle.due(h.agentId, 0, [w2])).toBe(false);
    expect(h.journal.statusOf(w2)).toBe('paused');
    h.lifecycle.resume(h.agentId);
    const offered = h.deliveries.at(-1)?.wakes.map((x) => [x.wakeToken, x.resumed === true]);
    // w1 continues (its session holds it); w2 is written for the first time: its task, once.
    expect(offered).toEqual([
      [w1, true],
      [w2, false],
    ]);
    expect(h.lifecycle.due(h.agentId, 0, [w2])).toBe(true);
  });
});

describe('issue 38: Stop and the turn timeout end only the stopped turn', () => {
  it('ends the runtime-visible rows with the reason; a wake admitted behind them is delivered after it', () => {
    const h = wakeHarness({ autoDeliver: false });
    const working = h.wake('#general');
    h.lifecycle.onDelivered(h.agentId, 0, [working]);
    const waiting = h.wake('#ops');
    h.lifecycle.onTurnEnded(h.agentId, 0, 'stopped_by_operator', 'stopped by the operator');
    expect(h.terminals(working)).toMatchObject([
      { status: 'failed', reason: 'stopped_by_operator', detail: 'stopped by the operator' },
    ]);
    expect(h.terminals(waiting)).toEqual([]);
    expect(h.lifecycle.due(h.agentId, 0, [waiting])).toBe(true);
    h.lifecycle.onDelivered(h.agentId, 0, [waiting]);
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: targetKey('#ops'), seenUpToSeq: 2 });
    expect(h.terminals(waiting)).toMatchObject([{ status: 'reply_sent' }]);
  });
});

describe('issue 38: a hand-back wake whose agent then posts its answer', () => {
  it('settles reply_sent (covered), never "received — back to idle"', () => {
    const h = wakeHarness();
    const handBack = h.wake('#general', { deliveryClass: 'signal_only', targetSeq: 4 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 4 });
    expect(h.terminals(handBack)).toMatchObject([{ status: 'reply_sent', deliveryClass: 'signal_only' }]);
  });
});
