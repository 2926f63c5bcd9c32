/**
 * Marble tests of the `silenceBeacons` operator itself (watchdog spec A), fed per-turn events
 * directly (no bus): the lazy deadline, per-turn independence and forgetting at turn.end.
 */
import { VirtualTimeScheduler, Subject, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { SilenceWatchdogSchema } from '../../../../../shared/config.js';
import { silenceBeacons } from '../../../../../main/daemon/watchdog/silence-beacons.js';
import type { TurnEvent } from '../../../../../main/daemon/watchdog/turn-events.js';

const DEFAULTS = SilenceWatchdogSchema.parse({ maxBeacons: 2 });
const start = (turnId: string, channel = 'local'): TurnEvent => ({
  hook: 'turn.start',
  turnId,
  start: { turnId, agentId: 'claude', channel, wakeTokens: [`w-${turnId}`] },
});
const visible = (turnId: string): TurnEvent => ({ hook: 'message.delivered', turnId, kind: 'message' });
const end = (turnId: string): TurnEvent => ({ hook: 'turn.end', turnId });

function marbles(events: string, values: Record<string, TurnEvent>, expected: string, settings = () => DEFAULTS) {
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ hot, expectObservable }) => {
    const out = hot(events, values).pipe(
      silenceBeacons(settings, scheduler),
      map((b) => `${b.turnId}:${b.kind}:${b.index}`),
    );
    expectObservable(out).toBe(expected, {
      a: 'a:beacon:1',
      b: 'a:beacon:2',
      c: 'a:escalation:3',
      x: 'b:beacon:1',
      y: 'b:beacon:2',
      z: 'b:escalation:3',
    });
  });
}

describe('silenceBeacons (operator)', () => {
  it('beacons every threshold from turn.start, then one escalation, then stops', () => {
    marbles('s', { s: start('a') }, '45s a 44999ms b 44999ms c');
  });

  it('a visible delivery moves the deadline; the next beacon counts from it', () => {
    marbles('s 19999ms d 29999ms d', { s: start('a'), d: visible('a') }, '95s a 44999ms b 44999ms c');
  });

  it('turns are independent; turn.end forgets a turn and completes nothing else', () => {
    marbles(
      's 9999ms t 49999ms e',
      { s: start('a'), t: start('b'), e: end('a') },
      '45s a 9999ms x 44999ms y 44999ms z',
    );
  });

  it('events of a turn that never started, and a repeated turn.start, change nothing', () => {
    marbles('s 9999ms (dt) 19999ms s', { s: start('a'), d: visible('zz'), t: end('zz') }, '45s a 44999ms b 44999ms c');
  });

  it('a disabled channel is never watched', () => {
    const off = SilenceWatchdogSchema.parse({ enabled: false });
    marbles('s', { s: start('a', 'off') }, '', () => off);
  });

  it('completes with its source and cancels every pending deadline', () => {
    marbles('s 9999ms |', { s: start('a') }, '10s |');
  });

  it('keeps one scheduled action per turn however many deliveries move the deadline (lazy deadline)', () => {
    const scheduler = new VirtualTimeScheduler();
    const events = new Subject<TurnEvent>();
    const seen: number[] = [];
    events.pipe(silenceBeacons(() => DEFAULTS, scheduler)).subscribe(() => seen.push(scheduler.now()));
    events.next(start('a'));
    for (let i = 0; i < 100; i++) events.next(visible('a'));
    expect(scheduler.actions).toHaveLength(1);
    events.next(end('a'));
    expect(scheduler.actions).toHaveLength(0);
    scheduler.flush();
    expect(seen).toEqual([]);
  });
});
