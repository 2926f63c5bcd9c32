import { describe, expect, it } from 'vitest';
import { COPY_KEYS, copy, copyTables } from '../../../../renderer/src/i18n/copy.js';

describe('UI copy', () => {
  it('has every key in both languages, with the same placeholders', () => {
    for (const key of COPY_KEYS) {
      const en = copyTables.en[key];
      const zh = copyTables['zh-CN'][key];
      expect(zh, key).toBeTruthy();
      expect([...zh.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), key).toEqual(
        [...en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
      );
    }
  });

  it('fills placeholders', () => {
    expect(copy('en', 'composer.placeholder', { target: '#general' })).toBe('Message #general — @ to mention');
    expect(copy('zh-CN', 'composer.placeholder', { target: '#general' })).toBe('发送到 #general — 输入 @ 提及');
  });

  it('offers no visible-reply toggle or wording that the contract can be switched off (contract §7.3)', () => {
    for (const table of Object.values(copyTables)) {
      for (const text of Object.values(table))
        expect(text).not.toMatch(/visible.?reply|force (a )?reply|可见回复|强制回复/i);
    }
  });
});
