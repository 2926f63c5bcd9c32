/**
 * issue 42: at most `resources.startsAtOnce` agent processes start at once. A sleeping agent's wake
 * beyond them is held `waiting_for_start` and released in arrival order as each start ends; awake
 * agents are never held; a place let through but never used is given back on the daemon's clock.
 */
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { clockAdvancer } from '../../../../fixtures/virtual-time.js';
import { StartAdmission } from '../../../../../main/daemon/resources/start-admission.js';

function setup(opts: { limit: number; asleep: string[] }) {
  const clock = new VirtualTimeScheduler();
  const asleep = new Set(opts.asleep);
  const resumed: string[] = [];
  const s = new StartAdmission({
    startsAtOnce: opts.limit,
    asleep: (id) => asleep.has(id),
    resume: (id) => (resumed.push(id), true),
    clock,
    claimMs: 30_000,
  });
  /** The agent's state as the roster reports it (asleep follows it). */
  const state = (id: string, st: 'sleeping' | 'starting' | 'idle' | 'crashed' | 'busy') => {
    if (st === 'sleeping') asleep.add(id);
    else asleep.delete(id);
    s.state(id, st);
  };
  const advance = clockAdvancer(clock);
  return { s, resumed, state, advance };
}

describe('StartAdmission', () => {
  it('lets `startsAtOnce` sleeping agents start, holds the rest, releases them in arrival order as starts end', () => {
    const t = setup({ limit: 2, asleep: ['a', 'b', 'c', 'd'] });
    expect(t.s.hold('a')).toBeNull();
    expect(t.s.hold('b')).toBeNull();
    expect(t.s.hold('c')).toEqual({
      kind: 'waiting_for_start',
      resetsAt: null,
      detail: '2 agents are starting; at most 2 start at once (resources.startsAtOnce)',
    });
    expect(t.s.hold('d')?.kind).toBe('waiting_for_start');
    // A second wake of an agent already let through is not held (its start is on its way).
    expect(t.s.hold('a')).toBeNull();
    t.state('a', 'starting');
    t.state('b', 'starting');
    expect(t.resumed).toEqual([]);
    t.state('a', 'idle'); // a is up: c takes its place
    expect(t.resumed).toEqual(['c']);
    t.state('c', 'starting');
    t.state('b', 'crashed'); // a failed start ends too: d goes
    expect(t.resumed).toEqual(['c', 'd']);
    // d is counted from its release (before it reads starting): a new sleeping agent waits.
    expect(t.s.hold('e')).toBeNull(); // e is not asleep (never held)
    t.state('e', 'sleeping');
    expect(t.s.hold('e')?.kind).toBe('waiting_for_start');
  });

  it('never holds an awake agent, nor with a limit of 0', () => {
    expect(setup({ limit: 1, asleep: [] }).s.hold('a')).toBeNull();
    const none = setup({ limit: 0, asleep: ['a', 'b'] });
    expect(none.s.hold('a')).toBeNull();
    expect(none.s.hold('b')).toBeNull();
  });

  it('counts agents starting for another cause (the daemon start, a restart)', () => {
    const t = setup({ limit: 1, asleep: ['b'] });
    t.state('a', 'starting');
    expect(t.s.hold('b')?.kind).toBe('waiting_for_start');
    t.state('a', 'idle');
    expect(t.resumed).toEqual(['b']);
  });

  it('gives back a place let through that never started (its wake cancelled), then releases the next', () => {
    const t = setup({ limit: 1, asleep: ['a', 'b'] });
    expect(t.s.hold('a')).toBeNull();
    expect(t.s.hold('b')?.kind).toBe('waiting_for_start');
    t.advance(29_000);
    expect(t.resumed).toEqual([]);
    t.advance(1_000);
    expect(t.resumed).toEqual(['b']);
  });

  it('a place used in time is not given back by its timer', () => {
    const t = setup({ limit: 1, asleep: ['a', 'b'] });
    expect(t.s.hold('a')).toBeNull();
    expect(t.s.hold('b')?.kind).toBe('waiting_for_start');
    t.state('a', 'starting');
    t.advance(60_000);
    expect(t.resumed).toEqual([]);
  });
});
