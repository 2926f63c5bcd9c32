/**
 * The one translator (issue 23): `copy(language, key, vars)` over the namespaced copy tables of
 * `tables/`, in English and Simplified Chinese (UI.md "Chips and copy"). Status copy is neutral:
 * the UI reports a status, it never speaks for the agent (contract §10.3, §7.3). There is no copy
 * for a visible-reply toggle because there is no such toggle (contract §7.3).
 */
import type { CopyTable } from './copy-table.js';
import { LANGUAGES, type Language } from './language.js';
import { AGENTS_COPY } from './tables/agents-copy.js';
import { APP_COPY } from './tables/app-copy.js';
import { APPROVAL_COPY } from './tables/approval-copy.js';
import { CONVERSATION_COPY } from './tables/conversation-copy.js';
import { INSPECTOR_COPY } from './tables/inspector-copy.js';
import { SEARCH_COPY } from './tables/search-copy.js';
import { SETTINGS_COPY } from './tables/settings-copy.js';
import { STATUS_COPY } from './tables/status-copy.js';
import { TELEGRAM_COPY } from './tables/telegram-copy.js';
import { REVIEW_COPY } from './tables/review-copy.js';
import { TEAM_COPY } from './tables/team-copy.js';
import { USAGE_COPY } from './tables/usage-copy.js';

export { LANGUAGES, type Language };

/** Every namespaced table (a test checks their namespaces are distinct). */
export const COPY_TABLES = [
  ...APP_COPY,
  ...STATUS_COPY,
  ...APPROVAL_COPY,
  ...CONVERSATION_COPY,
  ...INSPECTOR_COPY,
  ...AGENTS_COPY,
  ...SEARCH_COPY,
  ...SETTINGS_COPY,
  ...TELEGRAM_COPY,
  // issue 26: the review pane
  ...REVIEW_COPY,
  ...TEAM_COPY,
  // issue 27: usage and limits
  ...USAGE_COPY,
] as const;

type KeysOf<T> = T extends CopyTable<string, infer K> ? K : never;
/** A key of one of the tables, e.g. `chip.queued`: a key no table has fails typecheck. */
export type CopyKey = KeysOf<(typeof COPY_TABLES)[number]>;

const flatten = (language: Language) =>
  Object.fromEntries(COPY_TABLES.flatMap((table) => Object.entries(table[language]))) as Record<CopyKey, string>;

/** Every table of a language merged into one, by full key. */
export const copyTables: Readonly<Record<Language, Readonly<Record<CopyKey, string>>>> = {
  en: flatten('en'),
  'zh-CN': flatten('zh-CN'),
};

/** The copy for `key` in `language`, with `{name}` placeholders filled from `vars`. */
export function copy(language: Language, key: CopyKey, vars: Record<string, string | number> = {}): string {
  const template = copyTables[language][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Every key of the tables (tests check both languages cover all of them). */
export const COPY_KEYS = Object.keys(copyTables.en) as CopyKey[];
