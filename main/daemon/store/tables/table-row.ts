/** What every table module shares: the row shape node:sqlite returns and its nullable-text reader. */
import type { SQLOutputValue } from 'node:sqlite';

export type Row = Record<string, SQLOutputValue>;

export const str = (v: SQLOutputValue | undefined): string | null => (v === null || v === undefined ? null : String(v));

/** Rows an unbounded list returns when the caller gives no limit. */
const DEFAULT_LIST_LIMIT = 200;

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  return Math.max(1, Math.min(10_000, Math.floor(limit)));
}
