/**
 * UI-only preferences of `agentteam serve` (the language): `<data-dir>/settings.json`, the file the
 * app's electron-store keeps (same JSON format). Channel settings live in agentteam.json (issue 17);
 * a `channels` block an older build saved here is handed to the daemon once (it moves or reports
 * each value, see daemon-settings.ts), then leaves this file, copied to settings.legacy-channels.json.
 *
 * Not `conf`: it pulls in `atomically` → `when-exit`, which on import hooks SIGINT/SIGTERM and
 * re-raises the signal after its own handlers — the re-raised signal reads as a second Ctrl-C and
 * aborts serve's graceful shutdown (in-flight writes, runtimes). An atomic write is a few lines.
 *
 * A file that is not JSON is left as it is and the defaults apply; saving then says what to fix.
 * Keys this module does not know are kept as they are.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, SettingsSchema } from '../../shared/api/contract.js';
import type { DaemonLog } from '../daemon/daemon-log.js';
import type { SettingsPort } from '../daemon/index.js';

export const SETTINGS_FILE = 'settings.json';

/** Writes a file so a crash leaves either the old or the new content: temp file, fsync, rename. */
export function writeFileAtomic(file: string, content: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** Where the legacy channel block of settings.json is kept once it leaves the file (issue 17). */
export const LEGACY_CHANNELS_COPY = 'settings.legacy-channels.json';

const LanguageSchema = SettingsSchema.shape.language;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function openServeSettings(dataDir: string, log?: DaemonLog): SettingsPort {
  const file = join(dataDir, SETTINGS_FILE);
  let text: string | null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = null;
  }
  let raw: Record<string, unknown> = {};
  let malformed = false;
  if (text !== null) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) raw = parsed;
      else throw new Error('the top level is not an object');
    } catch (err) {
      malformed = true;
      log?.warn('settings: settings.json is not valid JSON; the defaults apply', { file, error: String(err) });
    }
  }
  const write = (): void => {
    if (malformed)
      throw new ApiError('unavailable', `${file} is not valid JSON; fix or remove it, then save the settings again.`);
    writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`);
  };
  return {
    load() {
      if (text === null || malformed) return undefined;
      const language = LanguageSchema.safeParse(raw.language);
      if (raw.language !== undefined && !language.success)
        log?.warn('settings: settings.json has an unknown language; English applies until the language is saved', {
          file,
        });
      return {
        ...(language.success ? { language: language.data } : {}),
        ...(raw.channels !== undefined ? { channels: raw.channels } : {}),
      };
    },
    save(prefs) {
      raw = { ...raw, language: LanguageSchema.parse(prefs.language) };
      write();
    },
    dropLegacyChannels() {
      if (!Object.hasOwn(raw, 'channels')) return null;
      const copy = join(dataDir, LEGACY_CHANNELS_COPY);
      writeFileAtomic(copy, `${JSON.stringify({ channels: raw.channels }, null, 2)}\n`);
      const { channels: _dropped, ...rest } = raw;
      raw = rest;
      write();
      return copy;
    },
  };
}
