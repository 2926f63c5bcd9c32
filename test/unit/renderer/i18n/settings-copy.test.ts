import { describe, expect, it } from 'vitest';
import { SETTINGS_COPY_KEYS, settingsCopy } from '../../../../renderer/src/i18n/settings-copy.js';

describe('Settings copy', () => {
  it('has every key in both languages, with the same placeholders', () => {
    for (const key of SETTINGS_COPY_KEYS) {
      const en = settingsCopy('en', key);
      const zh = settingsCopy('zh-CN', key);
      expect(zh, key).toBeTruthy();
      expect([...zh.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), key).toEqual(
        [...en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
      );
    }
  });

  it('says "delivery channel", never a bare "channel" that reads like a conversation (issue 17)', () => {
    expect(settingsCopy('en', 'settings.channel')).toBe('Delivery channel');
    expect(settingsCopy('zh-CN', 'settings.channel')).toBe('投递渠道');
    // 频道 is what the sidebar calls a conversation.
    for (const key of SETTINGS_COPY_KEYS) expect(settingsCopy('zh-CN', key), key).not.toContain('频道');
  });

  it('offers no visible-reply toggle wording (contract §7.3)', () => {
    for (const key of SETTINGS_COPY_KEYS)
      for (const lang of ['en', 'zh-CN'] as const)
        expect(settingsCopy(lang, key)).not.toMatch(/visible.?reply|force (a )?reply|可见回复|强制回复/i);
  });
});
