/**
 * Marble tests of the silence watchdog (watchdog spec part A) on virtual time: every timing
 * claim below is exact to the millisecond because TestScheduler drives the injected scheduler.
 */
import { VirtualTimeScheduler, filter, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { SilenceWatchdogSchema, type SilenceWatchdogConfig } from '../../../../../shared/config.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { HookEventMap, HookName } from '../../../../../main/daemon/bus/hook-events.js';
import type { Beacon } from '../../../../../main/daemon/watchdog/silence-beacons.js';
import { silenceWatchdog } from '../../../../../main/daemon/watchdog/silence-watchdog.js';

const DEFAULTS = SilenceWatchdogSchema.parse({});
const B1 = { a: 'beacon:1' };
type Emit = { [K in HookName]: [K, HookEventMap[K]] }[HookName];

const start = (turnId = 't1', channel = 'local', agentId = 'claude'): Emit => [
  'turn.start',
  { turnId, agentId, channel, wakeTokens: [`w-${turnId}`] },
];
const end = (turnId = 't1'): Emit => ['turn.end', { turnId }];
const delivered = (
  kind: 'message' | 'stream' | 'typing',
  turnId: string | null = 't1',
  agentId = 'claude',
  channel = 'local',
): Emit => [
  'message.delivered',
  { ...(turnId === null ? {} : { turnId }), agentId, channel, target: '#general', messageId: 'm1', kind },
];

function newScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/**
 * Runs one marble scenario: `events` is a hot marble whose values are bus emissions,
 * `expected` the marble of `beacon$` rendered as `kind:index` strings.
 */
function scenario(
  events: string,
  values: Record<string, Emit>,
  expected: string,
  expectedValues: Record<string, string>,
  settings: (channel: string) => SilenceWatchdogConfig = () => DEFAULTS,
  onlyFirst = false,
): void {
  const scheduler = newScheduler();
  scheduler.run(({ hot, expectObservable }) => {
    const bus = new HookBus();
    const beacon$ = silenceWatchdog({ bus, settingsFor: settings, scheduler });
    hot(events, values).subscribe(([name, event]) => bus.emit(name, event as never));
    const out = beacon$.pipe(
      filter((b) => !onlyFirst || b.index === 1),
      map((b) => `${b.kind}:${b.index}`),
    );
    expectObservable(out).toBe(expected, expectedValues);
  });
}

/** Only the first beacon's time matters (the rest of the sequence is covered by its own test). */
function firstBeacon(
  events: string,
  values: Record<string, Emit>,
  expected: string,
  settings: (channel: string) => SilenceWatchdogConfig = () => DEFAULTS,
): void {
  scenario(events, values, expected, B1, settings, true);
}

describe('silenceWatchdog (pipeline over the hook bus)', () => {
  it('emits the first beacon at exactly thresholdSeconds (45 s) after turn.start, not a millisecond earlier', () => {
    firstBeacon('s', { s: start() }, '45s a');
  });

  it('carries turn identity, elapsed time and the configured message', () => {
    const scheduler = newScheduler();
    const seen: Beacon[] = [];
    scheduler.run(({ hot }) => {
      const bus = new HookBus();
      silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler }).subscribe((b) => seen.push(b));
      hot('10s s 29999ms d', { s: start(), d: delivered('message') }).subscribe(([n, e]) => bus.emit(n, e as never));
    });
    // start at 10 s, visible delivery at 40 s, first beacon at 85 s: elapsed 75 s, silent 45 s.
    expect(seen[0]).toMatchObject({
      turnId: 't1',
      agentId: 'claude',
      channel: 'local',
      wakeTokens: ['w-t1'],
      kind: 'beacon',
      index: 1,
      elapsedMs: 75_000,
      silentMs: 45_000,
      message: '🧠 Working…',
    });
  });

  describe('reset rules', () => {
    it('a confirmed operator-visible message at 30 s moves the first beacon to 75 s', () => {
      firstBeacon('s 29999ms d', { s: start(), d: delivered('message') }, '75s a');
    });

    it('operator-visible streaming resets when resetOnStreaming (default)', () => {
      firstBeacon('s 29999ms d', { s: start(), d: delivered('stream') }, '75s a');
    });

    it('operator-visible streaming does not reset when resetOnStreaming is false', () => {
      const cfg = SilenceWatchdogSchema.parse({ resetOnStreaming: false });
      firstBeacon('s 29999ms d', { s: start(), d: delivered('stream') }, '45s a', () => cfg);
    });

    it('a typing indicator alone never resets (resetOnTypingOnly: false)', () => {
      firstBeacon('s 29999ms d', { s: start(), d: delivered('typing') }, '45s a');
    });

    it('a typing indicator resets only when resetOnTypingOnly is true', () => {
      const cfg = SilenceWatchdogSchema.parse({ resetOnTypingOnly: true });
      firstBeacon('s 29999ms d', { s: start(), d: delivered('typing') }, '75s a', () => cfg);
    });

    it('tool calls, local text, runtime errors, outbound-but-unconfirmed responses and failed deliveries never reset', () => {
      const values: Record<string, Emit> = {
        s: start(),
        t: ['runtime.local', { turnId: 't1', kind: 'tool_call', tool: 'bash' }],
        x: ['runtime.local', { turnId: 't1', kind: 'local_text', bytes: 120, runes: 100 }],
        e: ['runtime.local', { turnId: 't1', kind: 'error', code: 'rate_limited' }],
        o: [
          'response.outbound',
          {
            turnId: 't1',
            responseId: 'r1',
            chunkIndex: 0,
            chunkCount: 1,
            agentId: 'claude',
            target: '#general',
            content: 'hi',
            redelivered: false,
            purpose: 'reply',
          },
        ],
        f: [
          'delivery.result',
          {
            turnId: 't1',
            responseId: 'r1',
            chunkIndex: 0,
            chunkCount: 1,
            agentId: 'claude',
            target: '#general',
            channel: 'local',
            state: 'failed_final',
            attempts: 2,
            messageId: null,
            seq: null,
            ack: null,
            failure: 'connection_refused',
            redelivered: false,
            purpose: 'reply',
          },
        ],
      };
      firstBeacon('s 9999ms t 9999ms x 9999ms e 4999ms o 4999ms f', values, '45s a');
    });

    it("another turn's delivery does not reset this turn", () => {
      firstBeacon('s 29999ms d', { s: start(), d: delivered('message', 't2') }, '45s a');
    });

    it('a delivery without a turn id resets the active turns of that agent on that channel only', () => {
      firstBeacon('s 29999ms d', { s: start(), d: delivered('message', null) }, '75s a');
      firstBeacon('s 29999ms d', { s: start(), d: delivered('message', null, 'codex') }, '45s a');
      firstBeacon('s 29999ms d', { s: start(), d: delivered('message', null, 'claude', 'telegram') }, '45s a');
    });

    it('a reset between beacons delays the next beacon but does not give back the beacon budget', () => {
      // beacon 1 at 45 s, visible at 60 s → beacon 2 at 105 s (index 2, not 1).
      scenario(
        's 59999ms d',
        { s: start(), d: delivered('message') },
        '45s a 59999ms b 44999ms c',
        { a: 'beacon:1', b: 'beacon:2', c: 'escalation:3' },
        () => SilenceWatchdogSchema.parse({ maxBeacons: 2 }),
      );
    });
  });

  it('emits 5 beacons, then one escalation, then nothing more (even after later resets)', () => {
    const values = { a: 'beacon:1', b: 'beacon:2', c: 'beacon:3', d: 'beacon:4', e: 'beacon:5', f: 'escalation:6' };
    scenario(
      's 399999ms d 99999ms d',
      { s: start(), d: delivered('message') },
      '45s a 44999ms b 44999ms c 44999ms d 44999ms e 44999ms f',
      values,
    );
  });

  it('the escalation carries escalationMessage', () => {
    const scheduler = newScheduler();
    const seen: Beacon[] = [];
    scheduler.run(({ hot }) => {
      const bus = new HookBus();
      silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler }).subscribe((b) => seen.push(b));
      hot('s', { s: start() }).subscribe(([n, e]) => bus.emit(n, e as never));
    });
    expect(seen.map((b) => b.kind)).toEqual(['beacon', 'beacon', 'beacon', 'beacon', 'beacon', 'escalation']);
    expect(seen[5]).toMatchObject({
      message: '⚠️ Extended processing — still working. Response may be delayed.',
      elapsedMs: 270_000,
    });
  });

  describe('turn end', () => {
    it('stops the watchdog: a turn ending at 50 s gets only the 45 s beacon', () => {
      scenario('s 49999ms e', { s: start(), e: end() }, '45s a', B1);
    });

    it('a turn ending before the threshold gets no beacon at all', () => {
      scenario('s 44998ms e', { s: start(), e: end() }, '', {});
    });

    it('a stale turn.end or a repeated turn.start does not disturb a live turn', () => {
      firstBeacon('s 9999ms x 9999ms s', { s: start(), x: end('t-old') }, '45s a');
    });

    it('forgets ended turns: no scheduled action is left, and the same turn id starting again counts from 1', () => {
      const scheduler = new VirtualTimeScheduler();
      const bus = new HookBus();
      const seen: Array<[number, string]> = [];
      silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler }).subscribe((b) =>
        seen.push([scheduler.now(), `${b.kind}:${b.index}`]),
      );
      bus.emit('turn.start', start()[1] as HookEventMap['turn.start']);
      expect(scheduler.actions).toHaveLength(1);
      bus.emit('turn.end', { turnId: 't1' });
      expect(scheduler.actions).toHaveLength(0);
      scheduler.schedule(() => bus.emit('turn.start', start()[1] as HookEventMap['turn.start']), 10_000);
      scheduler.maxFrames = 60_000;
      scheduler.flush();
      expect(seen).toEqual([[55_000, 'beacon:1']]);
    });
  });

  it('per-channel overrides: threshold and maxBeacons per channel, disabled channels never beacon', () => {
    const slow = SilenceWatchdogSchema.parse({
      thresholdSeconds: 120,
      maxBeacons: 1,
      message: 'still on it',
      escalationMessage: 'long one',
    });
    const off = SilenceWatchdogSchema.parse({ enabled: false });
    const settings = (channel: string) => (channel === 'slow' ? slow : channel === 'off' ? off : DEFAULTS);
    scenario('s', { s: start('t1', 'slow') }, '120s a 119999ms b', { a: 'beacon:1', b: 'escalation:2' }, settings);
    scenario('s', { s: start('t1', 'off') }, '', {}, settings);
    scenario(
      's',
      { s: start('t1', 'local') },
      '45s a 44999ms b 44999ms c 44999ms d 44999ms e 44999ms f',
      { a: 'beacon:1', b: 'beacon:2', c: 'beacon:3', d: 'beacon:4', e: 'beacon:5', f: 'escalation:6' },
      settings,
    );
  });

  it('maxBeacons: 0 escalates at the first threshold', () => {
    scenario('s', { s: start() }, '45s a', { a: 'escalation:1' }, () => SilenceWatchdogSchema.parse({ maxBeacons: 0 }));
  });

  it('many concurrent turns are independent: each beacons on its own clock', () => {
    const scheduler = newScheduler();
    const seen: Array<[string, number, string]> = [];
    const N = 200;
    scheduler.run(({ hot }) => {
      const bus = new HookBus();
      silenceWatchdog({
        bus,
        settingsFor: () => SilenceWatchdogSchema.parse({ maxBeacons: 1 }),
        scheduler,
      }).subscribe((b) => seen.push([b.turnId, scheduler.now(), b.kind]));
      // Turn i starts at i s; even turns get a visible delivery at i+30 s; turns divisible by 5 end at i+50 s.
      for (let i = 0; i < N; i++) {
        const id = `t${i}`;
        hot(`${i * 1000}ms s`, { s: 0 }).subscribe(() =>
          bus.emit('turn.start', { turnId: id, agentId: `a${i % 7}`, channel: 'local', wakeTokens: [] }),
        );
        if (i % 2 === 0)
          hot(`${i * 1000 + 30_000}ms d`, { d: 0 }).subscribe(() =>
            bus.emit('message.delivered', {
              turnId: id,
              agentId: `a${i % 7}`,
              channel: 'local',
              target: '#general',
              messageId: `m${i}`,
              kind: 'message',
            }),
          );
        if (i % 5 === 0)
          hot(`${i * 1000 + 50_000}ms e`, { e: 0 }).subscribe(() => bus.emit('turn.end', { turnId: id }));
      }
    });
    const expected: Array<[string, number, string]> = [];
    for (let i = 0; i < N; i++) {
      const t0 = i * 1000;
      const first = i % 2 === 0 ? t0 + 75_000 : t0 + 45_000;
      const endAt = i % 5 === 0 ? t0 + 50_000 : Infinity;
      if (first < endAt) expected.push([`t${i}`, first, 'beacon']);
      if (first + 45_000 < endAt) expected.push([`t${i}`, first + 45_000, 'escalation']);
    }
    const byKey = (a: [string, number, string], b: [string, number, string]) =>
      a[1] - b[1] || a[0].localeCompare(b[0]) || a[2].localeCompare(b[2]);
    expect([...seen].sort(byKey)).toEqual(expected.sort(byKey));
  });

  it('unsubscribing stops it: every pending beacon is cancelled', () => {
    const scheduler = new VirtualTimeScheduler();
    const bus = new HookBus();
    const seen: Beacon[] = [];
    const subscription = silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler }).subscribe((b) =>
      seen.push(b),
    );
    bus.emit('turn.start', start('t1')[1] as HookEventMap['turn.start']);
    bus.emit('turn.start', start('t2')[1] as HookEventMap['turn.start']);
    expect(scheduler.actions).toHaveLength(2);
    subscription.unsubscribe();
    expect(scheduler.actions).toHaveLength(0);
    scheduler.flush();
    expect(seen).toEqual([]);
  });

  it('completes when the bus completes (daemon stop), cancelling pending beacons', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const bus = new HookBus();
      const beacon$ = silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler });
      hot('s', { s: start() }).subscribe(([n, e]) => bus.emit(n, e as never));
      hot('10s x', { x: 0 }).subscribe(() => bus.complete());
      expectObservable(beacon$).toBe('10s |');
    });
  });

  it('one watchdog however many subscribers: the beacon router and the metrics see the same beacons', () => {
    const scheduler = new VirtualTimeScheduler();
    const bus = new HookBus();
    const beacon$ = silenceWatchdog({ bus, settingsFor: () => DEFAULTS, scheduler });
    const a: Beacon[] = [];
    const b: Beacon[] = [];
    beacon$.subscribe((x) => a.push(x));
    beacon$.subscribe((x) => b.push(x));
    bus.emit('turn.start', start()[1] as HookEventMap['turn.start']);
    expect(scheduler.actions).toHaveLength(1);
    scheduler.maxFrames = 50_000;
    scheduler.flush();
    expect(a).toHaveLength(1);
    expect(b).toEqual(a);
  });
});

describe('per-channel config keys and defaults (watchdog spec "Suggested config")', () => {
  it('are exactly the spec values', async () => {
    const { ResponseDeliverySchema } = await import('../../../../../shared/config.js');
    expect(SilenceWatchdogSchema.parse({})).toEqual({
      enabled: true,
      thresholdSeconds: 45,
      maxBeacons: 5,
      message: '🧠 Working…',
      escalationMessage: '⚠️ Extended processing — still working. Response may be delayed.',
      resetOnStreaming: true,
      resetOnTypingOnly: false,
    });
    expect(ResponseDeliverySchema.parse({})).toEqual({
      enabled: true,
      retryCount: 1,
      retryDelayMs: 3000,
      alertOnFailure: true,
      alertOnNoResponse: true,
      preserveUndelivered: true,
    });
  });
});
