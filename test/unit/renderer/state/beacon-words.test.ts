/** issue 24: the local channel's own silence-watchdog words reach the status area; the defaults are said in the UI language. */
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import { customBeaconText } from '../../../../renderer/src/state/settings.js';

const settingsWith = (local: Record<string, unknown>, telegram?: Record<string, unknown>): Settings => ({
  language: 'en',
  channels: {
    local: ChannelSettingsSchema.parse({ silenceWatchdog: local }),
    ...(telegram === undefined ? {} : { telegram: ChannelSettingsSchema.parse({ silenceWatchdog: telegram }) }),
  },
});

describe('customBeaconText', () => {
  it("is the local channel's message / escalationMessage when the person set them", () => {
    const s = settingsWith({ message: '⏳ On it', escalationMessage: 'Still going, sorry' });
    expect(customBeaconText(s, 'message')).toBe('⏳ On it');
    expect(customBeaconText(s, 'escalationMessage')).toBe('Still going, sorry');
  });

  it('is null for the defaults, before settings are known, and for another channel’s words', () => {
    expect(customBeaconText(settingsWith({}), 'message')).toBeNull();
    expect(customBeaconText(settingsWith({ message: '🧠 Working…' }), 'message')).toBeNull();
    expect(customBeaconText(null, 'escalationMessage')).toBeNull();
    // Telegram's beacons are its chat's; the local chips show the local watchdog's.
    expect(customBeaconText(settingsWith({}, { message: 'tg words' }), 'message')).toBeNull();
  });
});
