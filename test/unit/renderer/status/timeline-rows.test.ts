/** issue 24: the inspector's timeline merges a wake's events and its audited sends in time order. */
import { describe, expect, it } from 'vitest';
import type { AuditRecord, WakeEvent } from '../../../../shared/api/contract.js';
import { timelineRows } from '../../../../renderer/src/status/timeline-copy.js';

const ev = (status: WakeEvent['status'], at: string): WakeEvent => ({
  wakeToken: 'wk_1',
  kind: 'status',
  status,
  reason: null,
  detail: null,
  at,
});
const sent = (id: number, at: string): AuditRecord => ({
  id,
  agentId: 'claude',
  agentName: 'Claude',
  kind: 'cross_target_send',
  target: '#ops',
  messageId: `msg_${id}`,
  wakeTokens: ['wk_1'],
  at,
});
const t = (s: number) => `2026-03-02T09:05:0${s}.000Z`;
const order = (rows: ReturnType<typeof timelineRows>) =>
  rows.map((r) => (r.kind === 'event' ? r.event.status : `audit ${r.audit.id}`));

describe('timelineRows', () => {
  it('puts each send after the events of its time or earlier, keeping the events in their order', () => {
    const events = [ev('queued', t(1)), ev('delivered', t(2)), ev('reply_sent', t(5))];
    expect(order(timelineRows(events, [sent(1, t(2)), sent(2, t(3))]))).toEqual([
      'queued',
      'delivered',
      'audit 1',
      'audit 2',
      'reply_sent',
    ]);
  });

  it('a send after the last event (or with no events) comes last; none leaves the events alone', () => {
    expect(order(timelineRows([ev('queued', t(1))], [sent(1, t(4))]))).toEqual(['queued', 'audit 1']);
    expect(order(timelineRows([], [sent(1, t(4))]))).toEqual(['audit 1']);
    expect(order(timelineRows([ev('queued', t(1))], []))).toEqual(['queued']);
  });
});
