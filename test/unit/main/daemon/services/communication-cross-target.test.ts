/** issue 16 "Inputs": a deliberate cross-target send to a DM goes only to a member that exists (never `dm:@nobody`). */
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import type { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import type { Store } from '../../../../../main/daemon/store/index.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

function setup() {
  const h = wakeHarness({ autoDeliver: false });
  const sent: Array<{ target: string }> = [];
  const tracker = {
    raiseNoResponseAlert: () => undefined,
    send: async (r: { target: string }) => {
      sent.push(r);
      return { status: 'sent', messageIds: ['m_1'] };
    },
  } as unknown as DeliveryTracker;
  const store = {
    listMembers: () => [
      { id: 'operator', kind: 'operator', name: 'You' },
      { id: h.agentId, kind: 'agent', name: 'A' },
      { id: 'helper', kind: 'agent', name: 'Helper' },
    ],
    getMessage: () => undefined,
    agentCursor: () => ({ seenUpToSeq: 0, repliedUpToSeq: 0 }),
  } as unknown as Store;
  const service = new CommunicationService({
    store,
    lifecycle: h.lifecycle,
    tracker,
    currentTurn: () => 'turn_1',
    onMessageStored: () => undefined,
  });
  return { h, service, sent };
}

describe('cross-target sends to a DM', () => {
  it('refuses a DM of a member that does not exist, sending nothing', async () => {
    const s = setup();
    const r = await s.service.messageSend(s.h.agentId, {
      target: targetKey('dm:@nobody'),
      content: 'hi',
      allowCrossTarget: true,
    });
    expect(r).toMatchObject({ ok: false, code: 'unknown_target' });
    expect((r as { message: string }).message).toMatch(/no member "@nobody".*"dm:@helper"/);
    expect(s.sent).toEqual([]);
  });

  it('allows a DM of an existing agent, and leaves channels alone', async () => {
    const s = setup();
    for (const t of ['dm:@helper', '#elsewhere']) {
      const r = await s.service.messageSend(s.h.agentId, {
        target: targetKey(t),
        content: 'hi',
        allowCrossTarget: true,
      });
      expect(r).toMatchObject({ ok: true, status: 'sent' });
    }
    expect(s.sent.map((x) => x.target)).toEqual(['dm:@helper', '#elsewhere']);
  });

  it('without allow_cross_target the scope refusal comes first, as before', async () => {
    const s = setup();
    const r = await s.service.messageSend(s.h.agentId, {
      target: targetKey('dm:@nobody'),
      content: 'hi',
      allowCrossTarget: false,
    });
    expect(r).toMatchObject({ ok: false, code: 'out_of_scope' });
  });
});
