/**
 * Settings of `agentteam serve`: `<data-dir>/settings.json`, the file the app's electron-store
 * keeps (same JSON format), validated by the shared schema.
 *
 * Not `conf`: it pulls in `atomically` → `when-exit`, which on import hooks SIGINT/SIGTERM and
 * re-raises the signal after its own handlers — the re-raised signal reads as a second Ctrl-C and
 * aborts serve's graceful shutdown (in-flight writes, runtimes). An atomic write is a few lines.
 *
 * A file that does not validate is left as it is and the daemon's defaults apply until the person
 * saves settings again; it is never rewritten unasked.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, SettingsSchema, type Settings } from '../../shared/api/contract.js';
import type { DaemonLog } from '../daemon/daemon-types.js';
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

export function openServeSettings(dataDir: string, log?: DaemonLog): SettingsPort {
  const file = join(dataDir, SETTINGS_FILE);
  let text: string | null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = null;
  }
  let raw: unknown = undefined;
  let malformed = false;
  if (text !== null) {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      malformed = true;
      log?.warn('settings: settings.json is not valid JSON; the defaults apply', { file, error: String(err) });
    }
  }
  return {
    load() {
      if (raw === undefined) return undefined;
      const parsed = SettingsSchema.partial().safeParse(raw);
      if (!parsed.success) {
        log?.warn('settings: settings.json does not validate; the defaults apply until settings are saved', {
          file,
          problems: parsed.error.issues.map((i) => i.path.join('.')),
        });
        return undefined;
      }
      return parsed.data as Partial<Settings>;
    },
    save(settings) {
      if (malformed)
        throw new ApiError('unavailable', `${file} is not valid JSON; fix or remove it, then save the settings again.`);
      writeFileAtomic(file, `${JSON.stringify(SettingsSchema.parse(settings), null, 2)}\n`);
    },
  };
}
