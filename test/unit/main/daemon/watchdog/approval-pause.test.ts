/** issue 14: while a turn waits for the operator's approval no beacon is sent; the silence restarts from zero after the answer. */
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { SilenceWatchdogSchema } from '../../../../../shared/config.js';
import { silenceBeacons } from '../../../../../main/daemon/watchdog/silence-beacons.js';
import type { TurnEvent } from '../../../../../main/daemon/watchdog/turn-events.js';

const DEFAULTS = SilenceWatchdogSchema.parse({ maxBeacons: 2 });
const values: Record<string, TurnEvent> = {
  s: {
    hook: 'turn.start',
    turnId: 'a',
    start: { turnId: 'a', agentId: 'claude', channel: 'local', wakeTokens: ['w'] },
  },
  w: { hook: 'approval.wait', turnId: 'a', waiting: true },
  r: { hook: 'approval.wait', turnId: 'a', waiting: false },
};

function marbles(events: string, expected: string) {
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ hot, expectObservable }) => {
    const out = hot(events, values).pipe(
      silenceBeacons(() => DEFAULTS, scheduler),
      map((b) => `${b.kind}:${b.index}`),
    );
    expectObservable(out).toBe(expected, { a: 'beacon:1', b: 'beacon:2', c: 'escalation:3' });
  });
}

describe('silence watchdog and approvals', () => {
  it('a wait longer than the threshold sends no beacon; the clock restarts from zero at the answer', () => {
    // wait at 10 s, answer at 200 s: the first beacon is 45 s after the answer.
    marbles('s 9999ms w 189999ms r', '245s a 44999ms b 44999ms c');
  });

  it('a short wait also restarts the silence from zero', () => {
    marbles('s 29999ms w 9999ms r', '85s a 44999ms b 44999ms c');
  });

  it("Codex: its own waitingOnApproval and the daemon's pending approval overlap; the clock restarts when Codex leaves the state", () => {
    // Codex says it waits (1 s), the approval is recorded (2 s), answered (100 s), Codex resumes (200 s).
    marbles('s 999ms w 999ms w 97999ms r 99999ms r', '245s a 44999ms b 44999ms c');
  });

  it('two overlapping waits pause until both are answered', () => {
    marbles('s 999ms w 999ms w 97999ms r 99999ms r', '245s a 44999ms b 44999ms c');
  });
});
