import { describe, expect, it } from 'vitest';
import { COPY_KEYS, copy } from '../../../../../renderer/src/i18n/copy.js';

const SEARCH_COPY_KEYS = COPY_KEYS.filter((k) => k.startsWith('search.'));

describe('search copy (issue 17)', () => {
  it('has every key in English and 简体中文, with the same placeholders', () => {
    expect(SEARCH_COPY_KEYS.length).toBeGreaterThan(0);
    for (const key of SEARCH_COPY_KEYS) {
      const en = copy('en', key);
      const zh = copy('zh-CN', key);
      expect(zh, key).not.toBe('');
      expect(zh.match(/\{\w+\}/g)?.sort() ?? [], key).toEqual(en.match(/\{\w+\}/g)?.sort() ?? []);
    }
    expect(copy('zh-CN', 'search.count', { count: 3 })).toBe('3 条结果');
  });
});
