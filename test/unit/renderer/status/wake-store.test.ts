import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WAKE_STATUSES, isTerminal } from '../../../../shared/wake-status.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { wakeFixture } from '../../../fixtures/scripted-daemon.js';

describe('renderer wake view (contract §6.2)', () => {
  it('applies forward progress', () => {
    const book = new WakeBook();
    book.apply(wakeFixture({ wakeToken: 'a', status: 'queued' }));
    book.apply(wakeFixture({ wakeToken: 'a', status: 'delivered', beacons: 1 }));
    book.apply(wakeFixture({ wakeToken: 'a', status: 'reply_sent' }));
    expect(book.get('a')?.status).toBe('reply_sent');
  });

  it('ignores a stale active update after a terminal status, and a second terminal status', () => {
    const book = new WakeBook();
    expect(book.apply(wakeFixture({ wakeToken: 'a', status: 'completed_without_visible_reply' }))).toBe(true);
    expect(book.apply(wakeFixture({ wakeToken: 'a', status: 'delivered' }))).toBe(false);
    expect(book.apply(wakeFixture({ wakeToken: 'a', status: 'failed' }))).toBe(false);
    expect(book.get('a')?.status).toBe('completed_without_visible_reply');
  });

  it('in any arrival order, once a terminal status is seen the shown status is the first terminal one', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WAKE_STATUSES), { minLength: 1, maxLength: 12 }), (statuses) => {
        const book = new WakeBook();
        for (const status of statuses) book.apply(wakeFixture({ wakeToken: 'a', status }));
        const firstTerminal = statuses.find(isTerminal);
        if (firstTerminal !== undefined) expect(book.get('a')?.status).toBe(firstTerminal);
        else expect(isTerminal(book.get('a')!.status)).toBe(false);
        expect(book.wakesOf('#general').get('a')).toBe(book.get('a'));
      }),
    );
  });
});

describe('WakeBook: per-conversation snapshots and subscribers (issue 19)', () => {
  it('wakes the subscribers of the wake’s own conversation and token only, not for a stale update', () => {
    const book = new WakeBook();
    const heard: string[] = [];
    book.subscribe('t:#a0', () => heard.push('#a0'));
    book.subscribe('t:#a1', () => heard.push('#a1'));
    book.subscribe('w:x', () => heard.push('x'));
    book.apply(wakeFixture({ wakeToken: 'x', target: '#a1', status: 'delivered' }));
    book.apply(wakeFixture({ wakeToken: 'y', target: '#a1', status: 'delivered' }));
    book.apply(wakeFixture({ wakeToken: 'x', target: '#a1', status: 'queued' })); // stale
    expect(heard).toEqual(['#a1', 'x', '#a1']);
  });

  it('keeps a conversation’s snapshot the same object until one of its wakes changes', () => {
    const book = new WakeBook();
    book.applyAll([
      wakeFixture({ wakeToken: 'x', target: '#a0', status: 'delivered' }),
      wakeFixture({ wakeToken: 'y', target: '#a1', status: 'delivered' }),
    ]);
    const a0 = book.wakesOf('#a0');
    expect([...a0.keys()]).toEqual(['x']);
    book.apply(wakeFixture({ wakeToken: 'y', target: '#a1', status: 'reply_sent' }));
    expect(book.wakesOf('#a0')).toBe(a0);
    book.apply(wakeFixture({ wakeToken: 'x', target: '#a0', status: 'reply_sent' }));
    expect(book.wakesOf('#a0')).not.toBe(a0);
    expect(book.wakesOf('#a0').get('x')?.status).toBe('reply_sent');
    expect(book.wakesOf('#none').size).toBe(0);
    expect(book.targetOf('y')).toBe('#a1');
  });

  it('stops calling a listener once unsubscribed', () => {
    const book = new WakeBook();
    let calls = 0;
    const off = book.subscribe('t:#a0', () => calls++);
    book.apply(wakeFixture({ wakeToken: 'x', target: '#a0', status: 'queued' }));
    off();
    book.apply(wakeFixture({ wakeToken: 'x', target: '#a0', status: 'delivered' }));
    expect(calls).toBe(1);
  });
});

describe('WakeBook: wake.timeline entries merged (issue 39)', () => {
  const entry = (kind: 'beacon' | 'escalation' | 'delivery', at: string) =>
    ({ wakeToken: 'a', kind, status: null, reason: null, detail: 'x', at }) as const;

  it('a beacon counts and stamps its time, the escalation marks; a delivery entry moves nothing and notifies no one', () => {
    const book = new WakeBook();
    book.apply(wakeFixture({ wakeToken: 'a', status: 'delivered' }));
    const heard: string[] = [];
    book.subscribe('w:a', () => heard.push('a'));
    expect(book.timeline(entry('beacon', '2026-01-01T00:00:45.000Z'))).toBe(true);
    expect(book.timeline(entry('delivery', '2026-01-01T00:00:46.000Z'))).toBe(false);
    expect(book.timeline(entry('escalation', '2026-01-01T00:01:00.000Z'))).toBe(true);
    expect(book.get('a')).toMatchObject({
      beacons: 1,
      lastBeaconAt: '2026-01-01T00:00:45.000Z',
      escalated: true,
      status: 'delivered',
    });
    expect(heard).toEqual(['a', 'a']);
    // A later status (built by the daemon with the beacon counted) is not refused as stale.
    expect(book.apply(wakeFixture({ wakeToken: 'a', status: 'reply_sent', beacons: 1 }))).toBe(true);
  });

  it('an entry of a wake not known here, or of an ended one, changes nothing', () => {
    const book = new WakeBook();
    expect(book.timeline(entry('beacon', '2026-01-01T00:00:45.000Z'))).toBe(false);
    book.apply(wakeFixture({ wakeToken: 'a', status: 'reply_sent' }));
    expect(book.timeline(entry('beacon', '2026-01-01T00:00:45.000Z'))).toBe(false);
    expect(book.get('a')?.beacons).toBe(0);
  });
});
