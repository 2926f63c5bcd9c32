/**
 * Settings as the UI sees them (issue 17, DESIGN.md "Storage"):
 *
 * - Channel settings (watchdog, delivery) have ONE source: agentteam.json (`ConfigSource`). The UI
 *   writes them through `update`, which rewrites only the keys that differ from the file's values;
 *   a person's edit of the file is picked up while running; each value says where it comes from.
 * - The language is a UI-only preference, kept through the port (settings.json in serve,
 *   electron-store in the app).
 * - settings.json of an older build may hold channel settings, which then silently overrode the
 *   file. At start they are handled once, explicitly (`migrateLegacyChannels`): a value the file
 *   does not set is MOVED into agentteam.json; a value the file sets is ignored (the file is what
 *   the person edits, so it wins). Both are logged and shown in the UI; the block then leaves
 *   settings.json (the port keeps a copy).
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import { ApiError, type ConfigStatus, type Settings } from '../../../shared/api/contract.js';
import {
  ChannelSettingsSchema,
  LOCAL_CHANNEL,
  channelSettings,
  effectiveAgent,
  type ChannelSettings,
  type Config,
  type PromptLanguage,
} from '../../../shared/config.js';
import type { JsonEdit } from '../config/json-edit.js';
import type { ConfigSource, ConfigState } from '../config/config-source.js';
import type { DaemonLog } from '../daemon-log.js';

/** UI-only preferences. */
export interface UiPrefs {
  readonly language: PromptLanguage;
}

/** Where the UI-only preferences are kept (electron-store in the app, settings.json in serve); in memory when absent. */
export interface SettingsPort {
  /** The saved preferences, plus `channels` when an older build saved channel settings there. */
  load(): { readonly language?: PromptLanguage; readonly channels?: unknown } | undefined;
  save(prefs: UiPrefs): void;
  /** Removes the legacy `channels` block (keeping a copy next to it); returns where the copy is. */
  dropLegacyChannels(): string | null;
}

/** The `settings.update` call's patch (shared API contract). */
export interface SettingsPatch {
  readonly language?: PromptLanguage;
  readonly channel?: string;
  readonly settings?: unknown;
}

const SECTIONS = ['silenceWatchdog', 'responseDelivery'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `raw.a.b.c`, or undefined where any step is missing. */
function at(raw: unknown, path: readonly string[]): unknown {
  let v: unknown = raw;
  for (const k of path) {
    if (!isRecord(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** Each leaf of a channel's settings: `[section, key, value]`. */
function leaves(settings: ChannelSettings): Array<[(typeof SECTIONS)[number], string, unknown]> {
  return SECTIONS.flatMap((section) =>
    Object.entries(settings[section]).map(([key, value]) => [section, key, value] as [typeof section, string, unknown]),
  );
}

/** Per setting of a channel: `file` when agentteam.json sets it, else `default`. */
export function channelOrigins(raw: unknown, channel: string): Record<string, 'file' | 'default'> {
  const out: Record<string, 'file' | 'default'> = {};
  for (const [section, key] of leaves(ChannelSettingsSchema.parse({})))
    out[`${section}.${key}`] = at(raw, ['channels', channel, section, key]) === undefined ? 'default' : 'file';
  return out;
}

/**
 * The edits that make agentteam.json hold `next` for `channel`: only the keys whose effective
 * value differs (a key the file does not set and that keeps its default is not written).
 */
export function channelEdits(current: ChannelSettings, next: ChannelSettings, channel: string): JsonEdit[] {
  const edits: JsonEdit[] = [];
  for (const [section, key, value] of leaves(next)) {
    const was = (current[section] as Record<string, unknown>)[key];
    if (!Object.is(was, value)) edits.push({ path: ['channels', channel, section, key], value });
  }
  return edits;
}

type Notice = ConfigStatus['notices'][number];

/**
 * Once at start: channel settings an older build saved in settings.json. A value agentteam.json
 * does not set (and that is not the default) is moved into it; a value it does set wins and the
 * old one is reported as ignored. Returns the edits to write and the notices to show.
 */
export function planLegacyMigration(
  legacy: unknown,
  raw: unknown,
  known: readonly string[],
): { edits: JsonEdit[]; notices: Notice[] } {
  const edits: JsonEdit[] = [];
  const notices: Notice[] = [];
  if (!isRecord(legacy)) return { edits, notices };
  const defaults = ChannelSettingsSchema.parse({});
  for (const [channel, value] of Object.entries(legacy)) {
    const parsed = ChannelSettingsSchema.safeParse(value);
    if (!known.includes(channel) || !parsed.success) {
      notices.push({ kind: 'ignored', path: `channels.${channel}`, value });
      continue;
    }
    for (const [section, key, v] of leaves(parsed.data)) {
      const path = ['channels', channel, section, key];
      const fileValue = at(raw, path);
      if (fileValue !== undefined) {
        if (!Object.is(fileValue, v)) notices.push({ kind: 'ignored', path: path.join('.'), value: v, fileValue });
      } else if (!Object.is((defaults[section] as Record<string, unknown>)[key], v)) {
        edits.push({ path, value: v });
        notices.push({ kind: 'migrated', path: path.join('.'), value: v });
      }
    }
  }
  return { edits, notices };
}

export interface DaemonSettingsOptions {
  readonly source: ConfigSource;
  readonly port?: SettingsPort;
  /** The delivery channels this daemon has; `settings.update` accepts only these. */
  readonly channels?: readonly string[];
  readonly log?: DaemonLog;
  /**
   * issue 14: the agents as they run now (an agent restarted with a workspace or policy chosen in
   * the UI runs its file entry); `restartNeeded` compares the file with these. Default: as at start.
   */
  readonly appliedAgents?: () => Config['agents'];
  /** What runs changed (the roster's `applied$`): recomputed and told to the UI (`refresh`). */
  readonly applied$?: Observable<unknown>;
}

const quietLog: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

export class DaemonSettings {
  readonly #source: ConfigSource;
  readonly #port: SettingsPort | undefined;
  readonly #channels: readonly string[];
  readonly #log: DaemonLog;
  readonly #appliedAgents: (() => Config['agents']) | undefined;
  readonly #changed = new Subject<Settings>();
  readonly #sub: Subscription;
  #language: PromptLanguage;
  #notices: Notice[] = [];
  #current: Settings;

  /** The settings after every change of agentteam.json (an edit, a rejected edit, a save). */
  readonly changed$: Observable<Settings> = this.#changed.asObservable();

  constructor(options: DaemonSettingsOptions) {
    this.#source = options.source;
    this.#port = options.port;
    this.#channels = options.channels ?? [LOCAL_CHANNEL];
    this.#log = options.log ?? quietLog;
    this.#appliedAgents = options.appliedAgents;
    const saved = this.#port?.load();
    this.#language = saved?.language ?? 'en';
    if (saved?.channels !== undefined) this.#migrateLegacyChannels(saved.channels);
    this.#current = this.#compute(this.#source.state);
    // The source's current state is emitted at once: skip it, the constructor computed it.
    let first = true;
    this.#sub = this.#source.state$.subscribe((state) => {
      if (first) return void (first = false);
      this.#current = this.#compute(state);
      this.#changed.next(this.#current);
    });
    if (options.applied$ !== undefined) this.#sub.add(options.applied$.subscribe(() => this.refresh()));
  }

  get current(): Settings {
    return this.#current;
  }

  /** Effective settings of one channel, read at each turn start: an edit of the file applies from the next turn. */
  channel(name: string): ChannelSettings {
    return channelSettings(this.#source.config, name);
  }

  /** Applies a `settings.update` patch: the language to the port, channel settings into agentteam.json. */
  update(patch: SettingsPatch): Settings {
    if (patch.settings !== undefined && patch.channel === undefined)
      throw new ApiError('invalid_request', 'settings.update: "settings" needs the "channel" it applies to.');
    if (patch.channel !== undefined) {
      if (!this.#channels.includes(patch.channel))
        throw new ApiError(
          'unknown_channel',
          `There is no delivery channel "${patch.channel}"; the channels are: ${this.#channels.join(', ')}.`,
        );
      if (patch.settings === undefined)
        throw new ApiError('invalid_request', 'settings.update with a channel needs its settings.');
      const parsed = ChannelSettingsSchema.safeParse(patch.settings);
      if (!parsed.success)
        throw new ApiError(
          'invalid_request',
          `settings.update: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      this.#source.write(channelEdits(this.channel(patch.channel), parsed.data, patch.channel));
    }
    if (patch.language !== undefined && patch.language !== this.#language) {
      this.#port?.save({ language: patch.language });
      this.#language = patch.language;
    }
    this.#current = this.#compute(this.#source.state);
    return this.#current;
  }

  /** issue 14: what runs changed (an agent restarted with its file entry): recompute and tell the UI. */
  refresh(): void {
    this.#current = this.#compute(this.#source.state);
    this.#changed.next(this.#current);
  }

  dispose(): void {
    this.#sub.unsubscribe();
    this.#changed.complete();
  }

  #compute({ loaded, error }: ConfigState): Settings {
    const channels: Record<string, ChannelSettings> = {};
    const origins: ConfigStatus['origins'] = {};
    for (const name of this.#channels) {
      channels[name] = channelSettings(loaded.config, name);
      origins[name] = channelOrigins(loaded.raw, name);
    }
    const applied = { ...this.#source.initial, agents: this.#appliedAgents?.() ?? this.#source.initial.agents };
    // What takes effect, not the text: a legacy visible-reply toggle changes nothing, so editing
    // one never asks for a restart (§7.3; the top-level toggles are outside both keys).
    const effective = (c: Pick<Config, 'agents' | 'limits'>) => ({
      agents: JSON.stringify(c.agents.map(effectiveAgent)),
      limits: JSON.stringify(c.limits),
    });
    const [file, running] = [effective(loaded.config), effective(applied)];
    const restartNeeded = (['agents', 'limits'] as const).filter((k) => file[k] !== running[k]);
    return {
      language: this.#language,
      channels,
      config: {
        file: loaded.file,
        error:
          error === null
            ? null
            : {
                code: error.code,
                message: error.message,
                problems: [...error.problems],
                line: error.position?.line ?? null,
                column: error.position?.column ?? null,
              },
        origins,
        restartNeeded,
        notices: this.#notices,
      },
    };
  }

  #migrateLegacyChannels(legacy: unknown): void {
    const { edits, notices } = planLegacyMigration(legacy, this.#source.state.loaded.raw, this.#channels);
    if (edits.length > 0) this.#source.write(edits);
    const copy = this.#port?.dropLegacyChannels() ?? null;
    this.#notices = notices;
    this.#log.info(
      'settings: channel settings found in settings.json (an older build); agentteam.json is now their one source',
      {
        movedToAgentteamJson: notices.filter((n) => n.kind === 'migrated').map((n) => n.path),
        ignoredBecauseAgentteamJsonSetsThem: notices.filter((n) => n.kind === 'ignored').map((n) => n.path),
        copy,
      },
    );
  }
}
