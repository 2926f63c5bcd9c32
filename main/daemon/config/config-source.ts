/**
 * agentteam.json as the one source of truth while the daemon runs (DESIGN.md "Storage", issue 17):
 *
 * - `watch()` picks up a person's edits: the *folder* is watched, not the file, because editors
 *   save by writing a temp file and renaming it over the original (a new inode, which a watch of
 *   the file itself never sees again); events are debounced, since one save is several events.
 * - An edit that does not load keeps the last valid configuration in effect and is reported as
 *   `error` (the same file/JSON path/expectation message as at start) until the file is fixed;
 *   nothing is silently overridden and the file is never rewritten to "repair" it.
 * - `write()` is the UI's way in (and an operator's "always" approval's, issue 14): a minimal
 *   rewrite of the keys it changed (json-edit.ts), refused while the file holds an unusable edit,
 *   validated before it touches the disk, atomic.
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, watch, writeSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { BehaviorSubject, Observable, debounceTime, type SchedulerLike, type Subscription } from 'rxjs';
import { ApiError } from '../../../shared/api/contract.js';
import type { Config } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import { applyJsonEdits, parseJsonc, type JsonEdit } from './json-edit.js';
import {
  configSchemaWith,
  loadConfig,
  type AgentConfigIssues,
  type ConfigError,
  type ConfigLoad,
} from './load-config.js';

type Loaded = Extract<ConfigLoad, { ok: true }>;

/** What is in effect, and the last edit that could not be used (null once the file loads again). */
export interface ConfigState {
  readonly loaded: Loaded;
  readonly error: ConfigError | null;
}

/** How long the folder must be quiet before the file is read again (one save is several events). */
export const CONFIG_WATCH_DEBOUNCE_MS = 150;

const quietLog: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

export class ConfigSource {
  readonly #state: BehaviorSubject<ConfigState>;
  /** Every change of what is in effect or of the error; the current state first. */
  readonly state$: Observable<ConfigState>;
  /** The configuration the daemon started with (agents and limits apply from it until a restart). */
  readonly initial: Config;
  #watch: Subscription | null = null;

  private constructor(
    private readonly dataDir: string,
    loaded: Loaded,
    private readonly log: DaemonLog,
    private readonly agentIssues: AgentConfigIssues | undefined,
  ) {
    this.initial = loaded.config;
    this.#state = new BehaviorSubject<ConfigState>({ loaded, error: null });
    this.state$ = this.#state.asObservable();
  }

  /**
   * Loads agentteam.json; throws its `ConfigError` when it cannot be used (the daemon refuses to start).
   * `agentIssues`: the rules on an agent's entry the runtimes decide (runtime/registry.ts), at start,
   * on every edit and before every write alike.
   */
  static open(dataDir: string, log: DaemonLog = quietLog, agentIssues?: AgentConfigIssues): ConfigSource {
    const loaded = loadConfig(dataDir, { log, agentIssues });
    if (!loaded.ok) throw loaded.error;
    return new ConfigSource(dataDir, loaded, log, agentIssues);
  }

  get state(): ConfigState {
    return this.#state.value;
  }

  get config(): Config {
    return this.#state.value.loaded.config;
  }

  get file(): string {
    return this.#state.value.loaded.file;
  }

  /** Reads the file again; returns whether what is in effect (or the error) changed. */
  reload(): boolean {
    const next = loadConfig(this.dataDir, { log: this.log, agentIssues: this.agentIssues });
    const { loaded, error } = this.#state.value;
    if (!next.ok) {
      if (error?.message === next.error.message) return false;
      this.log.warn('config: the edit of agentteam.json cannot be used; the last valid configuration stays in effect', {
        file: next.error.file,
        error: next.error.message,
      });
      this.#state.next({ loaded, error: next.error });
      return true;
    }
    if (!next.exists && loaded.exists) {
      // Mid-save (delete, then create) or moved away: what is in effect stays until the file is back.
      this.log.info('config: agentteam.json is gone; the configuration in effect stays', { file: next.file });
      return false;
    }
    if (next.text === loaded.text && error === null) return false;
    if (error !== null) this.log.info('config: agentteam.json loads again', { file: next.file });
    else this.log.info('config: agentteam.json changed; reloaded', { file: next.file });
    this.#state.next({ loaded: next, error: null });
    return true;
  }

  /**
   * Writes values into agentteam.json, changing only their keys, then reloads it. Refused (nothing
   * written) while the file holds an edit that cannot be used: the person's text is never replaced.
   */
  write(edits: readonly JsonEdit[] | ((fresh: Config) => readonly JsonEdit[])): void {
    const fresh = loadConfig(this.dataDir, { log: quietLog, agentIssues: this.agentIssues });
    if (!fresh.ok)
      throw new ApiError(
        'config_invalid',
        `${fresh.error.message}\nNothing was saved: fix agentteam.json first (the last valid configuration stays in effect).`,
      );
    // A function computes its edits from the file as it is now (e.g. an agent's index: issue 14).
    if (typeof edits === 'function') edits = edits(fresh.config);
    if (edits.length === 0) return;
    const base = fresh.exists ? fresh.text : '{}\n';
    const text = applyJsonEdits(base, edits);
    // A last check before the disk: the rewritten file must load exactly like any other edit.
    const parsed = configSchemaWith(this.agentIssues).safeParse(parseJsonc(text));
    if (!parsed.success)
      throw new ApiError(
        'invalid_request',
        `The change does not fit agentteam.json: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}.`,
      );
    writeAtomic(fresh.file, text);
    this.log.info('config: saved to agentteam.json', {
      file: fresh.file,
      paths: edits.map((e) => e.path.join('.')),
    });
    this.reload();
  }

  /** Starts picking up edits of the file (idempotent). */
  watch(options: { debounceMs?: number; scheduler?: SchedulerLike } = {}): void {
    if (this.#watch !== null) return;
    this.#watch = folderChanges$(dirname(this.file), basename(this.file))
      .pipe(debounceTime(options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS, options.scheduler))
      .subscribe({
        next: () => void this.reload(),
        error: (err: unknown) =>
          this.log.warn('config: cannot watch agentteam.json; edits apply after a restart', {
            file: this.file,
            error: String(err),
          }),
      });
  }

  close(): void {
    this.#watch?.unsubscribe();
    this.#watch = null;
    this.#state.complete();
  }
}

/** One event per change in `dir` that concerns `name` (or an unnamed one: some platforms omit it). */
export function folderChanges$(dir: string, name: string): Observable<void> {
  return new Observable<void>((subscriber) => {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, filename) => {
        if (filename === null || filename === name) subscriber.next();
      });
    } catch (err) {
      subscriber.error(err);
      return undefined;
    }
    watcher.on('error', (err) => subscriber.error(err));
    return () => watcher.close();
  });
}

/** temp file, fsync, rename: a crash leaves the old or the new text, never half; the file's mode is kept. */
function writeAtomic(file: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    // a new file: private to the person (it may hold keys)
  }
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
