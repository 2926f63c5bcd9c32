import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseDeliverySchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { SEND_REFUSAL_CODES } from '../../../../../shared/wake-status.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { DeliveryTracker, type DeliveryAlert } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import type { McpToolCallRecord } from '../../../../../main/daemon/mcp/mcp-server.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import { Store, type MessageRecord } from '../../../../../main/daemon/store/index.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';

const general = targetKey('#general');

/** The service follows the wakes itself: the no_response alert from a no-reply end, refusals from the tool calls. */
function setup(deliveryChannelOf?: (target: string) => string) {
  const h = wakeHarness({ autoDeliver: false });
  const noResponse: unknown[] = [];
  const changed: string[] = [];
  const turn = { id: 'turn_1' as string | null };
  const tracker = { raiseNoResponseAlert: (input: unknown) => noResponse.push(input) } as unknown as DeliveryTracker;
  const service = new CommunicationService({
    // The alerts it records on the wakes go to the harness's journal.
    store: { appendWakeEvent: (e: never) => h.journal.appendWakeEvent(e) } as unknown as Store,
    lifecycle: h.lifecycle,
    tracker,
    currentTurn: () => turn.id,
    onMessageStored: () => undefined,
    onTimeline: (entry) => changed.push(entry.wakeToken),
    ...(deliveryChannelOf === undefined ? {} : { deliveryChannelOf }),
  });
  const toolCalls = new Subject<McpToolCallRecord>();
  service.followToolCalls(toolCalls);
  const call = (tool: string, outcome: string) => toolCalls.next({ agentId: h.agentId, tool, outcome, durationMs: 1 });
  /** The runtime's turn ends twice (the final-check, then the boundary after it): unresolved rows end no_reply. */
  const endTurnTwice = () => {
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
  };
  return { h, service, noResponse, changed, call, turn, endTurnTwice };
}

const dirs: TempDir[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
  for (const d of dirs.splice(0)) d.remove();
});

/** Over the real store: the lifecycle journaled in it, the tracker delivering on the local channel into it. */
function overStore(
  currentTurn: () => string | null = () => 'turn_1',
  team?: (store: Store) => NonNullable<ConstructorParameters<typeof CommunicationService>[0]['team']>,
) {
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
    pendingCapacity: 8,
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
  /** The messages pushed to the API (`message.stored`), in order. */
  const pushed: MessageRecord[] = [];
  const service = new CommunicationService({
    store,
    lifecycle,
    tracker,
    currentTurn,
    onMessageStored: (m) => pushed.push(m),
    ...(team === undefined ? {} : { team: team(store) }),
  });
  closers.push(() => service.dispose());
  const alerts: DeliveryAlert[] = [];
  const sub = tracker.alert$.subscribe((a) => alerts.push(a));
  closers.push(() => sub.unsubscribe());
  /** An operator message on `target` (default #general) waking the agent; returns its wake token. */
  const post = (content: string, target = general): { token: string; seq: number } => {
    return postOperatorWake(store, lifecycle, target, content, 'demo', (seq) => `wk_${target}_${seq}`);
  };
  return { store, lifecycle, service, post, alerts, pushed };
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

  it('issue 39: an agent message is pushed once, as it stands after the team routed it (its chain), after the wake it settles', async () => {
    // The team's part of routing: the message joins a chain (TeamService.agentMessage → setMessageChain).
    const s = overStore(undefined, (store) => ({
      agentMessage: ({ message }) => {
        store.setMessageChain(message.id, 'chain_1');
        return [];
      },
    }));
    const a = s.post('status?');
    s.lifecycle.onDelivered('demo', 0, [a.token]);
    const statuses: string[] = [];
    const sub = s.lifecycle.wakeStatus$.subscribe((e) => statuses.push(`${e.status}@${s.pushed.length}`));
    const r = await s.service.messageSend('demo', { target: general, content: 'all green', allowCrossTarget: false });
    sub.unsubscribe();
    expect(r).toMatchObject({ ok: true, status: 'sent' });
    expect(s.pushed.map((m) => [m.content, m.chainId])).toEqual([['all green', 'chain_1']]);
    // Pushed in the same stretch as the status it settles (one page message), the status first.
    expect(statuses).toEqual(['reply_sent@0']);
  });

  describe('issue 28: message_send is idempotent within a wake', () => {
    /** The agent's own messages on `target`, as stored. */
    const mine = (s: ReturnType<typeof overStore>, target = general) =>
      s.store
        .listMessages(target)
        .filter((m) => m.authorId === 'demo')
        .map((m) => m.content);

    it('a repeated identical send answers the first result as already_sent and posts nothing', async () => {
      const s = overStore();
      const a = s.post('status?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      const send = { target: general, content: 'all green', allowCrossTarget: false };
      const first = await s.service.messageSend('demo', send);
      expect(first).toMatchObject({ ok: true, status: 'sent', seenUpToSeq: 1 });
      const again = await s.service.messageSend('demo', send);
      expect(again).toEqual({ ...first, status: 'already_sent' });
      expect(mine(s)).toEqual(['all green']);
      expect(s.store.getWake(a.token)).toMatchObject({ status: 'reply_sent' });
    });

    it('two identical sends in flight at once post once', async () => {
      const s = overStore();
      const a = s.post('status?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      const send = { target: general, content: 'all green', allowCrossTarget: false };
      const [x, y] = await Promise.all([s.service.messageSend('demo', send), s.service.messageSend('demo', send)]);
      expect([x, y].map((r) => (r.ok ? r.status : r.code)).sort()).toEqual(['already_sent', 'sent']);
      expect(x.ok && y.ok && x.messageId === y.messageId).toBe(true);
      expect(mine(s)).toEqual(['all green']);
    });

    it('a deliberate second, different message in the same wake is sent', async () => {
      const s = overStore();
      const a = s.post('status?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      await s.service.messageSend('demo', { target: general, content: 'all green', allowCrossTarget: false });
      const second = await s.service.messageSend('demo', {
        target: general,
        content: 'and the build too',
        allowCrossTarget: false,
      });
      expect(second).toMatchObject({ ok: true, status: 'sent' });
      expect(mine(s)).toEqual(['all green', 'and the build too']);
    });

    it('the same text after a later wake, or in a later turn, is a new send', async () => {
      const turn = { id: 'turn_1' };
      const s = overStore(() => turn.id);
      const send = { target: general, content: 'ok', allowCrossTarget: false };
      const a = s.post('first?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent', seenUpToSeq: 1 });
      // A later wake delivered within the same turn: the agent has seen something new on the target.
      const b = s.post('second?');
      s.lifecycle.onDelivered('demo', 0, [b.token]);
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent', seenUpToSeq: 3 });
      // A later turn, nothing new seen: still a new send (the key is the turn's).
      turn.id = 'turn_2';
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent' });
      expect(mine(s)).toEqual(['ok', 'ok', 'ok']);
    });

    it('two wakes batched into one turn: the same text repeated for the second one settles it, posted once', async () => {
      // The team scenario (test/e2e/team.e2e.ts): a second wake joins the running turn for a message
      // the agent has already seen (its TargetSeq <= SeenUpToSeq, so the cursor does not move), and the
      // agent answers it with the same text as the first. Once, that repeat answered already_sent
      // without settling the new wake, which stayed `delivered`; the repeat settles by the first
      // send's frontier, which covers it.
      const s = overStore();
      const a = s.post('asked once');
      const b = s.post('and again');
      s.lifecycle.onDelivered('demo', 0, [a.token, b.token]);
      const send = { target: general, content: 'Helper answered: ship it', allowCrossTarget: false };
      const sent = await s.service.messageSend('demo', send);
      expect(sent).toMatchObject({ status: 'sent', seenUpToSeq: 2 });
      expect(s.store.getWake(a.token)).toMatchObject({ status: 'reply_sent' });
      expect(s.store.getWake(b.token)).toMatchObject({ status: 'reply_sent' });
      // A second wake for the first message (as a hand-off brings one), batched into the same turn.
      const first = s.store.listMessages(general).find((m) => m.content === 'asked once')!;
      s.lifecycle.enqueue('demo', {
        wakeToken: 'wk_second',
        messageId: first.id,
        target: general,
        targetSeq: 1,
        deliveryClass: 'visible_reply',
      });
      s.lifecycle.onDelivered('demo', 0, ['wk_second']);
      expect(s.service.seenUpToSeq('demo', general)).toBe(2);
      expect(await s.service.messageSend('demo', send)).toEqual({ ...sent, status: 'already_sent' });
      expect(s.store.getWake('wk_second')).toMatchObject({ status: 'reply_sent' });
      expect(mine(s)).toEqual([send.content]);
      expect(s.lifecycle.pending('demo')).toEqual([]);
    });

    it('the same text after the agent saw a newer message on the target answers it: a new send', async () => {
      // The operator's `@demo /ask @helper …` (daemon-teams.test.ts): the helper answers its first wake,
      // then a second wake's newer message reaches it in the same turn and it answers with the same text.
      const s = overStore();
      const a = s.post('which test first?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      const send = { target: general, content: 'the slow one', allowCrossTarget: false };
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent', seenUpToSeq: 1 });
      const b = s.post('which test first? (asked again)');
      s.lifecycle.onDelivered('demo', 0, [b.token]);
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent', seenUpToSeq: b.seq });
      expect(s.store.getWake(b.token)).toMatchObject({ status: 'reply_sent' });
      expect(mine(s)).toEqual([send.content, send.content]);
    });

    it('two identical sends in flight over two batched wakes post once and settle both', async () => {
      // The first send is still in flight when its repeat comes: the repeat waits for it and answers
      // already_sent; the wakes the first one settled are settled, none is left `delivered`.
      const s = overStore();
      const a = s.post('status?');
      const b = s.post('and the build?');
      s.lifecycle.onDelivered('demo', 0, [a.token, b.token]);
      const send = { target: general, content: 'all green', allowCrossTarget: false };
      const [x, y] = await Promise.all([s.service.messageSend('demo', send), s.service.messageSend('demo', send)]);
      expect([x, y].map((r) => (r.ok ? r.status : r.code)).sort()).toEqual(['already_sent', 'sent']);
      expect(mine(s)).toEqual(['all green']);
      for (const token of [a.token, b.token]) expect(s.store.getWake(token)).toMatchObject({ status: 'reply_sent' });
      expect(s.lifecycle.pending('demo')).toEqual([]);
    });

    it('without a running turn every call is a send', async () => {
      const s = overStore(() => null);
      const send = { target: general, content: 'ok', allowCrossTarget: true };
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent' });
      expect(await s.service.messageSend('demo', send)).toMatchObject({ status: 'sent' });
      expect(mine(s)).toEqual(['ok', 'ok']);
    });

    it('a refused first call is not remembered: the same call once allowed is sent', async () => {
      const s = overStore();
      const a = s.post('status?');
      s.lifecycle.onDelivered('demo', 0, [a.token]);
      const other = targetKey('#other');
      s.store.ensureConversation(other);
      const refused = await s.service.messageSend('demo', { target: other, content: 'hi', allowCrossTarget: false });
      expect(refused).toMatchObject({ ok: false, code: 'out_of_scope' });
      const allowed = await s.service.messageSend('demo', { target: other, content: 'hi', allowCrossTarget: true });
      expect(allowed).toMatchObject({ ok: true, status: 'sent' });
      expect(mine(s, other)).toEqual(['hi']);
    });
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

  it('issue 24: one no_response alert per turn, however many of its wakes ended no_reply; another turn has its own', () => {
    const s = setup();
    const a = s.h.wake('#general');
    const b = s.h.wake('#build');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a, b]);
    s.endTurnTwice();
    expect(s.noResponse).toEqual([
      { turnId: 'turn_1', agentId: s.h.agentId, channel: 'local', target: '#general', wakeToken: a },
    ]);
    s.turn.id = 'turn_2';
    const c = s.h.wake('#general');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [c]);
    s.endTurnTwice();
    expect(s.noResponse).toHaveLength(2);
    expect(s.noResponse[1]).toMatchObject({ turnId: 'turn_2', wakeToken: c });
  });

  it('issue 24: the alert is governed by the channel the conversation is delivered on (a bound chat: telegram)', () => {
    const s = setup((target) => (target === '#phone' ? 'telegram' : 'local'));
    const a = s.h.wake('#phone');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a]);
    s.endTurnTwice();
    expect(s.noResponse).toEqual([
      { turnId: 'turn_1', agentId: s.h.agentId, channel: 'telegram', target: '#phone', wakeToken: a },
    ]);
  });

  it('issue 24: without a running turn each no_reply wake is its own (nothing merged by accident)', () => {
    const s = setup();
    s.turn.id = null;
    const a = s.h.wake('#general');
    const b = s.h.wake('#build');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a, b]);
    s.endTurnTwice();
    expect(s.noResponse).toEqual([
      expect.objectContaining({ turnId: null, wakeToken: a }),
      expect.objectContaining({ turnId: null, wakeToken: b }),
    ]);
  });

  it('issue 24 (spec B "zero outbound"): a turn that sent a reply raises no alert for its other no_reply wake; a silent turn does', async () => {
    let turn = 'turn_1';
    const s = overStore(() => turn);
    const other = targetKey('#other');
    s.store.ensureConversation(other);
    const a = s.post('one');
    const b = s.post('two', other);
    s.lifecycle.onDelivered('demo', 0, [a.token, b.token]);
    const r = await s.service.messageSend('demo', { target: general, content: 'done', allowCrossTarget: false });
    expect(r).toMatchObject({ ok: true, status: 'sent' });
    s.lifecycle.onTurnBoundary('demo', 0);
    s.lifecycle.onTurnBoundary('demo', 0);
    expect(s.store.getWake(b.token)).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply' });
    expect(s.alerts).toEqual([]);

    turn = 'turn_2';
    const c = s.post('three', other);
    s.lifecycle.onDelivered('demo', 0, [c.token]);
    s.lifecycle.onTurnBoundary('demo', 0);
    s.lifecycle.onTurnBoundary('demo', 0);
    expect(s.alerts).toEqual([
      expect.objectContaining({ kind: 'no_response', turnId: 'turn_2', target: '#other', wakeToken: c.token }),
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
