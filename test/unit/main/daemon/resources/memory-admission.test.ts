/**
 * issue 42 "Memory-aware admission": below `minFreeMemoryMB` a sleeping agent's wake is held
 * `waiting_for_memory` while the longest-idle awake agent is put to sleep; the hold is released
 * once free memory is back (checked on the daemon's clock, virtual here). Awake agents are never held.
 */
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { clockAdvancer } from '../../../../fixtures/virtual-time.js';
import { MemoryAdmission } from '../../../../../main/daemon/resources/memory-admission.js';

const MB = 1024 * 1024;

function setup(opts: { free: number | null; asleep: string[]; idle?: string; minMB?: number }) {
  const clock = new VirtualTimeScheduler();
  const state = { free: opts.free };
  const slept: string[] = [];
  const resumed: string[] = [];
  const m = new MemoryAdmission({
    minFreeBytes: (opts.minMB ?? 1024) * MB,
    memAvailable: () => state.free,
    asleep: (id) => opts.asleep.includes(id),
    longestIdle: (except) => (opts.idle !== undefined && opts.idle !== except ? opts.idle : undefined),
    sleepNow: (id) => (slept.push(id), Promise.resolve(true)),
    resume: (id) => (resumed.push(id), true),
    clock,
    recheckMs: 5000,
  });
  const advance = clockAdvancer(clock);
  return { m, state, slept, resumed, advance };
}

describe('MemoryAdmission', () => {
  it('holds a sleeping agent below the floor, puts the longest-idle agent to sleep, releases once memory is back', () => {
    const t = setup({ free: 300 * MB, asleep: ['a'], idle: 'b' });
    expect(t.m.hold('a')).toEqual({
      kind: 'waiting_for_memory',
      resetsAt: null,
      detail: 'free memory 300 MB is below resources.minFreeMemoryMB (1024 MB)',
    });
    expect(t.slept).toEqual(['b']);
    t.advance(5000);
    expect(t.resumed).toEqual([]); // still short: held, checked again
    t.state.free = 2048 * MB;
    t.advance(5000);
    expect(t.resumed).toEqual(['a']);
  });

  it('never holds an awake agent (its delivery starts no process), nor with enough memory, unknown memory or a floor of 0', () => {
    expect(setup({ free: 10 * MB, asleep: [] }).m.hold('a')).toBeNull();
    expect(setup({ free: 2048 * MB, asleep: ['a'] }).m.hold('a')).toBeNull();
    expect(setup({ free: null, asleep: ['a'] }).m.hold('a')).toBeNull();
    expect(setup({ free: 10 * MB, asleep: ['a'], minMB: 0 }).m.hold('a')).toBeNull();
  });
});
