/**
 * Model-based checks (fast-check) of the store's two core invariants against a trivial model:
 * - messages: per-target TargetSeq is 1..n with no gap, and a repeated (author, responseId,
 *   chunk) is stored once and answers `already_sent` with the original;
 * - wakes: at most one terminal status per wake, ever (contract §6.2); the row mirrors the
 *   accepted events (status, beacons, escalated, finalCheck, endedAt).
 * One store serves every run (each run uses its own targets and wake tokens) to keep it fast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Store } from '../../../../../main/daemon/store/index.js';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import { isTerminal, WAKE_STATUSES, type WakeStatus } from '../../../../../shared/wake-status.js';
import type { WakeEventKind } from '../../../../../main/daemon/store/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let store: Store;
let runId = 0;
beforeAll(() => {
  dir = makeTempDir('agentteam-store-model-');
  store = Store.open(dir.path);
});
afterAll(() => {
  store.close();
  dir.remove();
});

describe('messages against a model', () => {
  const append = fc.record({
    target: fc.constantFrom('#a', '#a:abcd', '#b', 'dm:@x', 'dm:@x:abcd'),
    author: fc.constantFrom('operator', 'claude', 'codex'),
    response: fc.option(fc.constantFrom('r1', 'r2', 'r3'), { nil: undefined }),
    chunk: fc.integer({ min: 0, max: 2 }),
  });

  it('TargetSeq is gap-free per target and response chunks are stored once', () => {
    fc.assert(
      fc.property(fc.array(append, { minLength: 1, maxLength: 25 }), (ops) => {
        const run = `run${runId++}`;
        const seqs = new Map<string, number>();
        const firstByKey = new Map<string, string>();
        for (const op of ops) {
          // Each run gets its own conversations: a channel/member name unique to the run.
          const target = targetKey(op.target.replace(/^(#|dm:@)([a-z])/, `$1$2${run}`)) as TargetKey;
          const agent = op.author !== 'operator';
          // Response ids are unique to the run too (idempotency is per author across the whole store).
          const response = agent && op.response !== undefined ? `${op.response}-${run}` : undefined;
          const r = store.appendMessage({
            target,
            authorId: op.author,
            authorKind: agent ? 'agent' : 'operator',
            content: 'c',
            responseId: response,
            chunkIndex: response === undefined ? undefined : op.chunk,
          });
          const key = `${op.author}/${response}/${op.chunk}/${run}`;
          const first = response === undefined ? undefined : firstByKey.get(key);
          if (first !== undefined) {
            expect(r.status).toBe('already_sent');
            expect(r.message.id).toBe(first);
            continue;
          }
          expect(r.status).toBe('sent');
          const seq = (seqs.get(target) ?? 0) + 1;
          seqs.set(target, seq);
          expect(r.message.seq).toBe(seq);
          if (response !== undefined) firstByKey.set(key, r.message.id);
        }
        for (const [target, last] of seqs) {
          expect(store.lastSeq(target as TargetKey)).toBe(last);
          expect(store.listMessages(target as TargetKey).map((m) => m.seq)).toEqual(
            Array.from({ length: last }, (_, i) => i + 1),
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('wakes against a model', () => {
  const event = fc.record({
    wake: fc.integer({ min: 0, max: 2 }),
    kind: fc.constantFrom<WakeEventKind>(
      'status',
      'status',
      'status',
      'beacon',
      'escalation',
      'final_check',
      'delivery',
      'alert',
    ),
    status: fc.option(fc.constantFrom<WakeStatus>(...WAKE_STATUSES), { nil: undefined }),
  });

  it('at most one terminal status per wake, ever; the row mirrors the accepted events', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 30 }), (events) => {
        const run = `w${runId++}`;
        const tokens = [0, 1, 2].map((i) => `${run}_${i}`);
        const model = tokens.map(() => ({
          status: 'queued' as WakeStatus,
          beacons: 0,
          escalated: false,
          finalCheck: false,
          terminals: 0,
        }));
        for (const t of tokens)
          store.insertWake({
            wakeToken: t,
            messageId: 'm',
            agentId: 'claude',
            runtime: 'demo',
            target: targetKey('#general'),
            targetSeq: 1,
            deliveryClass: 'visible_reply',
          });
        for (const e of events) {
          const status = e.kind === 'status' ? (e.status ?? 'delivered') : e.status;
          const m = model[e.wake]!;
          const ended = isTerminal(m.status);
          const expected = !(
            ended &&
            (status !== undefined || e.kind === 'beacon' || e.kind === 'escalation' || e.kind === 'final_check')
          );
          expect(store.appendWakeEvent({ wakeToken: tokens[e.wake]!, kind: e.kind, status })).toBe(expected);
          if (!expected) continue;
          if (status !== undefined) m.status = status;
          if (status !== undefined && isTerminal(status)) m.terminals++;
          if (e.kind === 'beacon') m.beacons++;
          if (e.kind === 'escalation') m.escalated = true;
          if (e.kind === 'final_check' || status === 'final_check_sent') m.finalCheck = true;
        }
        tokens.forEach((t, i) => {
          const m = model[i]!;
          const row = store.getWake(t)!;
          expect(m.terminals).toBeLessThanOrEqual(1);
          expect(row).toMatchObject({
            status: m.status,
            beacons: m.beacons,
            escalated: m.escalated,
            finalCheck: m.finalCheck,
          });
          expect(row.endedAt !== null).toBe(isTerminal(m.status));
          const terminalEvents = store.listWakeEvents(t).filter((x) => x.status !== null && isTerminal(x.status));
          expect(terminalEvents.length).toBe(m.terminals);
        });
      }),
      { numRuns: 60 },
    );
  });
});
