/** issue 24: the §10.1 fields of a wake as the API shows them (main/daemon/api/api-mappers.ts). */
import { describe, expect, it } from 'vitest';
import { toWake } from '../../../../../main/daemon/api/api-mappers.js';
import type { WakeRecord } from '../../../../../main/daemon/store/index.js';
import { targetKey } from '../../../../../shared/target.js';

const record = (over: Partial<WakeRecord> = {}): WakeRecord => ({
  wakeToken: 'wk_1',
  messageId: 'msg_1',
  agentId: 'claude',
  agentName: 'claude',
  agentDisplayName: 'Claude (then)',
  runtime: 'claude-code',
  model: 'claude-sonnet-4-5',
  target: targetKey('#general'),
  targetSeq: 1,
  deliveryClass: 'visible_reply',
  status: 'queued',
  reason: null,
  detail: null,
  beacons: 0,
  escalated: false,
  lastBeaconAt: null,
  finalCheck: false,
  createdAt: '2026-03-02T09:05:00.000Z',
  updatedAt: '2026-03-02T09:05:00.000Z',
  endedAt: null,
  recoveries: 0,
  ...over,
});

describe('toWake', () => {
  it('shows the names and model the daemon resolved when it accepted the wake, not the ones of now', () => {
    expect(toWake(record(), 'Claude (now)')).toMatchObject({
      agentId: 'claude',
      agentName: 'Claude (then)',
      agentTechnicalName: 'claude',
      model: 'claude-sonnet-4-5',
    });
  });

  it('a wake journaled before the names were (an older store) shows the display name of now and its id', () => {
    expect(toWake(record({ agentName: null, agentDisplayName: null, model: null }), 'Claude (now)')).toMatchObject({
      agentName: 'Claude (now)',
      agentTechnicalName: 'claude',
      model: null,
    });
  });
});
