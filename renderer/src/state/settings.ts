/** The settings as the daemon reports them (`settings.get`, `settings.changed`), and the UI language they set. */
import { useMemo } from 'react';
import type { Settings } from '../../../shared/api/contract.js';
import { LOCAL_CHANNEL, SilenceWatchdogSchema } from '../../../shared/config.js';
import type { Language } from '../i18n/copy.js';
import { useValue, type ValueStore } from './value-store.js';

export type SettingsStore = ValueStore<Settings | null>;

/** The language of settings that may not be known yet: English until they are. */
export const languageOf = (settings: Settings | null): Language => settings?.language ?? 'en';

/** The UI language; re-renders when it changes, not for other settings. */
export function useLanguage(store: SettingsStore): Language {
  return useValue(store, languageOf);
}

const WATCHDOG_DEFAULTS = SilenceWatchdogSchema.parse({});

/**
 * issue 24: the local channel's own beacon text (`channels.local.silenceWatchdog.message` /
 * `escalationMessage`), the watchdog whose beacons the local chips show; null while it is the
 * schema's default, which the UI says in its own language instead.
 */
export function customBeaconText(settings: Settings | null, key: 'message' | 'escalationMessage'): string | null {
  const text = settings?.channels[LOCAL_CHANNEL]?.silenceWatchdog[key];
  return text === undefined || text === WATCHDOG_DEFAULTS[key] ? null : text;
}

/** The person's beacon words for the status area (null: the translated default); re-renders when one changes. */
export function useBeaconWords(store: SettingsStore): {
  readonly beacon: string | null;
  readonly escalation: string | null;
} {
  const beacon = useValue(store, (s) => customBeaconText(s, 'message'));
  const escalation = useValue(store, (s) => customBeaconText(s, 'escalationMessage'));
  return useMemo(() => ({ beacon, escalation }), [beacon, escalation]);
}
