/**
 * issue 16 "Inputs": a deliberate cross-target send to a DM goes only to a member that exists (never `dm:@nobody`).
 * issue 29: the conversations an agent starts are limited per hour (a real store tells which exist).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import type { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import { Store as RealStore, type Store } from '../../../../../main/daemon/store/index.js';
import { makeTempDir } from '../../../../fixtures/temp-dir.js';
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
    agentNames: () =>
      new Map([
        [h.agentId, 'A'],
        ['helper', 'Helper'],
      ]),
    getMessage: () => undefined,
    getConversation: () => undefined,
    agentCursor: () => ({ seenUpToSeq: 0, repliedUpToSeq: 0 }),
    // A cross-target send is audited (§8.3), on the harness's journal.
    appendAudit: (a: never) => h.journal.appendAudit(a),
    // A reply's settling and routing are one transaction (issue 39); this store keeps no rows of its own.
    transaction: <T>(fn: () => T): T => fn(),
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

describe('issue 29: conversations an agent starts per hour are limited like messages', () => {
  it('a send that would start a conversation over the limit is refused naming the limit; existing ones are not counted; the bucket refills', async () => {
    const dir = makeTempDir('agentteam-conversation-limit-');
    const store = RealStore.open(join(dir.path, 'data'));
    try {
      const h = wakeHarness({ autoDeliver: false });
      const sent: string[] = [];
      const tracker = {
        raiseNoResponseAlert: () => undefined,
        // Stored as the local channel does: the conversation exists from the first message on.
        send: async (r: { target: TargetKey }) => {
          store.ensureConversation(r.target);
          sent.push(r.target);
          return { status: 'sent', messageIds: ['m_1'] };
        },
      } as unknown as DeliveryTracker;
      let now = 0;
      const service = new CommunicationService({
        store,
        lifecycle: h.lifecycle,
        tracker,
        currentTurn: () => 'turn_1',
        onMessageStored: () => undefined,
        conversationsPerHour: 2,
        now: () => now,
      });
      const send = (t: string, content = 'hi') =>
        service.messageSend(h.agentId, { target: targetKey(t), content, allowCrossTarget: true });
      expect(await send('#new-1')).toMatchObject({ ok: true });
      expect(await send('#new-2')).toMatchObject({ ok: true });
      const refused = await send('#new-3');
      expect(refused).toMatchObject({ ok: false, code: 'rate_limited' });
      expect((refused as { message: string }).message).toBe(
        'You have started 2 new conversations in the last hour, the limit (limits.conversationsPerHour in agentteam.json); "#new-3" was not created and nothing was sent. Send to a conversation that exists, or wait 30 min.',
      );
      expect(store.getConversation(targetKey('#new-3'))).toBeUndefined();
      // A conversation that exists takes no token, even at the limit (a new message: issue 28 answers
      // a repeated identical one already_sent without sending it).
      expect(await send('#new-1', 'hi again')).toMatchObject({ ok: true, status: 'sent' });
      // Half an hour (and a second) refills one of the two.
      now = 30 * 60_000 + 1000;
      expect(await send('#new-3')).toMatchObject({ ok: true });
      expect(await send('#new-4')).toMatchObject({ ok: false, code: 'rate_limited' });
      expect(sent).toEqual(['#new-1', '#new-2', '#new-1', '#new-3']);
    } finally {
      store.close();
      dir.remove();
    }
  });
});
