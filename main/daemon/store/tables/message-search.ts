/**
 * Search across conversations (issue 17) over the `messages_fts` index (migration 4: FTS5,
 * trigram tokenizer). A person's text never reaches MATCH as syntax: it is split on white space
 * into terms, and each term of 3+ characters becomes one quoted FTS5 string ("…" with inner
 * quotes doubled), so `AND`, `*`, `:`, `(`, `"` or `NEAR` in the input are plain text. A trigram
 * index cannot match a term shorter than 3 characters (two-character Chinese words are common:
 * 部署), so such terms are matched with LIKE (escaped) on the same rows. All terms must occur.
 * Results are newest first; `before` pages on by the position of the last result.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Row } from './table-row.js';

/** At most this many terms of a query are used (the rest are ignored). */
const MAX_TERMS = 8;
/** Shortest term the trigram index can match. */
const TRIGRAM = 3;

export interface ParsedSearch {
  /** Every term, as typed (for highlighting). */
  readonly terms: readonly string[];
  /** The FTS5 MATCH expression of the long terms, or null when every term is short. */
  readonly match: string | null;
  /** LIKE patterns (escaped with `\`) of the short terms. */
  readonly likes: readonly string[];
}

const chars = (s: string): number => [...s].length;

/** Turns a person's text into a safe FTS5 query; null when it holds no term. */
export function parseSearch(text: string): ParsedSearch | null {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const raw of text.split(/\s+/u)) {
    // Control characters carry nothing searchable (and FTS5 rejects NUL in a string).
    const term = raw.replace(/\p{Cc}/gu, '');
    if (term === '' || seen.has(term.toLowerCase())) continue;
    seen.add(term.toLowerCase());
    terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  if (terms.length === 0) return null;
  const long = terms.filter((t) => chars(t) >= TRIGRAM);
  const short = terms.filter((t) => chars(t) < TRIGRAM);
  return {
    terms,
    match: long.length === 0 ? null : long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND '),
    likes: short.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
  };
}

export interface SearchPage {
  readonly rows: readonly Row[];
  /** Pass as `before` for the next (older) page; null when there is none. */
  readonly nextBefore: number | null;
}

export class MessageSearch {
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  /** Messages matching every term, newest first, strictly before the position `before`. */
  search(q: ParsedSearch, limit: number, before: number | undefined): SearchPage {
    const params: Record<string, string | number> = { before: before ?? Number.MAX_SAFE_INTEGER, limit: limit + 1 };
    q.likes.forEach((l, i) => (params[`like${i}`] = l));
    if (q.match !== null) params.match = q.match;
    const rows = this.statement(q.match !== null, q.likes.length).all(params);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    return { rows: shown, nextBefore: more ? Number(shown[shown.length - 1]!.rowid_) : null };
  }

  private statement(fts: boolean, likes: number): StatementSync {
    const key = `${fts ? 'f' : 'l'}${likes}`;
    let stmt = this.statements.get(key);
    if (stmt === undefined) {
      const like = Array.from({ length: likes }, (_, i) => ` AND m.content LIKE $like${i} ESCAPE '\\'`).join('');
      stmt = this.db.prepare(
        fts
          ? `SELECT m.* FROM messages_fts f JOIN messages m ON m.rowid_ = f.rowid
             WHERE messages_fts MATCH $match AND f.rowid < $before${like}
             ORDER BY f.rowid DESC LIMIT $limit`
          : `SELECT m.* FROM messages m WHERE m.rowid_ < $before${like} ORDER BY m.rowid_ DESC LIMIT $limit`,
      );
      this.statements.set(key, stmt);
    }
    return stmt;
  }
}

export interface SnippetPart {
  readonly text: string;
  readonly match: boolean;
}

/**
 * A short excerpt of `content` around the first match, split into plain and matched parts
 * (case-insensitive), so the UI renders text with marks and never HTML. White space is folded.
 */
export function snippetOf(content: string, terms: readonly string[], max = 160): SnippetPart[] {
  const text = content.replace(/\s+/g, ' ').trim();
  const lower = text.toLowerCase();
  const needles = terms.map((t) => t.toLowerCase()).filter((t) => t !== '');
  // Matched ranges, merged.
  const ranges: Array<[number, number]> = [];
  for (const n of needles) {
    for (let at = lower.indexOf(n); at !== -1; at = lower.indexOf(n, at + n.length)) ranges.push([at, at + n.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const first = merged[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(max / 4));
  const end = Math.min(text.length, start + max);
  start = Math.max(0, Math.min(start, end - max));
  const parts: SnippetPart[] = [];
  const push = (from: number, to: number, match: boolean): void => {
    if (to > from) parts.push({ text: text.slice(from, to), match });
  };
  let at = start;
  for (const [a, b] of merged) {
    if (b <= start || a >= end) continue;
    push(at, Math.max(at, a), false);
    push(Math.max(at, a), Math.min(b, end), true);
    at = Math.min(b, end);
  }
  push(at, end, false);
  if (start > 0) parts.unshift({ text: '…', match: false });
  if (end < text.length) parts.push({ text: '…', match: false });
  return parts;
}
