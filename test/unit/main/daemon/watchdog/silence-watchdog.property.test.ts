/**
 * Property test of the silence watchdog over random delivery timelines (virtual time):
 * the beacon schedule always equals a simple reference model of spec part A.
 */
import fc from 'fast-check';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SilenceWatchdogSchema } from '../../../../../shared/config.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { DeliveredKind } from '../../../../../main/daemon/bus/hook-events.js';
import { silenceWatchdog } from '../../../../../main/daemon/watchdog/silence-watchdog.js';

const KINDS: readonly (DeliveredKind | 'tool_call')[] = ['message', 'stream', 'typing', 'tool_call'];

/** Reference model: walk time, emitting at silenceFrom + threshold; visible kinds move silenceFrom. */
function model(
  threshold: number,
  maxBeacons: number,
  resetOnStreaming: boolean,
  resetOnTypingOnly: boolean,
  events: Array<[number, string]>,
  endAt: number,
): Array<[number, string]> {
  const resets = events
    .filter(([, k]) => k === 'message' || (k === 'stream' && resetOnStreaming) || (k === 'typing' && resetOnTypingOnly))
    .map(([t]) => t);
  const out: Array<[number, string]> = [];
  let silenceFrom = 0;
  let beacons = 0;
  for (;;) {
    let due = silenceFrom + threshold;
    // resets at or before the due time move the deadline (a reset at the due instant is processed first when scheduled earlier)
    const moved = resets.filter((t) => t > silenceFrom && t < due);
    if (moved.length > 0) {
      silenceFrom = Math.max(...moved);
      continue;
    }
    if (due >= endAt) return out;
    if (beacons < maxBeacons) {
      beacons++;
      out.push([due, 'beacon']);
      silenceFrom = due;
    } else {
      out.push([due, 'escalation']);
      return out;
    }
    due = 0;
  }
}

describe('silenceWatchdog (property)', () => {
  it('matches the reference model for random timelines and configs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 5 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom(...KINDS)), { maxLength: 30 }),
        fc.integer({ min: 0, max: 250_000 }),
        (thresholdSeconds, maxBeacons, resetOnStreaming, resetOnTypingOnly, rawEvents, rawEnd) => {
          // Keep the timeline unambiguous: a reset at the very instant a beacon is due may run
          // before or after it (both are fine), so no event may fall on origin + k·threshold for
          // any possible silence origin (0 or an earlier event), nor on the turn's end.
          const ms = thresholdSeconds * 1000;
          const origins = [0];
          // Event times are even and the end is odd, so the end never meets a due instant either.
          const endAt = rawEnd * 2 + 1;
          const events: Array<[number, DeliveredKind | 'tool_call']> = [];
          for (const [half, kind] of [...rawEvents].sort((a, b) => a[0] - b[0])) {
            const t = half * 2;
            if (origins.some((o) => (t - o) % ms === 0)) continue;
            origins.push(t);
            events.push([t, kind]);
          }
          const scheduler = new VirtualTimeScheduler();
          const bus = new HookBus();
          const config = SilenceWatchdogSchema.parse({
            thresholdSeconds,
            maxBeacons,
            resetOnStreaming,
            resetOnTypingOnly,
          });
          const got: Array<[number, string]> = [];
          silenceWatchdog({ bus, settingsFor: () => config, scheduler }).subscribe((b) =>
            got.push([scheduler.now(), b.kind]),
          );
          bus.emit('turn.start', { turnId: 't', agentId: 'a', channel: 'local', wakeTokens: ['w'] });
          for (const [at, kind] of events) {
            scheduler.schedule(() => {
              if (kind === 'tool_call') bus.emit('runtime.local', { turnId: 't', kind: 'tool_call', tool: 'x' });
              else
                bus.emit('message.delivered', {
                  turnId: 't',
                  agentId: 'a',
                  channel: 'local',
                  target: '#g',
                  messageId: 'm',
                  kind,
                });
            }, at);
          }
          // Once the turn ended, no watchdog action may be left (no state leak).
          let leftAtEnd = -1;
          scheduler.schedule(() => {
            bus.emit('turn.end', { turnId: 't' });
            // The watchdog's actions are the ones carrying state (its turn); this test's own actions carry none.
            leftAtEnd = scheduler.actions.filter((a) => (a as unknown as { state?: unknown }).state != null).length;
          }, endAt);
          scheduler.flush();
          const expected = model(
            thresholdSeconds * 1000,
            maxBeacons,
            resetOnStreaming,
            resetOnTypingOnly,
            events,
            endAt,
          );
          expect(got).toEqual(expected);
          expect(leftAtEnd).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
