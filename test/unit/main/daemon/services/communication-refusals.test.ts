/**
 * issue 15 "our own refusals are visible": CommunicationService.onSendRefused records a refused
 * `message_send` on the wakes the runtime is handling (charged on their rows by the lifecycle),
 * and a wake that then ends without a reply names the refusal in its detail (which the chip's
 * Details turn into plain words).
 */
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../../../shared/agent-readiness.js';
import { targetKey } from '../../../../../shared/target.js';
import { SEND_REFUSAL_CODES } from '../../../../../shared/wake-status.js';
import type { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import type { Store } from '../../../../../main/daemon/store/index.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

/** The communication service over a wake harness: the alerts it records go to the harness's journal. */
function over(h: ReturnType<typeof wakeHarness>): CommunicationService {
  return new CommunicationService({
    store: { appendWakeEvent: (e: never) => h.journal.appendWakeEvent(e) } as unknown as Store,
    lifecycle: h.lifecycle,
    tracker: { raiseNoResponseAlert: () => undefined } as unknown as DeliveryTracker,
    currentTurn: () => null,
    onMessageStored: () => undefined,
  });
}

describe('CommunicationService.onSendRefused (issue 15)', () => {
  it.each(SEND_REFUSAL_CODES)('%s: recorded on the wake, named in the no-reply terminal detail', (code) => {
    const h = wakeHarness();
    const w = h.wake('#general');
    expect(over(h).onSendRefused(h.agentId, code, 'too many')).toEqual([w]);
    // The journal row (the wake's timeline) says which refusal happened, as an alert.
    expect(h.journal.events.filter((e) => e.wakeToken === w && e.kind === 'alert')).toEqual([
      { wakeToken: w, kind: 'alert', reason: code, detail: `message_send refused: ${code}: too many` },
    ]);
    h.lifecycle.onTurnBoundary(h.agentId, 0); // final-check
    h.lifecycle.onTurnBoundary(h.agentId, 0); // still no reply: terminal
    const [end] = h.terminals(w);
    expect(end).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply' });
    expect(end?.detail).toMatch(new RegExp(`^message_send refused: ${code}`));
    expect(refusalOf(end?.detail ?? null)).toBe(code);
    expect(h.journal.wakes.get(w)?.detail).toBe(end?.detail);
  });

  it('a failed wake keeps its reason and prefixes the refusal to its runtime detail', () => {
    const h = wakeHarness();
    const w = h.wake('#general');
    over(h).onSendRefused(h.agentId, 'content_too_large', 'over the limit');
    h.lifecycle.onRuntimeError(h.agentId, 0, 'api_error_status 500: API Error: 500', { reason: 'provider_error' });
    expect(h.terminals(w)).toMatchObject([
      {
        status: 'failed',
        reason: 'provider_error',
        detail: 'message_send refused: content_too_large; api_error_status 500: API Error: 500',
      },
    ]);
  });

  it('a wake that replied after a refusal says nothing about it (the retry succeeded)', () => {
    const h = wakeHarness();
    const w = h.wake('#general', { targetSeq: 1 });
    over(h).onSendRefused(h.agentId, 'rate_limited', 'wait');
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: targetKey('#general'), seenUpToSeq: 1 });
    const [end] = h.terminals(w);
    expect(end?.status).toBe('reply_sent');
    expect(refusalOf(end?.detail ?? null)).toBeNull();
  });

  it('only wakes already written into the runtime are charged; a later wake of the agent is not', () => {
    const h = wakeHarness({ autoDeliver: false });
    const service = over(h);
    const w = h.wake('#general');
    // Not yet delivered to the runtime: the refusal cannot be about it.
    expect(service.onSendRefused(h.agentId, 'out_of_scope', 'x')).toEqual([]);
    h.lifecycle.onDelivered(h.agentId, 0, [w]);
    expect(service.onSendRefused(h.agentId, 'out_of_scope', 'x')).toEqual([w]);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    const next = h.wake('#general');
    h.lifecycle.onDelivered(h.agentId, 0, [next]);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(refusalOf(h.terminals(w)[0]?.detail ?? null)).toBe('out_of_scope');
    expect(refusalOf(h.terminals(next)[0]?.detail ?? null)).toBeNull();
  });

  it('an unknown agent is a no-op', () => {
    const h = wakeHarness();
    expect(over(h).onSendRefused('nobody', 'rate_limited', 'x')).toEqual([]);
  });
});
