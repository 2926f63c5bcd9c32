/** The settings as the daemon reports them (`settings.get`, `settings.changed`), and the UI language they set. */
import type { Settings } from '../../../shared/api/contract.js';
import type { Language } from '../i18n/copy.js';
import { useValue, type ValueStore } from './value-store.js';

export type SettingsStore = ValueStore<Settings | null>;

/** The language of settings that may not be known yet: English until they are. */
export const languageOf = (settings: Settings | null): Language => settings?.language ?? 'en';

/** The UI language; re-renders when it changes, not for other settings. */
export function useLanguage(store: SettingsStore): Language {
  return useValue(store, languageOf);
}
