/**
 * issue 29 "Bounded input everywhere": the one line reader for a runtime's stdout (Claude Code
 * stream-json, Codex app-server JSON-RPC) and OpenCode's SSE stream. Linear: each chunk is
 * scanned once from where the last scan stopped, and an unfinished line is kept as its pieces,
 * joined once when its newline arrives (never re-split or re-concatenated per chunk — the old
 * `buffer += chunk; buffer.split('\n')` was quadratic in a long line). Capped: a line longer
 * than `maxLineChars` is not kept; its pieces are dropped as they arrive, and when its newline
 * comes the drop is reported (`onDropped`, with its length — never its text) and reading goes
 * on with the next line. Line ends are `\n` (a `\r` before it stays on the line: JSON ignores
 * it), or with `lineEnds: 'any'` (SSE) each of `\r\n`, `\n` and `\r`.
 */

/** The default cap: far above any stream-json / JSON-RPC / SSE line a runtime writes in practice. */
export const MAX_RUNTIME_LINE_CHARS = 16 * 1024 * 1024;

export interface DroppedLine {
  /** The dropped line's length in UTF-16 code units (as counted by JavaScript strings). */
  readonly chars: number;
  /** The cap it exceeded. */
  readonly limit: number;
}

export interface LineReaderOptions {
  readonly maxLineChars?: number;
  readonly onDropped?: (dropped: DroppedLine) => void;
  /** `lf` (default): lines end at `\n`; `any`: at `\r\n`, `\n` or `\r` (the SSE line ends). */
  readonly lineEnds?: 'lf' | 'any';
}

/** What a reader did, for the linearity test and the bench (characters scanned and copied). */
export interface LineReaderWork {
  /** Characters searched for a newline (each input character once). */
  readonly scanned: number;
  /** Characters copied into a joined line (each kept character at most once). */
  readonly copied: number;
}

const ANY_END = /[\r\n]/g;

export class LineReader {
  readonly #max: number;
  readonly #onDropped: (dropped: DroppedLine) => void;
  readonly #anyEnd: boolean;
  /** `any`: the last chunk ended in `\r`, so a `\n` starting the next one ends nothing. */
  #afterCr = false;
  /** The pieces of the unfinished line (kept only while it is within the cap). */
  #pieces: string[] = [];
  /** The unfinished line's length so far (counted on when it is over the cap and dropped). */
  #length = 0;
  #over = false;
  #scanned = 0;
  #copied = 0;

  constructor(options: LineReaderOptions = {}) {
    this.#max = options.maxLineChars ?? MAX_RUNTIME_LINE_CHARS;
    if (!Number.isInteger(this.#max) || this.#max < 1)
      throw new RangeError(`LineReader: maxLineChars must be a positive integer, got ${String(options.maxLineChars)}`);
    this.#onDropped = options.onDropped ?? (() => undefined);
    this.#anyEnd = options.lineEnds === 'any';
  }

  get work(): LineReaderWork {
    return { scanned: this.#scanned, copied: this.#copied };
  }

  /** Feeds a chunk (any split); returns the lines it finished, without their `\n`. */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    if (this.#afterCr && chunk.startsWith('\n')) start = 1;
    this.#afterCr = false;
    for (;;) {
      const end = this.#lineEnd(chunk, start);
      this.#scanned += (end === -1 ? chunk.length : end + 1) - start;
      if (end === -1) {
        if (start < chunk.length) this.#hold(chunk.slice(start));
        return lines;
      }
      this.#hold(chunk.slice(start, end));
      const line = this.#finish();
      if (line !== null) lines.push(line);
      start = end + 1;
      if (chunk[end] === '\r') {
        if (start === chunk.length) this.#afterCr = true;
        else if (chunk[start] === '\n') start += 1;
      }
    }
  }

  /** The unterminated rest at end of stream (null when there is none, or it was over the cap). */
  end(): string | null {
    this.#afterCr = false;
    if (this.#length === 0 && !this.#over) return null;
    return this.#finish();
  }

  /** Where the next line end is in `chunk` from `from` (-1: none); each character is searched once. */
  #lineEnd(chunk: string, from: number): number {
    if (!this.#anyEnd) return chunk.indexOf('\n', from);
    ANY_END.lastIndex = from;
    return ANY_END.exec(chunk)?.index ?? -1;
  }

  #hold(piece: string): void {
    this.#length += piece.length;
    if (this.#over) return;
    if (this.#length > this.#max) {
      this.#over = true;
      this.#pieces = [];
      return;
    }
    if (piece !== '') this.#pieces.push(piece);
  }

  #finish(): string | null {
    const { length, over } = { length: this.#length, over: this.#over };
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#length = 0;
    this.#over = false;
    if (over) {
      this.#onDropped({ chars: length, limit: this.#max });
      return null;
    }
    if (pieces.length <= 1) return pieces[0] ?? '';
    this.#copied += length;
    return pieces.join('');
  }
}
