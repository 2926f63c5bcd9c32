import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { createFakeDaemon, createRecordingLog } from '../../../fixtures/daemon-fake.js';
import { ApiError } from '../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import {
  applySettingsUpdate,
  defaultSettings,
  dropLegacyVisibleReplyToggles,
  openSettingsStore,
  settingsHandlers,
  syncSettingsWithDaemon,
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
    expect(store.get().channels.local?.silenceWatchdog.thresholdSeconds).toBe(30);
    const migrated = log.lines.find(([, msg]) => msg.includes('legacy visible-reply'));
    expect(migrated?.[2]?.paths).toEqual([
      'visibleReplyContract',
      'visible_reply_contract_enabled',
      'channels.local.visibleReplyContractEnabled',
      'channels.local.silenceWatchdog.visibleReplyContract',
    ]);
  });

  it('an invalid entry falls back to the defaults, names the path, and leaves the file alone', () => {
    const bad = { language: 'klingon', channels: { local: { silenceWatchdog: { thresholdSeconds: -1 } } } };
    writeFileSync(file(), JSON.stringify(bad));
    const store = openSettingsStore({ dataDir: dir, log });
    expect(store.get()).toEqual(defaultSettings());
    expect(readFile()).toMatchObject(bad);
    expect(log.lines.find(([level]) => level === 'warn')?.[2]?.paths).toMatch(/language/);
  });

  it('a file that is not JSON is moved aside, never deleted', () => {
    writeFileSync(file(), '{ not json');
    const store = openSettingsStore({ dataDir: dir, log });
    expect(store.get()).toEqual(defaultSettings());
    const aside = readdirSync(dir).find((f) => f.startsWith('settings.json.invalid-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(dir, aside!), 'utf8')).toBe('{ not json');
  });

  it('settings.update applies to the daemon, then persists what is in effect; the next open reads it back', async () => {
    const daemon = createFakeDaemon();
    const store = openSettingsStore({ dataDir: dir, log });
    const handlers = settingsHandlers(store, daemon.api);
    const channel = ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 20 } });
    const next = await handlers['settings.update']({ language: 'zh-CN', channel: 'local', settings: channel });
    expect(next.language).toBe('zh-CN');
    expect(daemon.calls.map(([name]) => name)).toEqual(['settings.update']);
    expect(openSettingsStore({ dataDir: dir, log }).get().channels.local?.silenceWatchdog.thresholdSeconds).toBe(20);
    expect(await handlers['settings.get']({})).toEqual(next);
  });

  it('a daemon refusal persists nothing', async () => {
    const store = openSettingsStore({ dataDir: dir, log });
    const daemon = createFakeDaemon();
    daemon.api['settings.update'] = async () => {
      throw new ApiError('unavailable', 'daemon is stopping');
    };
    await expect(settingsHandlers(store, daemon.api)['settings.update']({ language: 'zh-CN' })).rejects.toThrow(
      'daemon is stopping',
    );
    expect(store.get().language).toBe('en');
    expect(store.hasSaved()).toBe(false);
  });

  it('without a daemon the store answers alone', async () => {
    const handlers = settingsHandlers(openSettingsStore({ dataDir: dir, log }), null);
    expect((await handlers['settings.update']({ language: 'zh-CN' })).language).toBe('zh-CN');
    expect((await handlers['settings.get']({})).language).toBe('zh-CN');
  });

  it('first run: the store is seeded with the daemon view; later runs re-apply saved settings to the daemon', async () => {
    const first = createFakeDaemon();
    await first.api['settings.update']({
      channel: 'local',
      settings: ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 12 } }),
    });
    const store = openSettingsStore({ dataDir: dir, log });
    await syncSettingsWithDaemon(store, first.api, log);
    expect(store.get().channels.local?.silenceWatchdog.thresholdSeconds).toBe(12);

    await settingsHandlers(store, first.api)['settings.update']({ language: 'zh-CN' });
    const restarted = createFakeDaemon();
    await syncSettingsWithDaemon(openSettingsStore({ dataDir: dir, log }), restarted.api, log);
    const effective = await restarted.api['settings.get']({});
    expect(effective.language).toBe('zh-CN');
    expect(effective.channels.local?.silenceWatchdog.thresholdSeconds).toBe(12);
  });

  it('applySettingsUpdate refuses channel settings without their channel', () => {
    expect(() => applySettingsUpdate(defaultSettings(), { settings: ChannelSettingsSchema.parse({}) })).toThrow(
      ApiError,
    );
  });

  it('dropLegacyVisibleReplyToggles leaves clean settings untouched', () => {
    const clean = { language: 'en', channels: { local: ChannelSettingsSchema.parse({}) } };
    expect(dropLegacyVisibleReplyToggles(clean)).toEqual({ value: clean, dropped: [] });
  });
});
