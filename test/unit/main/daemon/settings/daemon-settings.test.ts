import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../../../shared/api/contract.js';
import { ApiError } from '../../../../../shared/api/contract.js';
import { ChannelSettingsSchema, ConfigSchema } from '../../../../../shared/config.js';
import { DaemonSettings, mergeSettings } from '../../../../../main/daemon/settings/daemon-settings.js';

const config = ConfigSchema.parse({
  agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }],
  channels: { local: { silenceWatchdog: { thresholdSeconds: 30 } }, team: {} },
});

describe('daemon settings', () => {
  it('merges: saved channels over agentteam.json over the defaults; language defaults to en', () => {
    const merged = mergeSettings(config, undefined);
    expect(merged.language).toBe('en');
    expect(merged.channels.local?.silenceWatchdog.thresholdSeconds).toBe(30);
    expect(Object.keys(merged.channels)).toEqual(['local', 'team']);
    const saved: Partial<Settings> = { language: 'zh-CN', channels: { local: ChannelSettingsSchema.parse({}) } };
    const over = mergeSettings(config, saved);
    expect(over.language).toBe('zh-CN');
    expect(over.channels.local?.silenceWatchdog.thresholdSeconds).toBe(45);
  });

  it('a channel nobody configured gets the schema defaults', () => {
    const settings = new DaemonSettings(config);
    expect(settings.channel('elsewhere')).toEqual(ChannelSettingsSchema.parse({}));
    expect(settings.channel('local').silenceWatchdog.thresholdSeconds).toBe(30);
  });

  it('update applies the patch, saves it through the port and is what current returns', () => {
    const saves: Settings[] = [];
    const settings = new DaemonSettings(config, { load: () => undefined, save: (s) => saves.push(s) });
    const next = settings.update({
      language: 'zh-CN',
      channel: 'team',
      settings: { silenceWatchdog: { thresholdSeconds: 10 } },
    });
    expect(next.language).toBe('zh-CN');
    expect(settings.channel('team').silenceWatchdog.thresholdSeconds).toBe(10);
    expect(settings.current).toBe(next);
    expect(saves).toEqual([next]);
    expect(() => settings.update({ channel: 'team' })).toThrow(ApiError);
    expect(saves).toHaveLength(1);
  });
});
