/**
 * One chunk of a response through delivery confirmation (watchdog spec B) as a pipeline on the
 * injected scheduler. Everything that can happen to a chunk is an event — a channel answer, the
 * ACK timeout, the end of the retry delay, a daemon stop — folded by the pure reducer of
 * delivery-state.ts; the effects of each transition feed the next events back:
 *
 *   events ─scan(reduceChunk)→ steps ─┬→ out (attempt, schedule_retry, final, late_ack_suppressed)
 *                                     ├→ the chunk's one timer: switchMap per step
 *                                     │    attempt → ACK timeout · schedule_retry → retry delay · else none
 *                                     └→ answers: mergeMap per attempt → ack | nack
 *
 * An ambiguous outcome (ACK timeout, lost connection) is never blindly resent: the reducer only
 * schedules a retry after a failure known undelivered, or on an idempotent channel.
 *
 * Answers outlive the final state: a late ACK is still folded, and only reported
 * (`late_ack_suppressed`), never applied. The flow completes once it is final and no answer is
 * outstanding, or at once after a daemon stop.
 */
import {
  EMPTY,
  Observable,
  Subject,
  catchError,
  defer,
  filter,
  from,
  map,
  merge,
  mergeMap,
  of,
  scan,
  share,
  switchMap,
  take,
  timer,
  type ObservableInput,
  type SchedulerLike,
} from 'rxjs';
import type { ChannelSendResult } from './channel.js';
import {
  INITIAL_CHUNK_STATE,
  reduceChunk,
  type ChunkEffect,
  type ChunkEvent,
  type ChunkPolicy,
  type ChunkState,
  type Transition,
} from './delivery-state.js';

export interface ChunkFlowOptions {
  readonly policy: ChunkPolicy;
  /** No ACK within this time is an ambiguous outcome (`ack_timeout`). */
  readonly ackTimeoutMs: number;
  readonly scheduler: SchedulerLike;
  /** Starts attempt `n` (identical content, same response_id); its one answer. A throw or rejection counts as a lost connection. */
  readonly send: (attempt: number) => ObservableInput<ChannelSendResult>;
  /** Emits when the daemon stops (replaying it to later chunks): the chunk settles now. */
  readonly abort$: Observable<unknown>;
}

/** One effect of a transition, with the state it led to. */
export interface ChunkStep {
  readonly effect: ChunkEffect;
  readonly state: ChunkState;
}

const SEND: ChunkEvent = { type: 'send' };
const ABORT: ChunkEvent = { type: 'abort' };
const START: Transition = { state: INITIAL_CHUNK_STATE, effects: [] };

export function chunkFlow(options: ChunkFlowOptions): Observable<ChunkStep> {
  const { policy, ackTimeoutMs, scheduler, send, abort$ } = options;
  return new Observable<ChunkStep>((subscriber) => {
    const events = new Subject<ChunkEvent>();
    let outstanding = 0;
    let final = false;
    let aborted = false;
    const settleIfDone = () => {
      if (final && (outstanding === 0 || aborted)) subscriber.complete();
    };

    const steps = events.pipe(
      scan((t: Transition, event: ChunkEvent) => reduceChunk(t.state, event, policy), START),
      mergeMap(({ state, effects }) => effects.map((effect): ChunkStep => ({ effect, state }))),
      share(),
    );

    // The chunk's one timer: every transition replaces it.
    const timer$ = steps.pipe(
      switchMap(({ effect }) => {
        if (effect.type === 'attempt')
          return timer(ackTimeoutMs, scheduler).pipe(
            map((): ChunkEvent => ({ type: 'nack', attempt: effect.attempt, failure: { kind: 'ack_timeout' } })),
          );
        if (effect.type === 'schedule_retry') return timer(effect.delayMs, scheduler).pipe(map(() => SEND));
        return EMPTY;
      }),
    );

    const answer$ = steps.pipe(
      filter((step) => step.effect.type === 'attempt'),
      mergeMap(({ effect }) => {
        const attempt = (effect as Extract<ChunkEffect, { type: 'attempt' }>).attempt;
        outstanding += 1;
        return defer(() => from(send(attempt))).pipe(
          take(1),
          map((r): ChunkEvent =>
            r.ok
              ? { type: 'ack', attempt, messageId: r.messageId, seq: r.seq, status: r.status }
              : { type: 'nack', attempt, failure: r.failure },
          ),
          catchError(() => of<ChunkEvent>({ type: 'nack', attempt, failure: { kind: 'connection_lost_after_send' } })),
          map((event) => {
            outstanding -= 1;
            return event;
          }),
        );
      }),
    );

    // Order matters: the output and the timer see a step before an answer it causes can be folded.
    subscriber.add(
      steps.subscribe((step) => {
        subscriber.next(step);
        if (step.effect.type === 'final') final = true;
      }),
    );
    subscriber.add(
      merge(
        timer$,
        answer$,
        abort$.pipe(
          take(1),
          map(() => ((aborted = true), ABORT)),
        ),
      ).subscribe((event) => {
        events.next(event);
        settleIfDone();
      }),
    );
    events.next(SEND);
    settleIfDone();
  });
}
