/**
 * Marble tests of one chunk's delivery flow (watchdog spec B) on TestScheduler: channel answers
 * are cold marbles, the ACK timeout and the retry delay are timers on the same virtual clock.
 * Output letters: `a` attempt, `r` retry scheduled, `c` retry cancelled, `D`/`F`/`U` final delivered / failed_final /
 * uncertain, `L` a late ACK suppressed, `|` the flow is done (final and no answer outstanding).
 */
import { NEVER, map, of, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { ChannelSendResult } from '../../../../../main/daemon/delivery/channel.js';
import { chunkFlow, type ChunkStep } from '../../../../../main/daemon/delivery/chunk-flow.js';

const ACK: ChannelSendResult = { ok: true, status: 'sent', messageId: 'm1', seq: 7 };
const ALREADY: ChannelSendResult = { ok: true, status: 'already_sent', messageId: 'm1', seq: 7 };
const REFUSED: ChannelSendResult = { ok: false, failure: { kind: 'connection_refused' } };
const ANSWERS = { k: ACK, s: ALREADY, n: REFUSED };

const letter = (step: ChunkStep): string => {
  const e = step.effect;
  if (e.type === 'attempt') return 'a';
  if (e.type === 'schedule_retry') return 'r';
  if (e.type === 'cancel_retry') return 'c';
  if (e.type === 'late_ack_suppressed') return 'L';
  if (e.type === 'final') return { delivered: 'D', failed_final: 'F', uncertain: 'U' }[e.state];
  return '?';
};
const LETTERS = { a: 'a', r: 'r', c: 'c', L: 'L', D: 'D', F: 'F', U: 'U' };

interface Case {
  /** Cold marble of each attempt's answer (attempt 1 first). */
  readonly answers: readonly string[];
  readonly expected: string;
  readonly idempotent?: boolean;
  readonly retryCount?: number;
  readonly abort?: string;
  /** Called with the final state's details. */
  readonly check?: (steps: ChunkStep[]) => void;
}

function run(c: Case): void {
  const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const steps: ChunkStep[] = [];
  const sent: number[] = [];
  scheduler.run(({ cold, hot, expectObservable }) => {
    const flow = chunkFlow({
      policy: { retryCount: c.retryCount ?? 1, retryDelayMs: 3000, idempotent: c.idempotent ?? false },
      ackTimeoutMs: 10_000,
      scheduler,
      // The tracker's stop signal replays to chunks that start later: `now` is a stop that already happened.
      abort$: c.abort === undefined ? NEVER : c.abort === 'now' ? of(true) : (hot(c.abort) as Observable<unknown>),
      send: (attempt) => {
        sent.push(attempt);
        const answer = c.answers[attempt - 1];
        if (answer === undefined) throw new Error(`unexpected attempt ${attempt}`);
        return cold(answer, ANSWERS);
      },
    });
    expectObservable(
      flow.pipe(
        map((step) => {
          steps.push(step);
          return letter(step);
        }),
      ),
    ).toBe(c.expected, LETTERS);
  });
  expect(sent).toEqual(c.answers.map((_, i) => i + 1));
  c.check?.(steps);
}

const finalOf = (steps: ChunkStep[]) => steps.find((s) => s.effect.type === 'final')!.state;

describe('chunkFlow (marbles)', () => {
  it('ACK in time: one attempt, delivered at the answer, done', () => {
    run({
      answers: ['200ms k'],
      expected: 'a 199ms (D|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ messageId: 'm1', seq: 7, ack: 'sent', attempts: 1 }),
    });
  });

  it('ACK timeout → uncertain at exactly ackTimeoutMs, never a blind resend (channel without idempotency)', () => {
    run({
      answers: ['-'],
      expected: 'a 9999ms U',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ failure: 'ack_timeout', attempts: 1 }),
    });
  });

  it('a failure known undelivered → retry delay (3 s) → the retry → sent', () => {
    run({
      answers: ['100ms n', '50ms k'],
      expected: 'a 99ms r 2999ms a 49ms (D|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ attempts: 2, ack: 'sent' }),
    });
  });

  it('retries exhausted → failed_final after the last attempt', () => {
    run({
      answers: ['100ms n', '100ms n'],
      expected: 'a 99ms r 2999ms a 99ms (F|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ attempts: 2, failure: 'connection_refused' }),
    });
  });

  it('a late ACK after the timeout is suppressed: one final state, then only reported', () => {
    run({
      answers: ['15s k'],
      expected: 'a 9999ms U 4999ms (L|)',
    });
  });

  it('on an idempotent channel the timed-out chunk is resent and answered already_sent; the original late ACK is suppressed', () => {
    run({
      idempotent: true,
      answers: ['20s k', '100ms s'],
      expected: 'a 9999ms r 2999ms a 99ms D 6899ms (L|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ ack: 'already_sent', attempts: 2 }),
    });
  });

  it('a late ACK while the retry waits settles the chunk and cancels the retry (no second attempt)', () => {
    run({
      idempotent: true,
      answers: ['11s k'],
      expected: 'a 9999ms r 999ms (cD|)',
    });
  });

  it('a duplicate response_id + chunk: the channel answers already_sent, the chunk is delivered once with that ACK', () => {
    run({
      answers: ['100ms s'],
      expected: 'a 99ms (D|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ ack: 'already_sent', messageId: 'm1', attempts: 1 }),
    });
  });

  it('a daemon stop settles a chunk in flight as uncertain and ends the flow at once', () => {
    run({ answers: ['-'], abort: '500ms x', expected: 'a 499ms (U|)' });
  });

  it('a chunk starting after the stop is failed_final and never sent', () => {
    run({
      answers: [],
      abort: 'now',
      expected: '(F|)',
      check: (steps) => expect(finalOf(steps)).toMatchObject({ attempts: 0, failure: 'daemon_stopped' }),
    });
  });
});
