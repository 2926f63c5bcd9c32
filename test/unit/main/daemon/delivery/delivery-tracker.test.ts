/**
 * Delivery confirmation (watchdog spec part B) end to end through the tracker, on virtual time:
 * retries, ACK timeouts and 429 waits are timers on the injected scheduler, never sleeps.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ResponseDeliverySchema, type ResponseDeliveryConfig } from '../../../../../shared/config.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { HOOK_NAMES, type HookEventMap } from '../../../../../main/daemon/bus/hook-events.js';
import type { Channel } from '../../../../../main/daemon/delivery/channel.js';
import {
  ALERT_COPY,
  DeliveryTracker,
  type DeliveryAlert,
  type WakeStatusNews,
} from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { targetKey } from '../../../../../shared/target.js';
import { FaultChannel, type Fault } from '../../../../fixtures/fault-channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';
import { makeTempDir } from '../../../../fixtures/temp-dir.js';
import { StepScheduler, drive } from '../../../../fixtures/virtual-time.js';

type Recorded = { [K in keyof HookEventMap]: { name: K; event: HookEventMap[K] } }[keyof HookEventMap];

function setup(
  options: {
    channel?: Channel;
    config?: Partial<ResponseDeliveryConfig>;
    ackTimeoutMs?: number;
    store?: MemoryStore;
    wakeStatus$?: Subject<WakeStatusNews>;
  } = {},
) {
  const scheduler = new StepScheduler();
  const bus = new HookBus();
  const store = options.store ?? new MemoryStore();
  const channel = options.channel ?? new LocalChannel(store);
  const config = ResponseDeliverySchema.parse(options.config ?? {});
  let n = 0;
  const tracker = new DeliveryTracker({
    bus,
    channelFor: () => channel,
    settingsFor: () => config,
    undelivered: store,
    ...(options.wakeStatus$ === undefined ? {} : { wakeStatus$: options.wakeStatus$ }),
    scheduler,
    newId: () => `id-${++n}`,
    ackTimeoutMs: options.ackTimeoutMs ?? 10_000,
  });
  const events: Recorded[] = [];
  for (const name of HOOK_NAMES) bus.on(name).subscribe((event) => events.push({ name, event } as Recorded));
  const alerts: DeliveryAlert[] = [];
  tracker.alert$.subscribe((a) => alerts.push(a));
  const results = () =>
    events
      .filter((e): e is Extract<Recorded, { name: 'delivery.result' }> => e.name === 'delivery.result')
      .map((e) => e.event);
  const delivered = () => events.filter((e) => e.name === 'message.delivered').map((e) => e.event);
  const send = (
    content = 'Found it: the retry loop',
    extra: { chunks?: string[]; responseId?: string; purpose?: 'reply' | 'beacon' } = {},
  ) => drive(scheduler, tracker.send({ turnId: 't1', agentId: 'claude', target: '#general', content, ...extra }));
  return { scheduler, bus, store, channel, tracker, events, alerts, results, delivered, send };
}

function faults(script: Fault[], idempotent = false, extra: { retryAfterMs?: number } = {}) {
  return new FaultChannel({ script, idempotent, ...extra });
}

describe('DeliveryTracker', () => {
  it('delivers a reply on the local channel: sent + message id + TargetSeq, one delivery.result, one message.delivered', async () => {
    const t = setup();
    const outcome = await t.send();
    expect(outcome).toMatchObject({ status: 'sent', responseId: 'id-1', messageIds: ['m1'], seq: 1 });
    expect(t.store.messages).toHaveLength(1);
    expect(t.store.messages[0]).toMatchObject({
      authorId: 'claude',
      authorKind: 'agent',
      responseId: 'id-1',
      chunkIndex: 0,
      redelivered: false,
      target: '#general',
    });
    expect(t.events.map((e) => e.name)).toEqual(['response.outbound', 'delivery.result', 'message.delivered']);
    expect(t.results()[0]).toMatchObject({
      state: 'delivered',
      attempts: 1,
      ack: 'sent',
      turnId: 't1',
      responseId: 'id-1',
    });
    expect(t.delivered()[0]).toMatchObject({ turnId: 't1', kind: 'message', messageId: 'm1', channel: 'local' });
    expect(t.alerts).toEqual([]);
  });

  it('tracks chunks independently, in order: a failed chunk retries alone', async () => {
    const channel = faults(['ok', 'refused', 'ok', 'ok']);
    const t = setup({ channel });
    const outcome = await t.send('', { chunks: ['one', 'two', 'three'] });
    expect(outcome.status).toBe('sent');
    expect(t.results().map((r) => [r.chunkIndex, r.state, r.attempts])).toEqual([
      [0, 'delivered', 1],
      [1, 'delivered', 2],
      [2, 'delivered', 1],
    ]);
    expect(channel.visible.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(outcome.messageIds).toEqual(['x1', 'x2', 'x3']);
  });

  it('retries once after exactly retryDelayMs (3000) with identical content and the same response_id', async () => {
    const channel = faults(['refused', 'ok']);
    const t = setup({ channel });
    const times: number[] = [];
    const original = channel.send.bind(channel);
    channel.send = (r) => {
      times.push(t.scheduler.now());
      return original(r);
    };
    const outcome = await t.send('same words');
    expect(outcome.status).toBe('sent');
    expect(times).toEqual([0, 3000]);
    expect(channel.requests.map((r) => [r.responseId, r.content, r.attempt])).toEqual([
      ['id-1', 'same words', 1],
      ['id-1', 'same words', 2],
    ]);
  });

  it('a 429 waits max(retryDelayMs, retry_after) before the retry', async () => {
    for (const [retryAfterMs, expected] of [
      [8000, 8000],
      [1000, 3000],
    ] as const) {
      const channel = faults(['rate_limited', 'ok'], false, { retryAfterMs });
      const t = setup({ channel });
      const times: number[] = [];
      const original = channel.send.bind(channel);
      channel.send = (r) => (times.push(t.scheduler.now()), original(r));
      expect((await t.send()).status).toBe('sent');
      expect(times).toEqual([0, expected]);
    }
  });

  it('5xx before acceptance is retried; retryCount 2 makes three attempts', async () => {
    const channel = faults(['server_error', 'server_error', 'ok']);
    const t = setup({ channel, config: { retryCount: 2 } });
    expect((await t.send()).status).toBe('sent');
    expect(t.results()[0]).toMatchObject({ state: 'delivered', attempts: 3 });
  });

  it('FAILED_FINAL after the retry: preserved durably, one delivery_failed alert, no message.delivered, nothing shown', async () => {
    const channel = faults(['refused', 'refused']);
    const t = setup({ channel });
    const outcome = await t.send('the answer');
    expect(outcome).toMatchObject({
      status: 'failed_final',
      code: 'connection_refused',
      preserved: true,
      messageIds: [],
    });
    expect(t.results()).toHaveLength(1);
    expect(t.results()[0]).toMatchObject({ state: 'failed_final', attempts: 2, failure: 'connection_refused' });
    expect(t.delivered()).toEqual([]);
    expect(t.store.undelivered).toEqual([
      {
        agentId: 'claude',
        target: '#general',
        turnId: 't1',
        responseId: 'id-1',
        chunkIndex: 0,
        content: 'the answer',
        reason: 'connection_refused',
        // Kept for the channel that failed it (issue 18: re-delivered there only).
        channel: 'fault',
      },
    ]);
    expect(t.alerts).toHaveLength(1);
    expect(t.alerts[0]).toMatchObject({
      kind: 'delivery_failed',
      message: ALERT_COPY.delivery_failed_kept,
      responseId: 'id-1',
      target: '#general',
      agentId: 'claude',
    });
    // An alert is a status entry, never a chat message written as the agent.
    expect(channel.visible).toEqual([]);
    expect(t.store.messages).toEqual([]);
  });

  it('a permanent rejection is not retried', async () => {
    const channel = faults(['rejected']);
    const t = setup({ channel });
    const outcome = await t.send();
    expect(outcome).toMatchObject({ status: 'failed_final', code: 'rejected:400' });
    expect(channel.requests).toHaveLength(1);
  });

  it('preserveUndelivered: false keeps nothing; alertOnFailure: false raises nothing', async () => {
    const a = setup({ channel: faults(['refused', 'refused']), config: { preserveUndelivered: false } });
    expect(await a.send()).toMatchObject({ status: 'failed_final', preserved: false });
    expect(a.store.undelivered).toEqual([]);
    expect(a.alerts.map((x) => x.message)).toEqual([ALERT_COPY.delivery_failed]);
    const b = setup({ channel: faults(['refused', 'refused']), config: { alertOnFailure: false } });
    expect((await b.send()).status).toBe('failed_final');
    expect(b.alerts).toEqual([]);
  });

  describe('issue 24: responseDelivery.enabled: false turns the safety net off, not delivery', () => {
    // Every other key asks for the most; `enabled: false` overrides them all.
    const off = {
      enabled: false,
      retryCount: 3,
      preserveUndelivered: true,
      alertOnFailure: true,
      alertOnNoResponse: true,
    };

    it('a failing reply is tried once: no retry, nothing preserved, no alert, nothing re-delivered later', async () => {
      const channel = faults(['refused', 'refused', 'refused', 'refused']);
      const t = setup({ channel, config: off });
      expect(await t.send('the answer')).toMatchObject({
        status: 'failed_final',
        code: 'connection_refused',
        preserved: false,
      });
      expect(channel.requests).toHaveLength(1);
      expect(t.results()).toEqual([expect.objectContaining({ state: 'failed_final', attempts: 1 })]);
      expect(t.store.undelivered).toEqual([]);
      expect(t.alerts).toEqual([]);
      expect(await drive(t.scheduler, t.tracker.redeliver('#general'))).toEqual([]);
      expect(channel.requests).toHaveLength(1);
    });

    it('an unconfirmed reply raises no delivery_uncertain alert', async () => {
      const t = setup({ channel: faults(['timeout_after_send']), config: off });
      expect((await t.send()).status).toBe('uncertain');
      expect(t.alerts).toEqual([]);
    });

    it('a turn that ends with no reply raises no no_response alert', () => {
      const t = setup({ config: off });
      const input = { turnId: 't1', agentId: 'claude', channel: 'local', target: '#general', wakeToken: 'wk_1' };
      expect(t.tracker.raiseNoResponseAlert(input)).toBe(false);
      expect(t.alerts).toEqual([]);
      // The same turn with the net on: the alert (so the assertion above could fail).
      const on = setup();
      expect(on.tracker.raiseNoResponseAlert(input)).toBe(true);
      expect(on.alerts.map((a) => a.kind)).toEqual(['no_response']);
    });

    it('a reply that can be delivered still is: sent, one attempt, stored and confirmed', async () => {
      const t = setup({ config: off });
      expect(await t.send('hello')).toMatchObject({ status: 'sent' });
      expect(t.results()).toEqual([expect.objectContaining({ state: 'delivered', attempts: 1 })]);
      expect(t.store.messages.map((m) => m.content)).toEqual(['hello']);
      expect(t.delivered()).toHaveLength(1);
    });
  });

  describe('ambiguous outcomes are never blindly resent', () => {
    it('timeout after send on a channel without idempotency: uncertain, one attempt, one delivery_uncertain alert', async () => {
      const channel = faults(['timeout_after_send']);
      const t = setup({ channel });
      const outcome = await t.send();
      expect(outcome).toMatchObject({ status: 'uncertain', code: 'timeout_after_send', preserved: false });
      expect(channel.requests).toHaveLength(1);
      expect(channel.visible).toHaveLength(1);
      expect(t.alerts.map((a) => [a.kind, a.message])).toEqual([['delivery_uncertain', ALERT_COPY.delivery_uncertain]]);
    });

    it('timeout after send on an idempotent channel: the retry is answered already_sent, still one visible message', async () => {
      const channel = faults(['timeout_after_send', 'ok'], true);
      const t = setup({ channel });
      const outcome = await t.send();
      expect(outcome).toMatchObject({ status: 'already_sent', messageIds: ['x1'] });
      expect(channel.visible).toHaveLength(1);
      expect(t.results()).toHaveLength(1);
    });

    it('a dropped ACK: ack timeout, then uncertain (not idempotent) or a safe resend (idempotent)', async () => {
      const plain = faults(['drop_ack']);
      const a = setup({ channel: plain, ackTimeoutMs: 7000 });
      expect(await a.send()).toMatchObject({ status: 'uncertain', code: 'ack_timeout' });
      expect(a.scheduler.now()).toBe(7000);
      expect(plain.requests).toHaveLength(1);

      const idem = faults(['drop_ack', 'ok'], true);
      const b = setup({ channel: idem, ackTimeoutMs: 7000 });
      expect(await b.send()).toMatchObject({ status: 'already_sent', messageIds: ['x1'] });
      expect(b.scheduler.now()).toBe(7000 + 3000);
      expect(idem.visible).toHaveLength(1);
    });

    it('a crash between send and ACK: uncertain without idempotency, a safe resend with it', async () => {
      const plain = faults(['crash_after_send']);
      const a = setup({ channel: plain });
      expect(await a.send()).toMatchObject({ status: 'uncertain', code: 'connection_lost_after_send' });
      expect(plain.visible).toHaveLength(1);
      const idem = faults(['crash_after_send', 'ok'], true);
      const b = setup({ channel: idem });
      expect((await b.send()).status).toBe('already_sent');
      expect(idem.visible).toHaveLength(1);
    });
  });

  it('a late ACK after a successful retry is suppressed: exactly one visible message and one final state', async () => {
    const channel = faults(['ack_after_retry', 'ok'], true);
    const t = setup({ channel, ackTimeoutMs: 5000 });
    const outcome = await t.send();
    expect(outcome).toMatchObject({ status: 'already_sent', messageIds: ['x1'] });
    // the held first ACK is released once the retry was answered
    await drive(t.scheduler, Promise.resolve());
    expect(channel.visible).toHaveLength(1);
    expect(t.results()).toHaveLength(1);
    expect(t.delivered()).toHaveLength(1);
  });

  it('a late ACK that arrives while the retry waits settles the chunk and cancels the retry', async () => {
    const channel = faults(['ack_after_retry'], true);
    const t = setup({ channel, ackTimeoutMs: 5000 });
    const pending = t.tracker.send({ turnId: 't1', agentId: 'claude', target: '#general', content: 'x' });
    // Advance to the ack timeout (5 s): the retry is now scheduled for 8 s.
    await drive(t.scheduler, Promise.resolve());
    t.scheduler.step();
    channel.releaseHeld();
    const outcome = await drive(t.scheduler, pending);
    expect(outcome.status).toBe('sent');
    expect(channel.requests).toHaveLength(1);
    expect(t.scheduler.actions).toHaveLength(0);
  });

  it('the same response_id again is a replay: already_sent, nothing sent twice', async () => {
    const t = setup();
    const first = await t.send('hi', { responseId: 'r-fixed' });
    const again = await t.send('hi', { responseId: 'r-fixed' });
    expect(first.status).toBe('sent');
    expect(again).toMatchObject({ status: 'already_sent', messageIds: first.messageIds, responseId: 'r-fixed' });
    expect(t.store.messages).toHaveLength(1);
  });

  it('after a daemon crash, a new tracker on the same store replays the response_id: already_sent, one stored message', async () => {
    const store = new MemoryStore();
    const a = setup({ store });
    await a.send('hi', { responseId: 'r-crash' });
    a.tracker.stop();
    const b = setup({ store });
    expect(await b.send('hi', { responseId: 'r-crash' })).toMatchObject({ status: 'already_sent', messageIds: ['m1'] });
    expect(store.messages).toHaveLength(1);
  });

  it('preserveUndelivered: a FAILED_FINAL reply is re-delivered, marked, with the same response_id, on the next inbound message', async () => {
    const t = setup();
    t.store.failNextAppends = 2;
    const failed = await t.send('kept answer', { chunks: ['kept', 'answer'] });
    // chunk 0 failed twice (store rolled back), chunk 1 went through
    expect(failed).toMatchObject({
      status: 'failed_final',
      code: 'store_unavailable',
      preserved: true,
      messageIds: ['m1'],
    });
    expect(t.store.undelivered.map((r) => [r.responseId, r.chunkIndex, r.content])).toEqual([['id-1', 0, 'kept']]);
    expect(await drive(t.scheduler, t.tracker.redeliver('#other'))).toEqual([]);
    const [again] = await drive(t.scheduler, t.tracker.redeliver('#general'));
    expect(again).toMatchObject({ status: 'sent', responseId: 'id-1' });
    expect(t.store.messages.map((m) => [m.content, m.responseId, m.chunkIndex, m.redelivered])).toEqual([
      ['answer', 'id-1', 1, false],
      ['kept', 'id-1', 0, true],
    ]);
    expect(t.store.undelivered).toEqual([]);
    expect(t.results().at(-1)).toMatchObject({ redelivered: true, state: 'delivered' });
    expect(
      t.events
        .filter((e) => e.name === 'response.outbound')
        .map((e) => (e.event as { redelivered: boolean }).redelivered),
    ).toEqual([false, false, true]);
    // a second inbound finds nothing left to re-deliver
    expect(await drive(t.scheduler, t.tracker.redeliver('#general'))).toEqual([]);
  });

  it('a failed re-delivery is kept again', async () => {
    const t = setup();
    t.store.failNextAppends = 4;
    await t.send('x');
    await drive(t.scheduler, t.tracker.redeliver('#general'));
    expect(t.store.undelivered).toHaveLength(1);
    expect(t.store.messages).toEqual([]);
  });

  it('one flow for a send and its re-delivery: every chunk reaches the channel with the same fields, the re-delivery marked', async () => {
    const channel = faults(['ok', 'refused', 'refused', 'ok']);
    const t = setup({ channel });
    expect(await t.send('', { chunks: ['one', 'two'] })).toMatchObject({ status: 'failed_final', preserved: true });
    const [again] = await drive(t.scheduler, t.tracker.redeliver('#general'));
    expect(again).toMatchObject({ status: 'sent', responseId: 'id-1' });
    const chunk = { turnId: 't1', agentId: 'claude', target: '#general', responseId: 'id-1', chunkCount: 2 };
    expect(channel.requests).toEqual([
      { ...chunk, chunkIndex: 0, content: 'one', redelivered: false, attempt: 1 },
      { ...chunk, chunkIndex: 1, content: 'two', redelivered: false, attempt: 1 },
      { ...chunk, chunkIndex: 1, content: 'two', redelivered: false, attempt: 2 },
      { ...chunk, chunkIndex: 1, content: 'two', redelivered: true, attempt: 1 },
    ]);
    expect(t.results().map((r) => [r.chunkIndex, r.state, r.redelivered])).toEqual([
      [0, 'delivered', false],
      [1, 'failed_final', false],
      [1, 'delivered', true],
    ]);
  });

  it('a re-delivery that fails again is kept again in the real store (the kept row is the chunk, not the taken record)', async () => {
    const dir = makeTempDir();
    const store = Store.open(dir.path);
    try {
      store.ensureConversation(targetKey('#general'));
      const scheduler = new StepScheduler();
      const channel = faults(['refused', 'refused', 'refused', 'refused']);
      const config = ResponseDeliverySchema.parse({});
      const tracker = new DeliveryTracker({
        bus: new HookBus(),
        channelFor: () => channel,
        settingsFor: () => config,
        undelivered: store,
        scheduler,
        newId: () => 'r1',
      });
      const target = targetKey('#general');
      await drive(scheduler, tracker.send({ turnId: 't1', agentId: 'claude', target, content: 'kept' }));
      const [again] = await drive(scheduler, tracker.redeliver(target));
      expect(again).toMatchObject({ status: 'failed_final', preserved: true });
      expect(store.takeUndelivered(target).map((r) => [r.responseId, r.chunkIndex, r.content, r.channel])).toEqual([
        ['r1', 0, 'kept', 'fault'],
      ]);
    } finally {
      store.close();
      dir.remove();
    }
  });

  describe('no-response detection', () => {
    it('raiseNoResponseAlert: a neutral status alert when alertOnNoResponse, nothing otherwise', () => {
      const on = setup();
      expect(
        on.tracker.raiseNoResponseAlert({
          turnId: 't1',
          agentId: 'claude',
          channel: 'local',
          target: '#general',
          wakeToken: 'w1',
        }),
      ).toBe(true);
      expect(on.alerts).toMatchObject([
        { kind: 'no_response', message: 'Turn ended without a message — back to idle', wakeToken: 'w1' },
      ]);
      const off = setup({ config: { alertOnNoResponse: false } });
      expect(
        off.tracker.raiseNoResponseAlert({
          turnId: 't1',
          agentId: 'claude',
          channel: 'local',
          target: '#general',
          wakeToken: 'w1',
        }),
      ).toBe(false);
      expect(off.alerts).toEqual([]);
    });
  });

  it('a beacon posted as a channel message is confirmed but never resets the watchdog or raises a reply alert', async () => {
    const channel = faults(['ok', 'refused', 'refused']);
    const t = setup({ channel });
    await t.send('🧠 Working… 45s', { purpose: 'beacon' });
    expect(t.results()[0]).toMatchObject({ purpose: 'beacon', state: 'delivered' });
    expect(t.delivered()).toEqual([]);
    expect(await t.send('🧠 Working… 1m 30s', { purpose: 'beacon' })).toMatchObject({
      status: 'failed_final',
      preserved: false,
    });
    expect(t.alerts).toEqual([]);
    expect(t.store.undelivered).toEqual([]);
  });

  it('an alert names the wake of the turn; a send after stop() sends nothing', async () => {
    const t = setup({ channel: faults(['refused', 'refused']) });
    t.bus.emit('turn.start', { turnId: 't1', agentId: 'claude', channel: 'local', wakeTokens: ['w9'] });
    await t.send();
    expect(t.alerts[0]).toMatchObject({ wakeToken: 'w9', turnId: 't1' });
    t.tracker.stop();
    expect(
      await t.tracker.send({ turnId: 't1', agentId: 'claude', target: '#general', content: 'late' }),
    ).toMatchObject({ status: 'failed_final', code: 'daemon_stopped' });
    expect((t.channel as FaultChannel).requests).toHaveLength(2);
  });

  it("contract §9.4 (issue 39): a wake's terminal event releases it from its own agent's turn only", async () => {
    const status = new Subject<WakeStatusNews>();
    const t = setup({ channel: faults(Array<Fault>(6).fill('refused')), wakeStatus$: status });
    t.bus.emit('turn.start', { turnId: 't1', agentId: 'claude', channel: 'local', wakeTokens: ['w1', 'w2'] });
    t.bus.emit('turn.start', { turnId: 't2', agentId: 'codex', channel: 'local', wakeTokens: ['w1', 'w3'] });
    // Another agent's terminal, and this agent's non-terminal status, release nothing of claude's turn.
    status.next({ agentId: 'codex', wakeToken: 'w1', status: 'reply_sent' });
    status.next({ agentId: 'claude', wakeToken: 'w1', status: 'delivered' });
    await t.send();
    expect(t.alerts[0]).toMatchObject({ agentId: 'claude', wakeToken: 'w1', turnId: 't1' });
    // claude's own terminal: the turn's alert names its next wake.
    status.next({ agentId: 'claude', wakeToken: 'w1', status: 'reply_sent' });
    await t.send();
    expect(t.alerts[1]).toMatchObject({ agentId: 'claude', wakeToken: 'w2', turnId: 't1' });
    // codex's turn still names w1, which codex's own terminal released: its next wake, w3.
    await drive(t.scheduler, t.tracker.send({ turnId: 't2', agentId: 'codex', target: '#general', content: 'x' }));
    expect(t.alerts.map((a) => [a.agentId, a.wakeToken])).toEqual([
      ['claude', 'w1'],
      ['claude', 'w2'],
      ['codex', 'w3'],
    ]);
  });

  it('stop() settles a chunk in flight exactly once (uncertain) and cancels its timers', async () => {
    const channel = faults(['drop_ack']);
    const t = setup({ channel });
    const pending = t.tracker.send({ turnId: 't1', agentId: 'claude', target: '#general', content: 'x' });
    await drive(t.scheduler, Promise.resolve());
    t.tracker.stop();
    expect(await pending).toMatchObject({ status: 'uncertain', code: 'daemon_stopped' });
    expect(t.results()).toHaveLength(1);
    expect(t.scheduler.actions).toHaveLength(0);
  });
});
