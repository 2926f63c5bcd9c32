/** issue 15: a refused message_send on a wake's timeline reads in plain words (en + zh-CN), not a bare "Notice". */
import { describe, expect, it } from 'vitest';
import type { WakeEvent } from '../../../../shared/api/contract.js';
import { timelineLine } from '../../../../renderer/src/status/timeline-copy.js';

const event = (detail: string): WakeEvent => ({
  wakeToken: 'wk_1',
  kind: 'alert',
  status: null,
  reason: 'rate_limited',
  detail,
  at: '2026-01-01T00:00:00.000Z',
});

describe('timelineLine for a refused send (issue 15)', () => {
  it('names the refusal in both languages', () => {
    const e = event("message_send refused: rate_limited: the agent's message_send was refused");
    expect(timelineLine(e, 'Demo', 'en')).toEqual({
      label: 'Notice',
      note: "AgentTeam refused this agent's message: its per-minute message limit was reached.",
    });
    expect(timelineLine(e, 'Demo', 'zh-CN').note).toMatch(/频率限制/);
    expect(timelineLine(event('message_send refused: out_of_scope: x'), 'Demo', 'en').note).toMatch(/not handling/);
  });

  it('an alert that names neither an alert kind nor a refusal has no note', () => {
    expect(timelineLine(event('something else'), 'Demo', 'en').note).toBeNull();
  });
});
