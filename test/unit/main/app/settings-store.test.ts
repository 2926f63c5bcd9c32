import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { createFakeDaemon, createRecordingLog } from '../../../fixtures/daemon-fake.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import {
  defaultSettings,
  dropLegacyVisibleReplyToggles,
  openSettingsStore,
  settingsHandlers,
} from '../../../../main/app/settings-store.js';

describe('settings store (electron-store + the shared zod schema)', () => {
  let dir: string;
  let log: ReturnType<typeof createRecordingLog>;
  const file = () => join(dir, 'settings.json');
  const readFile = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;

  beforeEach(() => {
    fake.resetElectronFake();
    dir = mkdtempSync(join(tmpdir(), 'settings-'));
    fake.app.setPath('userData', join(dir, 'user-data'));
    log = createRecordingLog();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from the defaults: English, the local channel with the watchdog spec defaults', () => {
    const store = openSettingsStore({ dataDir: dir, log });
    expect(store.path).toBe(file());
    const settings = store.get();
    expect(settings.language).toBe('en');
    expect(settings.channels.local?.silenceWatchdog).toMatchObject({
      enabled: true,
      thresholdSeconds: 45,
      maxBeacons: 5,
      message: '🧠 Working…',
    });
    expect(settings.channels.local?.responseDelivery).toMatchObject({
      retryCount: 1,
      retryDelayMs: 3000,
      preserveUndelivered: true,
    });
  });

  it('the migration drops legacy visible-reply toggles from an existing file (contract §7) and keeps the rest', () => {
    writeFileSync(
      file(),
      JSON.stringify({
        language: 'zh-CN',
        visibleReplyContract: { enabled: false },
        visible_reply_contract_enabled: false,
        channels: {
          local: {
            visibleReplyContractEnabled: false,
            silenceWatchdog: { thresholdSeconds: 30, visibleReplyContract: { enabled: false } },
          },
        },
      }),
    );
    const store = openSettingsStore({ dataDir: dir, log });
    const onDisk = JSON.stringify(readFile());
    expect(onDisk).not.toMatch(/visible_?[rR]eply/);
    expect(store.get().language).toBe('zh-CN');
    // Channel settings are the daemon's to move into agentteam.json (issue 17): handed over through the port.
    expect(store.port().load()).toMatchObject({ channels: { local: { silenceWatchdog: { thresholdSeconds: 30 } } } });
    const migrated = log.lines.find(([, msg]) => msg.includes('legacy visible-reply'));
    expect(migrated?.[2]?.paths).toEqual([
      'visibleReplyContract',
      'visible_reply_contract_enabled',
      'channels.local.visibleReplyContractEnabled',
      'channels.local.silenceWatchdog.visibleReplyContract',
    ]);
  });

  it('an unknown language falls back to English with a warning and leaves the file alone', () => {
    const bad = { language: 'klingon' };
    writeFileSync(file(), JSON.stringify(bad));
    const store = openSettingsStore({ dataDir: dir, log });
    expect(store.get()).toEqual(defaultSettings());
    expect(readFile()).toMatchObject(bad);
    expect(log.lines.find(([level]) => level === 'warn')?.[1]).toMatch(/language/);
  });

  it('a file that is not JSON is moved aside, never deleted', () => {
    writeFileSync(file(), '{ not json');
    const store = openSettingsStore({ dataDir: dir, log });
    expect(store.get()).toEqual(defaultSettings());
    const aside = readdirSync(dir).find((f) => f.startsWith('settings.json.invalid-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(dir, aside!), 'utf8')).toBe('{ not json');
  });

  it('with a daemon, the daemon answers every settings call (it keeps the language through the port)', async () => {
    const daemon = createFakeDaemon();
    const store = openSettingsStore({ dataDir: dir, log });
    const handlers = settingsHandlers(store, daemon.api);
    await handlers['settings.update']({ language: 'zh-CN' });
    expect(daemon.calls.map(([name]) => name)).toEqual(['settings.update']);
    store.port().save({ language: 'zh-CN' });
    expect(openSettingsStore({ dataDir: dir, log }).get().language).toBe('zh-CN');
  });

  it('without a daemon the store answers alone: the language can change, channel settings cannot', async () => {
    const handlers = settingsHandlers(openSettingsStore({ dataDir: dir, log }), null);
    expect((await handlers['settings.update']({ language: 'zh-CN' })).language).toBe('zh-CN');
    expect((await handlers['settings.get']({})).language).toBe('zh-CN');
    await expect(
      handlers['settings.update']({ channel: 'local', settings: ChannelSettingsSchema.parse({}) }),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('the legacy channel block leaves the file once handed over; a copy is kept next to it', () => {
    writeFileSync(file(), JSON.stringify({ language: 'en', channels: { local: {} } }));
    const port = openSettingsStore({ dataDir: dir, log }).port();
    expect(port.dropLegacyChannels()).toBe(join(dir, 'settings.legacy-channels.json'));
    expect(readFile()).not.toHaveProperty('channels');
    expect(JSON.parse(readFileSync(join(dir, 'settings.legacy-channels.json'), 'utf8'))).toEqual({
      channels: { local: {} },
    });
    expect(port.dropLegacyChannels()).toBeNull();
  });

  it('dropLegacyVisibleReplyToggles leaves clean settings untouched', () => {
    const clean = { language: 'en', channels: { local: ChannelSettingsSchema.parse({}) } };
    expect(dropLegacyVisibleReplyToggles(clean)).toEqual({ value: clean, dropped: [] });
  });
});
