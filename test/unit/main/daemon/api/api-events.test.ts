/**
 * issue 39 "lean data flow": the API's wake events by concern, on a real store. `wake.status` is
 * built from the lifecycle's `wake_status` event — the wake read once, at its first status — and
 * equals the stored wake; `wake.timeline` is the entry appended (a beacon counted on the wake's
 * next status); `wake.changes` the summary as given.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiEvents } from '../../../../../main/daemon/api/api-events.js';
import { toWake } from '../../../../../main/daemon/api/api-mappers.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import type { ApiEvent, Wake } from '../../../../../shared/api/contract.js';
import { targetKey } from '../../../../../shared/target.js';
import type { WakeStatus } from '../../../../../shared/wake-status.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const general = targetKey('#general');
let dir: TempDir;
let store: Store;
let events: ApiEvent[];
let out: ApiEvents;

beforeEach(() => {
  dir = makeTempDir('agentteam-api-events-');
  store = Store.open(dir.path);
  out = new ApiEvents(store, (id) => `Agent ${id}`);
  events = [];
  out.events$.subscribe((e) => events.push(e));
});
afterEach(() => {
  out.complete();
  store.close();
  dir.remove();
});

function insert(wakeToken: string): void {
  store.insertWake({
    wakeToken,
    messageId: `msg_${wakeToken}`,
    agentId: 'helper',
    runtime: 'demo',
    target: general,
    targetSeq: 1,
    deliveryClass: 'visible_reply',
    agentName: 'helper',
    agentDisplayName: 'Helper',
    chainId: 'msg_op',
    cause: 'agent_mention',
    hop: 1,
    hopBudget: 6,
    askedById: 'demo',
    askedByName: 'Demo',
  });
}

/** The lifecycle's part: the status journaled, then its `wake_status` event. */
function moveTo(wakeToken: string, status: WakeStatus, reason: string | null = null): WakeStatusEvent {
  if (status !== 'queued') store.appendWakeEvent({ wakeToken, kind: 'status', status, ...(reason ? { reason } : {}) });
  const stored = store.getWake(wakeToken);
  return {
    type: 'wake_status',
    wakeToken,
    messageId: `msg_${wakeToken}`,
    agentId: 'helper',
    agentName: 'helper',
    agentDisplayName: 'Helper',
    runtime: 'demo',
    model: null,
    target: general,
    targetSeq: 1,
    deliveryClass: 'visible_reply',
    status,
    reason,
    detail: null,
    localText: null,
    // The lifecycle's clock and the store's agree on a transition's time (one clock in the daemon).
    at: stored?.endedAt ?? new Date().toISOString(),
  };
}

const pushedWakes = (): Wake[] => events.flatMap((e) => (e.name === 'wake.status' ? [e.payload] : []));

describe('ApiEvents: a wake by concern (issue 39)', () => {
  it('wake.status is read once per wake, at its first status; later ones come from the event and equal the stored wake', () => {
    insert('w1');
    const reads = vi.spyOn(store, 'getWake');
    out.status(moveTo('w1', 'queued'));
    out.status(moveTo('w1', 'delivered'));
    reads.mockClear();
    const beacon = { wakeToken: 'w1', kind: 'beacon' as const, detail: '🧠 Working…' };
    store.appendWakeEvent(beacon);
    const beaconAt = store.getWake('w1')?.lastBeaconAt as string;
    out.timeline(beacon, beaconAt);
    const ended = moveTo('w1', 'reply_sent');
    reads.mockClear();
    out.status(ended);
    expect(reads).not.toHaveBeenCalled();

    expect(pushedWakes().map((w) => w.status)).toEqual(['queued', 'delivered', 'reply_sent']);
    // Chain, cause, hop and the beacon counted: the same wake the store holds.
    expect(pushedWakes()[2]).toEqual(toWake(store.getWake('w1')!, 'Helper'));
    expect(events.find((e) => e.name === 'wake.timeline')?.payload).toEqual({
      wakeToken: 'w1',
      kind: 'beacon',
      status: null,
      reason: null,
      detail: '🧠 Working…',
      at: beaconAt,
    });
  });

  it('a failed wake is read again: the recovery service counts its continuations beside the lifecycle (§6.6)', () => {
    insert('w2');
    out.status(moveTo('w2', 'queued'));
    out.status(moveTo('w2', 'delivered'));
    store.saveRecoveryBatch('helper', [{ target: general, frontierSeq: 1, wakeTokens: ['w2'] }], 'crash');
    const reads = vi.spyOn(store, 'getWake');
    out.status(moveTo('w2', 'failed', 'runtime_error'));
    expect(reads).toHaveBeenCalled();
    expect(pushedWakes().at(-1)).toMatchObject({ status: 'failed', reason: 'runtime_error', recoveries: 1 });
  });

  it('wake.changes carries the summary only (never the patches)', () => {
    const summary = {
      wakeToken: 'w3',
      agentId: 'helper',
      state: 'tracked' as const,
      files: 2,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:01.000Z',
    };
    out.changes(summary);
    expect(events).toEqual([{ name: 'wake.changes', payload: summary }]);
  });
});
