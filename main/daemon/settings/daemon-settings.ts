/**
 * The per-person settings the UI edits (language, per-channel watchdog and delivery): loaded
 * once at start, merged over agentteam.json, updated by `settings.update`, saved through the
 * port. What the person changed in the UI wins over agentteam.json's channel entries.
 */
import { ApiError, type Settings } from '../../../shared/api/contract.js';
import {
  ChannelSettingsSchema,
  LOCAL_CHANNEL,
  channelSettings,
  type ChannelSettings,
  type Config,
} from '../../../shared/config.js';

/** Where the settings are kept (electron-store in the app, settings.json in serve); in memory when absent. */
export interface SettingsPort {
  load(): Partial<Settings> | undefined;
  save(settings: Settings): void;
}

/** The `settings.update` call's patch (shared API contract). */
export interface SettingsPatch {
  readonly language?: Settings['language'];
  readonly channel?: string;
  readonly settings?: unknown;
}

/** The effective settings: saved ones over agentteam.json's channels over the schema defaults. */
export function mergeSettings(config: Config, saved: Partial<Settings> | undefined): Settings {
  return {
    language: saved?.language ?? 'en',
    channels: {
      [LOCAL_CHANNEL]: channelSettings(config, LOCAL_CHANNEL),
      // Watchdog + delivery keys only: a channel's own keys (the Telegram bot token) never reach the UI.
      ...Object.fromEntries(Object.keys(config.channels).map((name) => [name, channelSettings(config, name)])),
      ...(saved?.channels ?? {}),
    },
  };
}

export class DaemonSettings {
  #settings: Settings;

  constructor(
    private readonly config: Config,
    private readonly port?: SettingsPort,
  ) {
    this.#settings = mergeSettings(config, port?.load());
  }

  get current(): Settings {
    return this.#settings;
  }

  /** Effective settings of one channel (a channel nobody configured gets the schema defaults). */
  channel(name: string): ChannelSettings {
    return this.#settings.channels[name] ?? channelSettings(this.config, name);
  }

  /** Applies a `settings.update` patch, saves and returns the result. */
  update(patch: SettingsPatch): Settings {
    const channels = { ...this.#settings.channels };
    if (patch.channel !== undefined) {
      if (patch.settings === undefined)
        throw new ApiError('invalid_request', 'settings.update with a channel needs its settings.');
      channels[patch.channel] = ChannelSettingsSchema.parse(patch.settings);
    }
    this.#settings = { language: patch.language ?? this.#settings.language, channels };
    this.port?.save(this.#settings);
    return this.#settings;
  }
}
