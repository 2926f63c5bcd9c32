import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseDeliverySchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { SEND_REFUSAL_CODES } from '../../../../../shared/wake-status.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import type { McpToolCallRecord } from '../../../../../main/daemon/mcp/mcp-server.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';

const general = targetKey('#general');

/** The service follows the wakes itself: the no_response alert from a no-reply end, refusals from the tool calls. */
function setup() {
  const h = wakeHarness({ autoDeliver: false });
  const noResponse: unknown[] = [];
  const changed: string[] = [];
  const tracker = { raiseNoResponseAlert: (input: unknown) => noResponse.push(input) } as unknown as DeliveryTracker;
  const service = new CommunicationService({
    store: {} as Store,
    lifecycle: h.lifecycle,
    tracker,
    currentTurn: () => 'turn_1',
    onMessageStored: () => undefined,
    onWakeChanged: (token) => changed.push(token),
  });
  const toolCalls = new Subject<McpToolCallRecord>();
  service.followToolCalls(toolCalls);
  const call = (tool: string, outcome: string) => toolCalls.next({ agentId: h.agentId, tool, outcome, durationMs: 1 });
  return { h, service, noResponse, changed, call };
}

const dirs: TempDir[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
  for (const d of dirs.splice(0)) d.remove();
});

/** Over the real store: the lifecycle journaled in it, the tracker delivering on the local channel into it. */
function overStore() {
  const dir = makeTempDir('agentteam-communication-');
  dirs.push(dir);
  const store = Store.open(dir.path);
  closers.push(() => store.close());
  store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  store.ensureConversation(general);
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    defaultCapacity: 8,
  });
  closers.push(() => lifecycle.dispose());
  lifecycle.registerAgent({ agentId: 'demo', publicName: 'demo', displayName: 'Demo', runtime: 'demo', model: null });
  const tracker = new DeliveryTracker({
    bus: new HookBus(),
    channelFor: () =>
      new LocalChannel({ appendMessage: (m) => store.appendMessage({ ...m, target: targetKey(m.target) }) }),
    settingsFor: () => ResponseDeliverySchema.parse({}),
    undelivered: store,
  });
  closers.push(() => tracker.stop());
  const service = new CommunicationService({
    store,
    lifecycle,
    tracker,
    currentTurn: () => 'turn_1',
    onMessageStored: () => undefined,
  });
  closers.push(() => service.dispose());
  /** An operator message on #general waking the agent; returns its wake token. */
  const post = (content: string): { token: string; seq: number } => {
    return postOperatorWake(store, lifecycle, general, content);
  };
  return { store, lifecycle, service, post };
}

describe('CommunicationService follows the wakes', () => {
  it('SeenUpToSeq rises to the highest TargetSeq delivered on a target, never falls (the store cursor)', () => {
    const s = overStore();
    s.post('one');
    const b = s.post('two');
    const a = s.post('three');
    expect(s.service.seenUpToSeq('demo', general)).toBe(0);
    s.lifecycle.onDelivered('demo', 0, [a.token]);
    expect(s.service.seenUpToSeq('demo', general)).toBe(3);
    s.lifecycle.onDelivered('demo', 0, [b.token]);
    expect(s.service.seenUpToSeq('demo', general)).toBe(3);
    expect(s.service.seenUpToSeq('demo', targetKey('#other'))).toBe(0);
    // One home: what the service reports is the store's cursor.
    expect(s.store.agentCursor('demo', general).seenUpToSeq).toBe(3);
  });

  it("issue 16: a reply carries its SeenUpToSeq on the send request and is stored with it as the agent's RepliedUpToSeq", async () => {
    const s = overStore();
    const a = s.post('one');
    s.post('two');
    s.lifecycle.onDelivered('demo', 0, [a.token]);
    const r = await s.service.messageSend('demo', { target: general, content: 'on it', allowCrossTarget: false });
    expect(r).toMatchObject({ ok: true, status: 'sent', seenUpToSeq: 1 });
    // Seen up to 1 when it replied: the reply covers 1, not the later 2.
    expect(s.store.agentCursor('demo', general)).toEqual({ seenUpToSeq: 1, repliedUpToSeq: 1 });
  });

  it('issue 24: a reaction is stored before it settles its wake; one to a message nobody awaits stores nothing', async () => {
    const s = overStore();
    const a = s.post('thumbs up please');
    s.lifecycle.onDelivered('demo', 0, [a.token]);
    const messageId = s.store.getWake(a.token)?.messageId ?? '';
    const storedWhenSettled: string[][] = [];
    const sub = s.lifecycle.wakeStatus$.subscribe((e) => {
      if (e.wakeToken === a.token && e.status === 'reply_sent')
        storedWhenSettled.push((s.store.reactionsOf([messageId]).get(messageId) ?? []).map((r) => r.emoji));
    });
    expect(await s.service.reaction('demo', { messageId, emoji: '👍' })).toEqual({ ok: true });
    sub.unsubscribe();
    expect(storedWhenSettled).toEqual([['👍']]);
    expect(s.store.getWake(a.token)).toMatchObject({ status: 'reply_sent', detail: 'reaction' });
    // The wake is settled: a second reaction to the same message is refused and not stored.
    expect(await s.service.reaction('demo', { messageId, emoji: '🎉' })).toMatchObject({
      ok: false,
      code: 'unknown_message',
    });
    expect(
      s.store
        .reactionsOf([messageId])
        .get(messageId)
        ?.map((r) => r.emoji),
    ).toEqual(['👍']);
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

  it.each(SEND_REFUSAL_CODES)(
    'issue 15: a message_send refused with %s is recorded on the wakes written into the runtime',
    (code) => {
      const s = setup();
      const seen = s.h.wake('#general');
      s.h.wake('#general');
      s.h.lifecycle.onDelivered(s.h.agentId, 0, [seen]);
      s.call('message_send', code);
      expect(s.changed).toEqual([seen]);
      expect(s.h.journal.events.filter((e) => e.kind === 'alert')).toEqual([
        expect.objectContaining({ wakeToken: seen, reason: code }),
      ]);
    },
  );

  it('other tools, a sent message_send and codes that are not our refusals record nothing', () => {
    const s = setup();
    const w = s.h.wake('#general');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [w]);
    s.call('message_send', 'ok');
    s.call('message_send', 'delivery_failed');
    s.call('reaction', 'rate_limited');
    expect(s.changed).toEqual([]);
    expect(s.h.journal.events.filter((e) => e.kind === 'alert')).toEqual([]);
  });

  it('dispose stops following the wakes and the tool calls', () => {
    const s = setup();
    s.service.dispose();
    const a = s.h.wake('#general', { targetSeq: 5 });
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a]);
    s.call('message_send', 'rate_limited');
    expect(s.changed).toEqual([]);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    expect(s.noResponse).toEqual([]);
  });
});
