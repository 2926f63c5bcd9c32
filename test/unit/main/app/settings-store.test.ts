import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { createRecordingLog } from '../../../fixtures/daemon-fake.js';
import { ApiError } from '../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import { applySettingsUpdate, defaultSettings, dropLegacyVisibleReplyToggles, openSettingsStore, settingsHandlers } from '../../../../main/app/settings-store.js';

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
    expect(settings.channels.local?.silenceWatchdog).toMatchObject({ enabled: true, thresholdSeconds: 45, maxBeacons: 5, message: '🧠 Working…' });
    expect(settings.channels.local?.responseDelivery).toMatchObject({ retryCount: 1, retryDelayMs: 3000, preserveUndelivered: true });
  });

  it('the migration drops legacy visible-reply toggles from an existing file (contract §7) and keeps the rest', () => {
    writeFileSync(
      file(),
      JSON.stringify({
        language: 'zh-CN',
        visibleReplyContract: { enabled: false },
        visible_reply_contract_enabled: false,
        channels: { local: { visibleReplyContractEnabled: false, silenceWatchdog: { thresholdSeconds: 30, visibleReplyContract: { enabled: false } } } },
      }),
    );
    const store = openSettingsStore({ dataDir: dir, log });
    const onDisk = JSON.stringify(readFile());
    expect(onDisk).not.toMatch(/visible_?[rR]eply/);
    expect(store.get().language).toBe('zh-CN');
    expect(store.get().channels.local?.silenceWatchdog.thresholdSeconds).toBe(30);
    const migrated = log.lines.find(([, msg]) => msg.includes('legacy visible-reply'));
    expect(migrated?.[2]?.paths).toEqual(['visibleReplyContract', 'visible_reply_contract_enabled', 'channels.local.visibleReplyContractEnabled', 'channels.local.silenceWatchdog.visibleReplyContract']);
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

  it('settings.update applies to the daemon, then persists; the next open reads it back', async () => {
    const store = openSettingsStore({ dataDir: dir, log });
    const applied: unknown[] = [];
    const handlers = settingsHandlers(store, async (update) => {
      applied.push(update);
      return store.get();
    });
    const channel = ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 20 } });
    const next = await handlers['settings.update']({ language: 'zh-CN', channel: 'local', settings: channel });
    expect(next.language).toBe('zh-CN');
    expect(applied).toHaveLength(1);
    expect(openSettingsStore({ dataDir: dir, log }).get().channels.local?.silenceWatchdog.thresholdSeconds).toBe(20);
    expect(await handlers['settings.get']({})).toEqual(next);
  });

  it('a daemon refusal persists nothing', async () => {
    const store = openSettingsStore({ dataDir: dir, log });
    const handlers = settingsHandlers(store, async () => {
      throw new ApiError('unavailable', 'daemon is stopping');
    });
    await expect(handlers['settings.update']({ language: 'zh-CN' })).rejects.toThrow('daemon is stopping');
    expect(store.get().language).toBe('en');
    expect(existsSync(file()) ? JSON.stringify(readFile()) : '').not.toContain('zh-CN');
  });

  it('applySettingsUpdate refuses channel settings without their channel', () => {
    expect(() => applySettingsUpdate(defaultSettings(), { settings: ChannelSettingsSchema.parse({}) })).toThrow(ApiError);
  });

  it('dropLegacyVisibleReplyToggles leaves clean settings untouched', () => {
    const clean = { language: 'en', channels: { local: ChannelSettingsSchema.parse({}) } };
    expect(dropLegacyVisibleReplyToggles(clean)).toEqual({ value: clean, dropped: [] });
  });
});
