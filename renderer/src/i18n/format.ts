/**
 * Dates and times in the UI language's own format (issue 17): zh-CN reads 24-hour clocks and
 * Chinese dates; English follows the browser's English variant (en-US 12-hour, en-GB 24-hour).
 * The time zone is the machine's. Formatters are built once per language.
 */
import type { Language } from './language.js';

/** The Intl locale of a UI language. */
export function localeOf(language: Language): string {
  if (language === 'zh-CN') return 'zh-CN';
  const nav = typeof navigator === 'undefined' ? 'en-US' : navigator.language;
  return nav.toLowerCase().startsWith('en') ? nav : 'en-US';
}

interface Formatters {
  readonly time: Intl.DateTimeFormat;
  readonly timeSeconds: Intl.DateTimeFormat;
  readonly weekday: Intl.DateTimeFormat;
  readonly date: Intl.DateTimeFormat;
  readonly dateTime: Intl.DateTimeFormat;
}

const cache = new Map<string, Formatters>();

const hourStyle = (locale: string): '2-digit' | 'numeric' => (locale === 'zh-CN' ? '2-digit' : 'numeric');

function formatters(language: Language): Formatters {
  const locale = localeOf(language);
  let f = cache.get(locale);
  if (f === undefined) {
    f = {
      // zh-CN reads a 24-hour clock with two-digit hours ("09:05"); English keeps "9:05 AM".
      time: new Intl.DateTimeFormat(locale, { hour: hourStyle(locale), minute: '2-digit' }),
      timeSeconds: new Intl.DateTimeFormat(locale, { hour: hourStyle(locale), minute: '2-digit', second: '2-digit' }),
      weekday: new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric' }),
      date: new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' }),
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'medium' }),
    };
    cache.set(locale, f);
  }
  return f;
}

/** "11:28 PM" / "23:28": a message's time. */
export const formatTime = (iso: string, language: Language): string => formatters(language).time.format(new Date(iso));

/** "11:28" / "23:28": the time beside a grouped message, where the day period would not fit. */
export const formatTimeShort = (iso: string, language: Language): string =>
  formatters(language)
    .time.formatToParts(new Date(iso))
    .filter((p) => p.type === 'hour' || p.type === 'minute' || (p.type === 'literal' && p.value.trim() === ':'))
    .map((p) => p.value)
    .join('');

/** "11:28:05 PM" / "23:28:05": a timeline row's time. */
export const formatTimeSeconds = (iso: string, language: Language): string =>
  formatters(language).timeSeconds.format(new Date(iso));

/** The full date and time, for a tooltip. */
export const formatDateTime = (iso: string, language: Language): string =>
  formatters(language).dateTime.format(new Date(iso));

/** Local calendar day of a time, as a comparable key. */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/**
 * A date separator's label relative to `nowMs`: "Today", "Yesterday", a weekday and date within
 * the week, else the full date. `today`/`yesterday` are the translated words.
 */
export function formatDay(
  iso: string,
  language: Language,
  nowMs: number,
  words: { today: string; yesterday: string },
): string {
  const d = new Date(iso);
  const start = (t: Date) => new Date(t.getFullYear(), t.getMonth(), t.getDate()).getTime();
  const days = Math.round((start(new Date(nowMs)) - start(d)) / 86_400_000);
  if (days === 0) return words.today;
  if (days === 1) return words.yesterday;
  const f = formatters(language);
  return days > 1 && days < 7 ? f.weekday.format(d) : f.date.format(d);
}
