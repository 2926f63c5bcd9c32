import { describe, expect, it } from 'vitest';
import { COPY_KEYS, copy } from '../../../../../renderer/src/i18n/copy.js';

const SETTINGS_COPY_KEYS = COPY_KEYS.filter((k) => k.startsWith('settings.'));

describe('Settings copy', () => {
  it('has every key in both languages, with the same placeholders', () => {
    expect(SETTINGS_COPY_KEYS.length).toBeGreaterThan(0);
    for (const key of SETTINGS_COPY_KEYS) {
      const en = copy('en', key);
      const zh = copy('zh-CN', key);
      expect(zh, key).toBeTruthy();
      expect([...zh.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), key).toEqual(
        [...en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
      );
    }
  });

  it('says "delivery channel", never a bare "channel" that reads like a conversation (issue 17)', () => {
    expect(copy('en', 'settings.channel')).toBe('Delivery channel');
    expect(copy('zh-CN', 'settings.channel')).toBe('投递渠道');
    // 频道 is what the sidebar calls a conversation.
    for (const key of SETTINGS_COPY_KEYS) expect(copy('zh-CN', key), key).not.toContain('频道');
  });

  it('offers no visible-reply toggle wording (contract §7.3)', () => {
    for (const key of SETTINGS_COPY_KEYS)
      for (const lang of ['en', 'zh-CN'] as const)
        expect(copy(lang, key)).not.toMatch(/visible.?reply|force (a )?reply|可见回复|强制回复/i);
  });
});
