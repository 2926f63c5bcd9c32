/**
 * issue 42 "Sleep and wake": an agent idle for its idleSleepSeconds is put to sleep, on the
 * injected clock (virtual time here); a turn in between starts the count again; 0 never sleeps.
 */
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { clockAdvancer } from '../../../../fixtures/virtual-time.js';
import { IdleSleep } from '../../../../../main/daemon/resources/idle-sleep.js';

const log = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

function setup(seconds: Record<string, number>, answer = true) {
  const clock = new VirtualTimeScheduler();
  const slept: string[] = [];
  const s = new IdleSleep({
    idleSleepSecondsOf: (id) => seconds[id] ?? 900,
    sleep: (id) => {
      slept.push(id);
      return Promise.resolve(answer);
    },
    clock,
    log,
  });
  const advance = clockAdvancer(clock);
  return { s, slept, advance };
}

describe('IdleSleep', () => {
  it('puts an agent to sleep once it has been idle for its idleSleepSeconds, not before', () => {
    const { s, slept, advance } = setup({ a: 5 });
    s.state('a', 'idle');
    advance(4999);
    expect(slept).toEqual([]);
    advance(1);
    expect(slept).toEqual(['a']);
  });

  it('a turn in between starts the idle time again; a repeated idle does not', () => {
    const { s, slept, advance } = setup({ a: 5 });
    s.state('a', 'idle');
    advance(3000);
    s.state('a', 'busy');
    s.state('a', 'idle');
    advance(3000);
    s.state('a', 'idle'); // told again (a readiness change): the same idle stretch
    expect(slept).toEqual([]);
    advance(2000);
    expect(slept).toEqual(['a']);
  });

  it('0 means never', () => {
    const { s, slept, advance } = setup({ a: 0 });
    s.state('a', 'idle');
    advance(10 * 24 * 3600 * 1000);
    expect(slept).toEqual([]);
  });

  it('names the awake idle agent idle longest (memory-aware admission puts it to sleep first)', () => {
    const { s, advance } = setup({});
    s.state('a', 'idle');
    advance(1000);
    s.state('b', 'idle');
    expect(s.longestIdle()).toBe('a');
    expect(s.longestIdle('a')).toBe('b');
    s.state('a', 'sleeping');
    expect(s.longestIdle()).toBe('b');
  });
});
