/**
 * Race test of delivery confirmation with fast-check's `fc.scheduler` (research/reliability-perf.md
 * §1, §5): every channel answer, every timer (retry delay, ACK timeout, 429 wait) and an optional
 * daemon stop are tasks that fast-check releases in an arbitrary order, so ACK / retry / late-ACK /
 * crash interleavings are explored and shrunk on failure.
 *
 * Invariants (Kafka transactions_test-style oracle):
 * - 0 duplicate visible messages: at most one visible copy per response_id + chunk;
 * - exactly one final state per chunk (one `delivery.result`), and one outcome per response;
 * - `delivered` ⇒ exactly one visible copy, whose id the tracker reports;
 * - `failed_final` ⇒ never shown (it is retried or kept only because it provably did not land);
 * - one `message.delivered` per delivered chunk, none otherwise.
 */
import fc from 'fast-check';
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ResponseDeliverySchema } from '../../../../../shared/config.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { DeliveryResultEvent, MessageDeliveredEvent } from '../../../../../main/daemon/bus/hook-events.js';
import { DeliveryTracker, type SendOutcome } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { FaultChannel, type Fault } from '../../../../fixtures/fault-channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';

/** An RxJS scheduler whose every timer is a task fast-check releases whenever it chooses. */
class RacingScheduler implements SchedulerLike {
  constructor(private readonly s: fc.Scheduler) {}
  now(): number {
    return 0;
  }
  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const subscription = new Subscription();
    void this.s.schedule(Promise.resolve(), `timer ${delay}ms`).then(() => {
      if (!subscription.closed) work.call(subscription as unknown as SchedulerAction<T>, state);
    });
    return subscription;
  }
}

const FAULTS: readonly Fault[] = [
  'ok',
  'drop_ack',
  'ack_after_retry',
  'rate_limited',
  'refused',
  'server_error',
  'timeout_after_send',
  'crash_after_send',
  'rejected',
];

const scenario = fc.record({
  idempotent: fc.boolean(),
  retryCount: fc.integer({ min: 0, max: 2 }),
  responses: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
  script: fc.array(fc.constantFrom(...FAULTS), { maxLength: 14 }),
  stop: fc.boolean(),
});

describe('delivery under racing ACKs, retries, late ACKs and crashes (fc.scheduler)', () => {
  it('never shows a duplicate and settles every chunk exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), scenario, async (s, sc) => {
        const script = [...sc.script];
        const channel = new FaultChannel({
          idempotent: sc.idempotent,
          faultFor: () => script.shift() ?? 'ok',
          // Answers that never come (dropped ACK, ACK held back) are simply never scheduled.
          gate: (answer, label) =>
            answer.then(
              (v) => s.schedule(Promise.resolve(v), label),
              (e: unknown) => s.schedule(Promise.reject(e), label),
            ),
        });
        const bus = new HookBus();
        const store = new MemoryStore();
        const config = ResponseDeliverySchema.parse({ retryCount: sc.retryCount });
        let n = 0;
        const tracker = new DeliveryTracker({
          bus,
          channelFor: () => channel,
          settingsFor: () => config,
          undelivered: store,
          scheduler: new RacingScheduler(s),
          newId: () => `r${++n}`,
        });
        const results: DeliveryResultEvent[] = [];
        const delivered: MessageDeliveredEvent[] = [];
        bus.deliveryResult$.subscribe((e) => results.push(e));
        bus.messageDelivered$.subscribe((e) => delivered.push(e));

        const outcomes: SendOutcome[] = [];
        const sends = sc.responses.map((chunks, i) =>
          tracker
            .send({
              turnId: `t${i}`,
              agentId: 'a',
              target: '#general',
              content: '',
              chunks: Array.from({ length: chunks }, (_, c) => `r${i}c${c}`),
            })
            .then((o) => void outcomes.push(o)),
        );
        if (sc.stop) void s.schedule(Promise.resolve(), 'daemon stop').then(() => tracker.stop());
        await s.waitFor(Promise.all(sends));
        // Let late ACKs land after everything settled: they must change nothing.
        channel.releaseHeld();
        await s.waitAll();

        expect(outcomes).toHaveLength(sc.responses.length);
        const total = sc.responses.reduce((a, b) => a + b, 0);
        expect(results).toHaveLength(total);
        const keys = new Set(results.map((r) => `${r.responseId}#${r.chunkIndex}`));
        expect(keys.size).toBe(total);
        for (const r of results) {
          const copies = channel.visible.filter((m) => m.responseId === r.responseId && m.chunkIndex === r.chunkIndex);
          expect(copies.length).toBeLessThanOrEqual(1);
          if (r.state === 'delivered') {
            expect(copies).toHaveLength(1);
            expect(r.messageId).toBe(copies[0]!.id);
          }
          if (r.state === 'failed_final') expect(copies).toHaveLength(0);
          expect(r.attempts).toBeLessThanOrEqual(sc.retryCount + 1);
        }
        expect(delivered).toHaveLength(results.filter((r) => r.state === 'delivered').length);
        // No resend on a channel that cannot deduplicate unless the previous attempt provably never landed.
        if (!sc.idempotent)
          expect(channel.visible.length).toBe(
            new Set(channel.visible.map((m) => `${m.responseId}#${m.chunkIndex}`)).size,
          );
      }),
      { numRuns: 300 },
    );
  });
});
