import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../../../../main/daemon/runtime/restart-policy.js';

describe('RestartPolicy: capped restart with backoff', () => {
  it('doubles the delay per crash inside the window, capped at maxDelayMs, then gives up', () => {
    const policy = new RestartPolicy({ maxRestarts: 3, windowMs: 60_000, baseDelayMs: 1000, maxDelayMs: 3000 });
    expect(policy.onCrash(0)).toEqual({ restart: true, attempt: 1, delayMs: 1000 });
    expect(policy.onCrash(10)).toEqual({ restart: true, attempt: 2, delayMs: 2000 });
    expect(policy.onCrash(20)).toEqual({ restart: true, attempt: 3, delayMs: 3000 });
    expect(policy.onCrash(30)).toEqual({ restart: false, crashes: 4 });
  });

  it('forgets crashes older than the window', () => {
    const policy = new RestartPolicy({ maxRestarts: 1, windowMs: 1000, baseDelayMs: 10, maxDelayMs: 100 });
    expect(policy.onCrash(0).restart).toBe(true);
    expect(policy.onCrash(500).restart).toBe(false);
    expect(policy.onCrash(2000)).toEqual({ restart: true, attempt: 1, delayMs: 10 });
  });
});
