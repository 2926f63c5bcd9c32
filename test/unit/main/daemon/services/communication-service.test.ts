import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import type { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import type { Store } from '../../../../../main/daemon/store/index.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

/** The service follows the wakes itself: SeenUpToSeq from `delivered`, the no_response alert from a no-reply end. */
function setup() {
  const h = wakeHarness({ autoDeliver: false });
  const noResponse: unknown[] = [];
  const tracker = { raiseNoResponseAlert: (input: unknown) => noResponse.push(input) } as unknown as DeliveryTracker;
  const service = new CommunicationService({
    store: {} as Store,
    lifecycle: h.lifecycle,
    tracker,
    currentTurn: () => 'turn_1',
    onMessageStored: () => undefined,
  });
  return { h, service, noResponse };
}

describe('CommunicationService follows the wakes', () => {
  it('SeenUpToSeq rises to the highest TargetSeq delivered on a target, never falls', () => {
    const s = setup();
    const general = targetKey('#general');
    const a = s.h.wake('#general', { targetSeq: 3 });
    const b = s.h.wake('#general', { targetSeq: 2 });
    expect(s.service.seenUpToSeq(s.h.agentId, general)).toBe(0);
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a]);
    expect(s.service.seenUpToSeq(s.h.agentId, general)).toBe(3);
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [b]);
    expect(s.service.seenUpToSeq(s.h.agentId, general)).toBe(3);
    expect(s.service.seenUpToSeq(s.h.agentId, targetKey('#other'))).toBe(0);
  });

  it('a wake ending without a visible reply (no_reply) asks the tracker for its no_response alert; signal_only does not', () => {
    const s = setup();
    const a = s.h.wake('#general');
    const sig = s.h.wake('#general', { deliveryClass: 'signal_only' });
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a, sig]);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    expect(s.noResponse).toEqual([
      { turnId: 'turn_1', agentId: s.h.agentId, channel: 'local', target: '#general', wakeToken: a },
    ]);
  });

  it('dispose stops following', () => {
    const s = setup();
    s.service.dispose();
    const a = s.h.wake('#general', { targetSeq: 5 });
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a]);
    expect(s.service.seenUpToSeq(s.h.agentId, targetKey('#general'))).toBe(0);
  });
});
