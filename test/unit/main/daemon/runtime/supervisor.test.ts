import { describe, expect, it } from 'vitest';
import { RestartSupervisor } from '../../../../../main/daemon/runtime/supervisor.js';

describe('RestartSupervisor', () => {
  const policy = { baseDelayMs: 1000, maxDelayMs: 5000, maxRestarts: 4, windowMs: 60_000 };

  it('backs off exponentially up to the cap, then gives up within the window', () => {
    const s = new RestartSupervisor(policy);
    expect([0, 1, 2, 3].map((t) => s.onCrash(t))).toEqual([
      { restart: true, attempt: 1, delayMs: 1000 },
      { restart: true, attempt: 2, delayMs: 2000 },
      { restart: true, attempt: 3, delayMs: 4000 },
      { restart: true, attempt: 4, delayMs: 5000 },
    ]);
    expect(s.onCrash(4)).toEqual({ restart: false, restarts: 4 });
  });

  it('forgets restarts older than the window, and on reset', () => {
    const s = new RestartSupervisor(policy);
    for (let t = 0; t < 4; t += 1) s.onCrash(t);
    expect(s.onCrash(60_002)).toEqual({ restart: true, attempt: 2, delayMs: 2000 });
    s.reset();
    expect(s.onCrash(60_003)).toEqual({ restart: true, attempt: 1, delayMs: 1000 });
  });
});
