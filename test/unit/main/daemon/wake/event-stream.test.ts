import { Subject, take, toArray, firstValueFrom, config } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { EventStream } from '../../../../../main/daemon/wake/event-stream.js';

/** issue 19: EventStream replaced the lifecycle's Subjects; it must behave as a Subject does where it is used. */
describe('EventStream', () => {
  it('multicasts each value to every subscriber in subscription order, like a Subject', () => {
    const s = new EventStream<number>();
    const ref = new Subject<number>();
    const seen: string[] = [];
    const refSeen: string[] = [];
    s.observable.subscribe((v) => seen.push(`a${v}`));
    ref.subscribe((v) => refSeen.push(`a${v}`));
    s.observable.subscribe((v) => seen.push(`b${v}`));
    ref.subscribe((v) => refSeen.push(`b${v}`));
    for (const v of [1, 2]) {
      s.next(v);
      ref.next(v);
    }
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(seen).toEqual(refSeen);
  });

  it('works with operators and unsubscribes through them', async () => {
    const s = new EventStream<number>();
    const first = firstValueFrom(s.observable.pipe(take(2), toArray()));
    s.next(1);
    s.next(2);
    s.next(3);
    expect(await first).toEqual([1, 2]);
  });

  it('a subscriber added or removed during next sees the snapshot rule of a Subject', () => {
    const s = new EventStream<number>();
    const seen: string[] = [];
    const b = s.observable.subscribe((v) => seen.push(`b${v}`));
    s.observable.subscribe((v) => {
      seen.push(`c${v}`);
      if (v === 1) s.observable.subscribe((w) => seen.push(`late${w}`));
    });
    s.observable.subscribe((v) => {
      seen.push(`d${v}`);
      b.unsubscribe();
    });
    s.next(1);
    s.next(2);
    // b saw 1 (unsubscribed during 1), the late subscriber starts at 2.
    expect(seen).toEqual(['b1', 'c1', 'd1', 'c2', 'd2', 'late2']);
  });

  it('completes its subscribers; later values are ignored and late subscribers complete at once', () => {
    const s = new EventStream<number>();
    const events: string[] = [];
    s.observable.subscribe({ next: (v) => events.push(`n${v}`), complete: () => events.push('done') });
    s.complete();
    s.next(1);
    s.observable.subscribe({ next: (v) => events.push(`late${v}`), complete: () => events.push('late done') });
    expect(events).toEqual(['done', 'late done']);
  });

  it('an observer that throws does not stop the others nor the caller (reported asynchronously, as with a Subject)', async () => {
    const reported: unknown[] = [];
    const previous = config.onUnhandledError;
    // rxjs reads the hook when its report timer fires, so it stays set until after that tick.
    config.onUnhandledError = (e) => reported.push(e);
    try {
      const s = new EventStream<number>();
      const seen: number[] = [];
      s.observable.subscribe(() => {
        throw new Error('observer failed');
      });
      s.observable.subscribe((v) => seen.push(v));
      expect(() => s.next(7)).not.toThrow();
      expect(seen).toEqual([7]);
      expect(reported).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(reported).toEqual([new Error('observer failed')]);
    } finally {
      config.onUnhandledError = previous;
    }
  });
});
