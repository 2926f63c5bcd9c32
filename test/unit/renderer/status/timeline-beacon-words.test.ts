/** issue 24: a beacon or escalation the channel said in its own words shows them on the inspector's row; the defaults need no note. */
import { describe, expect, it } from 'vitest';
import type { WakeEvent } from '../../../../shared/api/contract.js';
import { timelineLine } from '../../../../renderer/src/status/timeline-copy.js';

const event = (kind: WakeEvent['kind'], detail: string | null): WakeEvent => ({
  wakeToken: 'wk_1',
  kind,
  status: null,
  reason: null,
  detail,
  at: '2026-01-01T00:00:00.000Z',
});

describe('timelineLine for beacons (issue 24)', () => {
  it("names the channel's own words, as they were shown", () => {
    expect(timelineLine(event('beacon', '⏳ Crunching the numbers… 45s'), 'Demo', 'zh-CN')).toEqual({
      label: '仍在处理，已显示状态',
      note: '⏳ Crunching the numbers… 45s',
    });
    expect(timelineLine(event('escalation', 'Still going, sorry'), 'Demo', 'en')).toEqual({
      label: 'Extended processing',
      note: 'Still going, sorry',
    });
  });

  it('the default words are the label already: no note', () => {
    expect(timelineLine(event('beacon', '🧠 Working… 45s'), 'Demo', 'en').note).toBeNull();
    expect(
      timelineLine(
        event('escalation', '⚠️ Extended processing — still working. Response may be delayed.'),
        'Demo',
        'en',
      ).note,
    ).toBeNull();
    expect(timelineLine(event('beacon', null), 'Demo', 'en').note).toBeNull();
  });
});
