import { describe, expect, it } from 'vitest';
import { CrashLoopGuard } from '../../../../main/app/crash-loop-guard.js';

describe('CrashLoopGuard', () => {
  it('allows maxCrashes reloads within the window, then refuses', () => {
    const guard = new CrashLoopGuard(3, 60_000);
    expect([0, 1_000, 2_000, 3_000].map((t) => guard.recordCrash(t))).toEqual([true, true, true, false]);
  });

  it('forgets crashes older than the window', () => {
    const guard = new CrashLoopGuard(2, 10_000);
    expect(guard.recordCrash(0)).toBe(true);
    expect(guard.recordCrash(5_000)).toBe(true);
    expect(guard.recordCrash(11_000)).toBe(true);
    expect(guard.recordCrash(12_000)).toBe(false);
  });

  it('reset() gives a fresh budget', () => {
    const guard = new CrashLoopGuard(1, 60_000);
    guard.recordCrash(0);
    expect(guard.recordCrash(1)).toBe(false);
    guard.reset();
    expect(guard.recordCrash(2)).toBe(true);
  });
});
