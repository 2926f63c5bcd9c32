/**
 * `channels.telegram` (DESIGN.md "Telegram channel"): its shape, the bindings' rules (a chat and
 * a conversation bound once each, a valid target), the 4096-character split, and that the
 * channel's own keys (the token) never travel with its watchdog/delivery settings.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../../../../../fixtures/temp-dir.js';
import { ConfigSchema, channelSettings } from '../../../../../../shared/config.js';
import { DaemonSettings } from '../../../../../../main/daemon/settings/daemon-settings.js';
import { ConfigSource } from '../../../../../../main/daemon/config/config-source.js';
import { splitForTelegram } from '../../../../../../main/daemon/channels/telegram/telegram-text.js';

const TOKEN = '123456:SECRET-token-value';

describe('channels.telegram config', () => {
  it('accepts the documented shape with defaults; other channels keep their settings shape', () => {
    const config = ConfigSchema.parse({
      channels: {
        local: { silenceWatchdog: { thresholdSeconds: 30 } },
        telegram: {
          botTokenEnv: 'TELEGRAM_BOT_TOKEN',
          bindings: [{ chatId: -1001, target: '#general', allowFrom: [42] }],
          silenceWatchdog: { thresholdSeconds: 60 },
        },
      },
    });
    expect(config.channels.telegram).toMatchObject({
      apiRoot: 'https://api.telegram.org',
      bindings: [{ chatId: -1001, target: '#general', allowFrom: [42] }],
      silenceWatchdog: { thresholdSeconds: 60, maxBeacons: 5 },
      responseDelivery: { retryCount: 1, retryDelayMs: 3000 },
    });
    expect(channelSettings(config, 'local').silenceWatchdog.thresholdSeconds).toBe(30);
  });

  it.each([
    [
      { bindings: [{ chatId: 1, target: 'general', allowFrom: [] }] },
      ['channels', 'telegram', 'bindings', 0, 'target'],
    ],
    [
      {
        bindings: [
          { chatId: 1, target: '#a', allowFrom: [] },
          { chatId: 1, target: '#b', allowFrom: [] },
        ],
      },
      ['channels', 'telegram', 'bindings', 1, 'chatId'],
    ],
    [
      {
        bindings: [
          { chatId: 1, target: '#a', allowFrom: [] },
          { chatId: 2, target: '#a', allowFrom: [] },
        ],
      },
      ['channels', 'telegram', 'bindings', 1, 'target'],
    ],
    [{ apiRoot: 'http://127.0.0.1:8081/' }, ['channels', 'telegram', 'apiRoot']],
    [{ botTokenEnv: 'not a name' }, ['channels', 'telegram', 'botTokenEnv']],
    [{ token: TOKEN }, ['channels', 'telegram']],
  ])('refuses %j at the bad path', (telegram, path) => {
    const r = ConfigSchema.safeParse({ channels: { telegram } }, { reportInput: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path)).toContainEqual(path);
    expect(JSON.stringify(r.error?.issues.map((i) => i.message))).not.toContain(TOKEN);
  });

  it("the token never travels with the channel's settings (settings.get)", () => {
    const dir = makeTempDir();
    writeFileSync(
      join(dir.path, 'agentteam.json'),
      JSON.stringify({ channels: { telegram: { botToken: TOKEN, bindings: [] } } }),
      { mode: 0o600 },
    );
    const source = ConfigSource.open(dir.path);
    const daemonSettings = new DaemonSettings({ source, channels: ['local', 'telegram'] });
    const settings = daemonSettings.current;
    daemonSettings.dispose();
    source.close();
    dir.remove();
    expect(Object.keys(settings.channels).sort()).toEqual(['local', 'telegram']);
    expect(Object.keys(settings.channels.telegram ?? {}).sort()).toEqual(['responseDelivery', 'silenceWatchdog']);
    expect(JSON.stringify(settings)).not.toContain(TOKEN);
  });
});

describe('splitForTelegram', () => {
  it('keeps a short text whole and splits a long one at a line break, never inside a surrogate pair', () => {
    expect(splitForTelegram('hi')).toEqual(['hi']);
    const lines = `${'x'.repeat(3000)}\n${'y'.repeat(3000)}`;
    expect(splitForTelegram(lines).map((c) => c.length)).toEqual([3001, 3000]);
    const emoji = '😀'.repeat(3000);
    const chunks = splitForTelegram(emoji);
    expect(chunks.join('')).toBe(emoji);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(4096);
      expect(/^[\uDC00-\uDFFF]/.test(c) || /[\uD800-\uDBFF]$/.test(c)).toBe(false);
    }
  });

  it('an unbroken text splits at exactly the limit', () => {
    expect(splitForTelegram('z'.repeat(10_000)).map((c) => c.length)).toEqual([4096, 4096, 1808]);
  });
});
