/**
 * Settings of the app (DESIGN.md "Storage": small and human-edited), kept in electron-store at
 * `<data-dir>/settings.json` — the file format `conf` reads in `agentteam serve`. The shared
 * zod schema (`SettingsSchema`, `ChannelSettingsSchema`) is the only judge of what is valid.
 * A migration drops legacy visible-reply toggles: the contract is always on (contract §7, §7.3).
 */
import Store from 'electron-store';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { apiCalls } from '../../shared/api/contract.js';
import { ApiError, SettingsSchema, type ApiHandlers, type Settings } from '../../shared/api/contract.js';
import { ChannelSettingsSchema, LOCAL_CHANNEL } from '../../shared/config.js';
import type { DaemonLog } from '../daemon/index.js';

export const SETTINGS_FILE_NAME = 'settings';

/** Keys an older build or a hand edit may carry; none has an effect any more (contract §7). */
export const LEGACY_VISIBLE_REPLY_KEYS = [
  'visibleReplyContract',
  'visibleReplyContractEnabled',
  'visible_reply_contract_enabled',
] as const;

export type SettingsUpdate = z.infer<(typeof apiCalls)['settings.update']['request']>;

export function defaultSettings(): Settings {
  return { language: 'en', channels: { [LOCAL_CHANNEL]: ChannelSettingsSchema.parse({}) } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The migration, pure: a copy of `raw` without legacy visible-reply toggles at the top level,
 * per channel and per channel section, plus the JSON paths it dropped.
 */
export function dropLegacyVisibleReplyToggles(raw: Record<string, unknown>): {
  value: Record<string, unknown>;
  dropped: string[];
} {
  const dropped: string[] = [];
  const strip = (obj: Record<string, unknown>, path: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(obj)) {
      if ((LEGACY_VISIBLE_REPLY_KEYS as readonly string[]).includes(key)) dropped.push(`${path}${key}`);
      else out[key] = v;
    }
    return out;
  };
  const value = strip(raw, '');
  if (isRecord(value.channels)) {
    const channels: Record<string, unknown> = {};
    for (const [name, channel] of Object.entries(value.channels)) {
      if (!isRecord(channel)) {
        channels[name] = channel;
        continue;
      }
      const c = strip(channel, `channels.${name}.`);
      for (const section of ['silenceWatchdog', 'responseDelivery']) {
        if (isRecord(c[section])) c[section] = strip(c[section], `channels.${name}.${section}.`);
      }
      channels[name] = c;
    }
    value.channels = channels;
  }
  return { value, dropped };
}

/** `settings.update` applied to `current`, pure. Unknown channels start from the defaults. */
export function applySettingsUpdate(current: Settings, update: SettingsUpdate): Settings {
  if (update.settings !== undefined && update.channel === undefined) {
    throw new ApiError('invalid_request', 'settings.update: "settings" needs the "channel" it applies to.');
  }
  const next: Settings = { language: update.language ?? current.language, channels: { ...current.channels } };
  if (update.channel !== undefined && update.settings !== undefined) next.channels[update.channel] = update.settings;
  return SettingsSchema.parse(next);
}

export interface SettingsStore {
  /** Absolute path of the settings file. */
  readonly path: string;
  /** The valid settings: the file's, or the defaults where the file is invalid (never rewritten unasked). */
  get(): Settings;
  /** Persists settings that already passed the schema (atomic write: conf → atomically). */
  save(settings: Settings): void;
  /** Whether settings were ever saved to the file (else `get()` answers the defaults). */
  hasSaved(): boolean;
}

type RawStore = Store<Record<string, unknown>>;

/** Opens (and migrates) `<dataDir>/settings.json`. A file that is not JSON is moved aside, never deleted. */
export function openSettingsStore(options: { dataDir: string; log: DaemonLog }): SettingsStore {
  const { dataDir, log } = options;
  const open = (): RawStore =>
    new Store<Record<string, unknown>>({
      cwd: dataDir,
      name: SETTINGS_FILE_NAME,
      clearInvalidConfig: false,
      migrations: {
        '0.1.0': (store) => {
          const { value, dropped } = dropLegacyVisibleReplyToggles(store.store);
          if (dropped.length > 0) {
            store.store = value;
            log.info('settings: dropped legacy visible-reply toggles (the contract is always on)', { paths: dropped });
          }
        },
      },
    });
  let store: RawStore;
  try {
    store = open();
  } catch (error) {
    const file = join(dataDir, `${SETTINGS_FILE_NAME}.json`);
    // conf throws a SyntaxError for a file that is not JSON; anything else is not ours to repair.
    if (!(error instanceof SyntaxError) || !existsSync(file)) throw error;
    const aside = `${file}.invalid-${Date.now()}`;
    renameSync(file, aside);
    log.warn('settings: the file was not valid JSON; it was moved aside and defaults are used', {
      file,
      movedTo: aside,
      error: String(error),
    });
    store = open();
  }

  return {
    path: store.path,
    get() {
      const { value } = dropLegacyVisibleReplyToggles(store.store);
      const parsed = SettingsSchema.safeParse({ ...defaultSettings(), ...value });
      if (parsed.success) return parsed.data;
      const where = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
      log.warn('settings: invalid entries in the file; defaults are used until settings are saved', {
        file: store.path,
        paths: where,
      });
      return defaultSettings();
    },
    save(settings) {
      const valid = SettingsSchema.parse(settings);
      store.set('language', valid.language);
      store.set('channels', valid.channels);
    },
    hasSaved: () => store.has('language'),
  };
}

/** The daemon's side of settings (`daemon.api`), which decides what is in effect. */
export type DaemonSettingsApi = Pick<ApiHandlers, 'settings.get' | 'settings.update'>;

/**
 * The `settings.*` calls in the app. The daemon says what is in effect; the app keeps what the
 * person chose in electron-store so it survives restarts. An update is checked, applied by the
 * daemon, and only then persisted (a refusal persists nothing). Without a daemon (it could not
 * start) the store answers alone.
 */
export function settingsHandlers(store: SettingsStore, daemon: DaemonSettingsApi | null): DaemonSettingsApi {
  return {
    'settings.get': async (request) => (daemon === null ? store.get() : daemon['settings.get'](request)),
    'settings.update': async (update) => {
      const next = applySettingsUpdate(store.get(), update);
      const effective = daemon === null ? next : await daemon['settings.update'](update);
      store.save(effective);
      return effective;
    },
  };
}

/**
 * At start: settings the person saved earlier are applied to the daemon again (a daemon keeps
 * them for its lifetime only); on a first run the store is seeded with the daemon's view instead.
 */
export async function syncSettingsWithDaemon(
  store: SettingsStore,
  daemon: DaemonSettingsApi,
  log: DaemonLog,
): Promise<void> {
  if (!store.hasSaved()) {
    store.save(await daemon['settings.get']({}));
    return;
  }
  const saved = store.get();
  try {
    await daemon['settings.update']({ language: saved.language });
    for (const [channel, settings] of Object.entries(saved.channels))
      await daemon['settings.update']({ channel, settings });
  } catch (error) {
    log.warn('settings: the daemon refused the saved settings; it keeps its own', {
      file: store.path,
      error: String(error),
    });
  }
}
