/**
 * UI-only preferences of the app (DESIGN.md "Storage": the language), kept in electron-store at
 * `<data-dir>/settings.json` — the file format `agentteam serve` reads. Channel settings live in
 * agentteam.json, written by the daemon (issue 17); a `channels` block an older build saved here
 * is handed to the daemon once through `port()` (it moves or reports each value), then removed
 * from this file (copied to settings.legacy-channels.json).
 * A migration drops legacy visible-reply toggles: the contract is always on (contract §7, §7.3).
 */
import Store from 'electron-store';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, SettingsSchema, type ApiHandlers, type Settings } from '../../shared/api/contract.js';
import { ChannelSettingsSchema, LOCAL_CHANNEL } from '../../shared/config.js';
import type { DaemonLog, SettingsPort, UiPrefs } from '../daemon/index.js';

export const SETTINGS_FILE_NAME = 'settings';

/** Keys an older build or a hand edit may carry; none has an effect any more (contract §7). */
export const LEGACY_VISIBLE_REPLY_KEYS = [
  'visibleReplyContract',
  'visibleReplyContractEnabled',
  'visible_reply_contract_enabled',
] as const;

const LanguageSchema = SettingsSchema.shape.language;

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

export interface SettingsStore {
  /** Absolute path of the settings file. */
  readonly path: string;
  /** The language saved (English when none), with the channel defaults: what the UI shows without a daemon. */
  get(): Settings;
  /** Persists the UI-only preferences (atomic write: conf → atomically). */
  save(prefs: UiPrefs): void;
  /** The daemon's view of this store: UI-only preferences, and the legacy channel block once (issue 17). */
  port(): SettingsPort;
}

type RawStore = Store<Record<string, unknown>>;

/** Where the legacy channel block of settings.json is kept once it leaves the file (issue 17). */
export const LEGACY_CHANNELS_COPY = 'settings.legacy-channels.json';

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

  const language = (): UiPrefs['language'] | undefined => {
    const parsed = LanguageSchema.safeParse(store.get('language'));
    if (parsed.success) return parsed.data;
    if (store.has('language'))
      log.warn('settings: unknown language in the file; English is used until the language is saved', {
        file: store.path,
      });
    return undefined;
  };
  return {
    path: store.path,
    get: () => ({ ...defaultSettings(), language: language() ?? 'en' }),
    save(prefs) {
      store.set('language', LanguageSchema.parse(prefs.language));
    },
    port: () => ({
      load() {
        const lang = language();
        return {
          ...(lang === undefined ? {} : { language: lang }),
          ...(store.has('channels') ? { channels: store.get('channels') } : {}),
        };
      },
      save(prefs) {
        store.set('language', LanguageSchema.parse(prefs.language));
      },
      dropLegacyChannels() {
        if (!store.has('channels')) return null;
        const copy = join(dataDir, LEGACY_CHANNELS_COPY);
        writeFileSync(copy, `${JSON.stringify({ channels: store.get('channels') }, null, 2)}\n`, { mode: 0o600 });
        store.delete('channels');
        return copy;
      },
    }),
  };
}

/** The daemon's side of settings (`daemon.api`), which decides what is in effect. */
export type DaemonSettingsApi = Pick<ApiHandlers, 'settings.get' | 'settings.update'>;

/**
 * The `settings.*` calls in the app. With a daemon, the daemon answers (channel settings live in
 * agentteam.json; it keeps the language through `store.port()`). Without one (it could not start)
 * the store answers alone: the language can change, channel settings cannot (the daemon writes them).
 */
export function settingsHandlers(store: SettingsStore, daemon: DaemonSettingsApi | null): DaemonSettingsApi {
  if (daemon !== null) return daemon;
  return {
    'settings.get': async () => store.get(),
    'settings.update': async (update) => {
      if (update.channel !== undefined || update.settings !== undefined)
        throw new ApiError(
          'unavailable',
          'Channel settings are saved to agentteam.json by the agent daemon, which is not running; fix what stopped it and restart AgentTeam.',
        );
      if (update.language !== undefined) store.save({ language: update.language });
      return store.get();
    },
  };
}
