/**
 * issue 24: a native compaction reads "Context compacted — still working" on the wake's timeline
 * (en + zh-CN), and an overflow's original says in a note that a recovery continues the work; a
 * `failed` wake with the same reason gets no such note (its failure details say why).
 */
import { describe, expect, it } from 'vitest';
import { COMPACTED_AFTER_OVERFLOW, OVERFLOW_RENEWAL_PREFIX, type WakeEvent } from '../../../../shared/api/contract.js';
import { timelineLine } from '../../../../renderer/src/status/timeline-copy.js';

const event = (over: Partial<WakeEvent>): WakeEvent => ({
  wakeToken: 'wk_1',
  kind: 'status',
  status: null,
  reason: null,
  detail: null,
  at: '2026-12-02T06:00:00.000Z',
  ...over,
});

describe('timelineLine: compaction and context overflow (issue 24)', () => {
  it('a compaction is its own line, in both languages, with no note', () => {
    const compaction = event({ kind: 'compaction' });
    expect(timelineLine(compaction, 'Claude', 'en')).toEqual({
      label: 'Context compacted — still working',
      note: null,
    });
    expect(timelineLine(compaction, 'Claude', 'zh-CN')).toEqual({ label: '上下文已压缩，仍在处理', note: null });
  });

  it('an overflow original ends without a reply with a note that its recovery continues; a failure gets none', () => {
    const ended = event({
      status: 'completed_without_visible_reply',
      reason: 'context_overflow',
      detail: 'context_overflow',
    });
    expect(timelineLine(ended, 'Claude', 'en').note).toBe('Its context window was full; a recovery continues the work');
    expect(timelineLine(ended, 'Claude', 'zh-CN').note).toBe('上下文窗口已满，由恢复继续处理');
    expect(
      timelineLine(event({ status: 'completed_without_visible_reply', reason: 'no_reply' }), 'Claude', 'en').note,
    ).toBeNull();
    expect(timelineLine(event({ status: 'failed', reason: 'context_overflow' }), 'Claude', 'en').note).toBeNull();
  });

  it('issue 38: a compaction after an overflow and an overflow sent to a fresh session say so, in both languages', () => {
    const compacted = event({ kind: 'compaction', detail: COMPACTED_AFTER_OVERFLOW });
    expect(timelineLine(compacted, 'Claude', 'en')).toEqual({
      label: 'Context compacted — still working',
      note: 'after its context window overflowed, in the same session',
    });
    expect(timelineLine(compacted, 'Claude', 'zh-CN').note).toBe('上下文窗口超限后，在同一会话中');
    const renewed = event({
      kind: 'alert',
      detail: `${OVERFLOW_RENEWAL_PREFIX} and the compaction failed (too_few_groups); the agent continues in a fresh session`,
    });
    expect(timelineLine(renewed, 'Claude', 'en').note).toBe(
      'Its context window overflowed and could not be compacted: a fresh session continues',
    );
    expect(timelineLine(renewed, 'Claude', 'zh-CN').note).toBe('上下文窗口超限且无法压缩：由新会话继续');
  });
});
