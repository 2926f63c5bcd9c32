import { describe, expect, it } from 'vitest';
import { SEARCH_COPY_KEYS, searchCopy } from '../../../../renderer/src/i18n/search-copy.js';

describe('search copy (issue 17)', () => {
  it('has every key in English and 简体中文, with the same placeholders', () => {
    for (const key of SEARCH_COPY_KEYS) {
      const en = searchCopy('en', key);
      const zh = searchCopy('zh-CN', key);
      expect(zh, key).not.toBe('');
      expect(zh.match(/\{\w+\}/g)?.sort() ?? [], key).toEqual(en.match(/\{\w+\}/g)?.sort() ?? []);
    }
    expect(searchCopy('zh-CN', 'search.count', { count: 3 })).toBe('3 条结果');
  });
});
