/**
 * The only traces runtime output may leave (contract §6.5, §9.3): byte and rune counts of local
 * text, and bounded one-line failure details. One definition for runtimes, wakes and logs.
 */

/** Longest failure detail carried by an event, a wake status or a log line. */
export const DETAIL_MAX = 300;

/** Byte and rune counts of local text: the only trace of it an event may carry. */
export function textMetrics(text: string): { bytes: number; runes: number } {
  let runes = 0;
  for (const _ of text) runes += 1;
  return { bytes: Buffer.byteLength(text, 'utf8'), runes };
}

/** A runtime error text as one line of at most `max` characters. */
export function boundedDetail(text: string, max = DETAIL_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
