/**
 * Settings of `agentteam serve`: `<data-dir>/settings.json` through `conf` (DESIGN.md: conf in
 * serve, electron-store — the same file format — in the app), validated by the shared schema.
 * A file that does not validate is left as it is and the daemon's defaults apply until the
 * person saves settings again; it is never rewritten unasked.
 */
import Conf from 'conf';
import { ApiError, SettingsSchema, type Settings } from '../../shared/api/contract.js';
import type { DaemonLog } from '../daemon/daemon-types.js';
import type { SettingsPort } from '../daemon/index.js';

export function openServeSettings(dataDir: string, log?: DaemonLog): SettingsPort {
  let store: Conf<Record<string, unknown>>;
  try {
    store = new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName: 'agentteam', projectVersion: '0', clearInvalidConfig: false });
  } catch (err) {
    // Not JSON: keep the person's file as it is; defaults apply and saving says what to do.
    log?.warn('settings: settings.json is not valid JSON; the defaults apply', { dir: dataDir, error: String(err) });
    return {
      load: () => undefined,
      save: () => {
        throw new ApiError('unavailable', `${dataDir}/settings.json is not valid JSON; fix or remove it, then save the settings again.`);
      },
    };
  }
  return {
    load() {
      if (store.size === 0) return undefined;
      const parsed = SettingsSchema.partial().safeParse(store.store);
      if (!parsed.success) {
        log?.warn('settings: settings.json does not validate; the defaults apply until settings are saved', { file: store.path, problems: parsed.error.issues.map((i) => i.path.join('.')) });
        return undefined;
      }
      return parsed.data as Partial<Settings>;
    },
    save(settings) {
      store.store = SettingsSchema.parse(settings) as unknown as Record<string, unknown>;
    },
  };
}
