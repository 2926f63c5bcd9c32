import { describe, expect, it } from 'vitest';
import type { DeliveryResultEvent } from '../../../../../main/daemon/bus/hook-events.js';
import { deliveryDetail } from '../../../../../shared/delivery-detail.js';
import { WakeTimeline } from '../../../../../main/daemon/wake/wake-timeline.js';
import type { WakeJournalEvent } from '../../../../../main/daemon/wake/wake-ports.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

const result = (over: Partial<DeliveryResultEvent> = {}): DeliveryResultEvent => ({
  turnId: 't1',
  responseId: 'r1',
  chunkIndex: 0,
  chunkCount: 1,
  agentId: 'claude',
  target: '#general',
  channel: 'local',
  state: 'delivered',
  attempts: 1,
  messageId: 'm9',
  seq: 9,
  ack: 'sent',
  failure: null,
  redelivered: false,
  purpose: 'reply',
  ...over,
});

function setup(options: { autoDeliver?: boolean } = {}) {
  const h = wakeHarness(options);
  const entries: WakeJournalEvent[] = [];
  const ended = new Set<string>();
  const changed: string[] = [];
  const turns = new Map<string, readonly string[]>();
  const targets = new Map<string, string>();
  const timeline = new WakeTimeline({
    // An ended wake refuses beacons (the store's rule).
    journal: {
      appendWakeEvent: (e) => {
        if (ended.has(e.wakeToken)) return false;
        entries.push(e);
        return true;
      },
    },
    lifecycle: h.lifecycle,
    targetOf: (t) => targets.get(t),
    wakesOfTurn: (agentId, turnId) => (agentId === h.agentId ? (turns.get(turnId) ?? []) : []),
    changed: (t) => changed.push(t.wakeToken),
  });
  return { h, timeline, entries, ended, changed, turns, targets };
}

describe('deliveryDetail (the inspector text of one delivery outcome)', () => {
  it('names the state, the chunk of several, the attempts, the failure and a re-delivery', () => {
    expect(deliveryDetail(result())).toBe('delivered · 1 attempt');
    expect(
      deliveryDetail(
        result({
          state: 'failed_final',
          chunkIndex: 1,
          chunkCount: 3,
          attempts: 4,
          failure: 'channel_down',
          redelivered: true,
        }),
      ),
    ).toBe('failed_final chunk 2/3 · 4 attempts · channel_down · re-delivered');
  });
});

describe('WakeLifecycle.workingOn + WakeTimeline.beacon (watchdog spec A)', () => {
  it('a beacon lands on carried and mid-turn wakes the runtime is working on, not on queued or ended ones', () => {
    const s = setup({ autoDeliver: false });
    const a = s.h.wake('#one');
    const b = s.h.wake('#two');
    const queued = s.h.wake('#three');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a, b]);
    expect(s.h.lifecycle.workingOn(s.h.agentId, [a, 'gone'])).toEqual([a, b]);
    const marked = s.timeline.beacon({ agentId: s.h.agentId, kind: 'beacon', text: 'Working… 45s', wakeTokens: [a] });
    expect(marked).toEqual([a, b]);
    expect(s.entries).toEqual([
      { wakeToken: a, kind: 'beacon', detail: 'Working… 45s' },
      { wakeToken: b, kind: 'beacon', detail: 'Working… 45s' },
    ]);
    expect(s.changed).toEqual([a, b]);
    expect(s.entries.some((e) => e.wakeToken === queued)).toBe(false);
  });

  it('a final-check-sent wake still gets beacons; an ended one does not; an escalation is marked as such', () => {
    const s = setup();
    const a = s.h.wake('#one');
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    expect(s.h.lifecycle.workingOn(s.h.agentId, [])).toEqual([a]);
    s.ended.add(a);
    expect(
      s.timeline.beacon({ agentId: s.h.agentId, kind: 'escalation', text: 'Still silent', wakeTokens: [a] }),
    ).toEqual([]);
    s.ended.clear();
    expect(
      s.timeline.beacon({ agentId: s.h.agentId, kind: 'escalation', text: 'Still silent', wakeTokens: [] }),
    ).toEqual([a]);
    expect(s.entries).toEqual([{ wakeToken: a, kind: 'escalation', detail: 'Still silent' }]);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    expect(s.h.lifecycle.workingOn(s.h.agentId, [a])).toEqual([]);
  });
});

describe('WakeTimeline.compacted (issue 24: a compaction is a continuation)', () => {
  it('notes the compaction on every wake the runtime works on (final-check sent too); a queued or ended wake gets none', () => {
    const s = setup({ autoDeliver: false });
    const a = s.h.wake('#one');
    const b = s.h.wake('#two');
    const queued = s.h.wake('#three');
    s.h.lifecycle.onDelivered(s.h.agentId, 0, [a, b]);
    s.h.lifecycle.onTurnBoundary(s.h.agentId, 0);
    s.ended.add(b);
    expect(s.timeline.compacted(s.h.agentId)).toEqual([a]);
    expect(s.entries).toEqual([{ wakeToken: a, kind: 'compaction' }]);
    expect(s.changed).toEqual([a]);
    expect(s.entries.some((e) => e.wakeToken === queued)).toBe(false);
    // Nothing ends or moves: the wakes stay as they were.
    expect(s.h.lifecycle.workingOn(s.h.agentId, [])).toEqual([a, b]);
  });
});

describe('WakeTimeline.delivery and alert', () => {
  it("a reply's delivery outcome goes on its turn's wakes that answer on its target; beacons posted as messages do not", () => {
    const s = setup();
    s.turns.set('t1', ['w1', 'w2']);
    s.targets.set('w1', '#general');
    s.targets.set('w2', '#other');
    s.timeline.delivery(result({ attempts: 2 }));
    s.timeline.delivery(result({ purpose: 'beacon' }));
    s.timeline.delivery(result({ turnId: 't_unknown' }));
    expect(s.entries).toEqual([{ wakeToken: 'w1', kind: 'delivery', detail: 'delivered · 2 attempts' }]);
    expect(s.changed).toEqual(['w1']);
  });

  it('an alert about a wake joins its timeline; one about no wake does not', () => {
    const s = setup();
    s.timeline.alert({ wakeToken: 'w1', kind: 'no_response', message: 'No reply.' });
    s.timeline.alert({ wakeToken: null, kind: 'runtime_crashed', message: 'x' });
    expect(s.entries).toEqual([{ wakeToken: 'w1', kind: 'alert', detail: 'no_response: No reply.' }]);
    expect(s.changed).toEqual(['w1']);
  });
});
