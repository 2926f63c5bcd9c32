import { describe, expect, it } from 'vitest';
import { approvalStatusText } from '../../../../renderer/src/status/approval-status-text.js';

describe('approvalStatusText (issue 14)', () => {
  it('says the status in plain words; an allow says for how long', () => {
    expect(approvalStatusText('pending', null, 'en')).toBe('Waiting for your approval');
    expect(approvalStatusText('pending', null, 'zh-CN')).toBe('等待你的批准');
    expect(approvalStatusText('allowed', 'once', 'en')).toBe('Allowed · once');
    expect(approvalStatusText('allowed', 'always', 'zh-CN')).toBe('已允许 · 始终（已保存规则）');
    expect(approvalStatusText('denied', 'once', 'en')).toBe('Denied');
    expect(approvalStatusText('expired', null, 'en')).toBe('Expired — answered as denied');
    expect(approvalStatusText('cancelled', null, 'zh-CN')).toBe('已取消');
  });
});
