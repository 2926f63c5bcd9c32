import { describe, expect, it } from 'vitest';
import { APPROVAL_COPY_KEYS, approvalCopy, approvalStatusText } from '../../../../renderer/src/i18n/approval-copy.js';

describe('approval copy of the inspector (issue 14)', () => {
  it('has every key in English and 简体中文, with the same placeholders', () => {
    for (const key of APPROVAL_COPY_KEYS) {
      const en = approvalCopy('en', key);
      const zh = approvalCopy('zh-CN', key);
      expect(zh, key).not.toBe('');
      expect(zh.match(/\{\w+\}/g)?.sort() ?? [], key).toEqual(en.match(/\{\w+\}/g)?.sort() ?? []);
    }
  });

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
