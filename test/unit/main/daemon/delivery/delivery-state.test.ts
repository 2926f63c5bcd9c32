/** Table tests of the pure chunk state machine (watchdog spec part B "Delivery state model"). */
import { describe, expect, it } from 'vitest';
import type { ChannelFailure } from '../../../../../main/daemon/delivery/channel.js';
import { classifyFailure, retryDelayFor } from '../../../../../main/daemon/delivery/channel.js';
import {
  INITIAL_CHUNK_STATE,
  reduceChunk,
  type ChunkEvent,
  type ChunkPolicy,
  type ChunkState,
} from '../../../../../main/daemon/delivery/delivery-state.js';

const PLAIN: ChunkPolicy = { retryCount: 1, retryDelayMs: 3000, idempotent: false };
const IDEM: ChunkPolicy = { ...PLAIN, idempotent: true };
const ack = (attempt: number): ChunkEvent => ({
  type: 'ack',
  attempt,
  messageId: `m${attempt}`,
  seq: attempt,
  status: 'sent',
});
const nack = (attempt: number, failure: ChannelFailure): ChunkEvent => ({ type: 'nack', attempt, failure });

function run(events: ChunkEvent[], policy: ChunkPolicy = PLAIN): { state: ChunkState; effects: string[] } {
  let state = INITIAL_CHUNK_STATE;
  const effects: string[] = [];
  for (const event of events) {
    const t = reduceChunk(state, event, policy);
    state = t.state;
    for (const e of t.effects)
      effects.push(
        e.type === 'final'
          ? `final:${e.state}`
          : e.type === 'schedule_retry'
            ? `retry:${e.delayMs}`
            : e.type === 'attempt'
              ? `attempt:${e.attempt}`
              : e.type,
      );
  }
  return { state, effects };
}

const refused: ChannelFailure = { kind: 'connection_refused' };
const timeout: ChannelFailure = { kind: 'timeout_after_send' };

describe('reduceChunk', () => {
  it.each<[string, ChunkEvent[], ChunkPolicy, string, string[]]>([
    ['generated → delivered', [{ type: 'send' }, ack(1)], PLAIN, 'delivered', ['attempt:1', 'final:delivered']],
    [
      'failed → retry → delivered',
      [{ type: 'send' }, nack(1, refused), { type: 'send' }, ack(2)],
      PLAIN,
      'delivered',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:delivered'],
    ],
    [
      'failed → retry → FAILED_FINAL',
      [{ type: 'send' }, nack(1, refused), { type: 'send' }, nack(2, refused)],
      PLAIN,
      'failed_final',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:failed_final'],
    ],
    [
      '429 waits retry_after when longer',
      [{ type: 'send' }, nack(1, { kind: 'rate_limited', retryAfterMs: 9000 })],
      PLAIN,
      'delivery_failed',
      ['attempt:1', 'retry:9000'],
    ],
    [
      'ambiguous, not idempotent → uncertain, no resend',
      [{ type: 'send' }, nack(1, timeout)],
      PLAIN,
      'uncertain',
      ['attempt:1', 'final:uncertain'],
    ],
    [
      'ambiguous, idempotent → safe resend',
      [{ type: 'send' }, nack(1, timeout), { type: 'send' }, ack(2)],
      IDEM,
      'delivered',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:delivered'],
    ],
    [
      'ambiguous then exhausted on idempotent → uncertain (it may have landed)',
      [{ type: 'send' }, nack(1, timeout), { type: 'send' }, nack(2, refused)],
      IDEM,
      'uncertain',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:uncertain'],
    ],
    [
      'permanent → FAILED_FINAL without retry',
      [{ type: 'send' }, nack(1, { kind: 'rejected', code: '403', detail: 'forbidden' })],
      PLAIN,
      'failed_final',
      ['attempt:1', 'final:failed_final'],
    ],
    [
      'retryCount 0 → no retry',
      [{ type: 'send' }, nack(1, refused)],
      { ...PLAIN, retryCount: 0 },
      'failed_final',
      ['attempt:1', 'final:failed_final'],
    ],
    [
      'late ACK of attempt 1 while the retry waits → delivered, retry cancelled',
      [{ type: 'send' }, nack(1, { kind: 'ack_timeout' }), ack(1)],
      IDEM,
      'delivered',
      ['attempt:1', 'retry:3000', 'cancel_retry', 'final:delivered'],
    ],
    [
      'late ACK after the retry delivered → suppressed',
      [{ type: 'send' }, nack(1, { kind: 'ack_timeout' }), { type: 'send' }, ack(2), ack(1)],
      IDEM,
      'delivered',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:delivered', 'late_ack_suppressed'],
    ],
    [
      'stale failure of an older attempt is ignored',
      [{ type: 'send' }, nack(1, { kind: 'ack_timeout' }), { type: 'send' }, nack(1, refused), ack(2)],
      IDEM,
      'delivered',
      ['attempt:1', 'retry:3000', 'attempt:2', 'final:delivered'],
    ],
    [
      'a second ACK never makes a second final',
      [{ type: 'send' }, ack(1), ack(1)],
      PLAIN,
      'delivered',
      ['attempt:1', 'final:delivered', 'late_ack_suppressed'],
    ],
    [
      'send after final does nothing',
      [{ type: 'send' }, ack(1), { type: 'send' }],
      PLAIN,
      'delivered',
      ['attempt:1', 'final:delivered'],
    ],
    [
      'abort in flight → uncertain',
      [{ type: 'send' }, { type: 'abort' }],
      PLAIN,
      'uncertain',
      ['attempt:1', 'final:uncertain'],
    ],
    [
      'abort while a known-undelivered retry waits → FAILED_FINAL',
      [{ type: 'send' }, nack(1, refused), { type: 'abort' }],
      PLAIN,
      'failed_final',
      ['attempt:1', 'retry:3000', 'final:failed_final'],
    ],
  ])('%s', (_name, events, policy, phase, effects) => {
    const result = run(events, policy);
    expect(result.state.phase).toBe(phase);
    expect(result.effects).toEqual(effects);
  });

  it('keeps the ACK of the attempt that settled the chunk', () => {
    const { state } = run(
      [
        { type: 'send' },
        nack(1, timeout),
        { type: 'send' },
        { type: 'ack', attempt: 2, messageId: 'm-x', seq: 7, status: 'already_sent' },
      ],
      IDEM,
    );
    expect(state).toMatchObject({ messageId: 'm-x', seq: 7, ack: 'already_sent', attempts: 2, failure: null });
  });
});

describe('failure classification', () => {
  it.each<[ChannelFailure, string]>([
    [{ kind: 'connection_refused' }, 'not_delivered'],
    [{ kind: 'rate_limited', retryAfterMs: 1 }, 'not_delivered'],
    [{ kind: 'server_error', status: 502 }, 'not_delivered'],
    [{ kind: 'store_unavailable', detail: 'busy' }, 'not_delivered'],
    [{ kind: 'timeout_after_send' }, 'ambiguous'],
    [{ kind: 'connection_lost_after_send' }, 'ambiguous'],
    [{ kind: 'ack_timeout' }, 'ambiguous'],
    [{ kind: 'rejected', code: '400', detail: '' }, 'permanent'],
  ])('%o is %s', (failure, cls) => {
    expect(classifyFailure(failure)).toBe(cls);
  });

  it('retry delay honours retry_after only when longer than retryDelayMs', () => {
    expect(retryDelayFor({ kind: 'rate_limited', retryAfterMs: 10_000 }, 3000)).toBe(10_000);
    expect(retryDelayFor({ kind: 'rate_limited', retryAfterMs: 10 }, 3000)).toBe(3000);
    expect(retryDelayFor({ kind: 'server_error', status: 500 }, 3000)).toBe(3000);
  });
});
