/**
 * Splits Claude Code's `--output-format stream-json` stdout into JSON objects, one per line.
 * A line that is not a JSON object is reported, never thrown (the CLI may print a plain
 * error line such as "No conversation found with session ID: …"). The lines are the shared
 * bounded reader's (../line-reader.ts, issue 29): linear, and a line over its cap is dropped
 * and reported through `onDropped`.
 */
import { LineReader, type LineReaderOptions } from '../line-reader.js';

export type StreamJsonLine =
  { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly line: string };

export class StreamJsonParser {
  readonly #lines: LineReader;

  constructor(options: LineReaderOptions = {}) {
    this.#lines = new LineReader(options);
  }

  /** Feeds a chunk; returns the complete lines it finished. */
  push(chunk: string): StreamJsonLine[] {
    return this.#lines
      .push(chunk)
      .filter((l) => l.trim() !== '')
      .map(parseLine);
  }

  /** The unterminated rest at end of stream. */
  end(): StreamJsonLine[] {
    const rest = this.#lines.end();
    return rest === null || rest.trim() === '' ? [] : [parseLine(rest)];
  }
}

function parseLine(line: string): StreamJsonLine {
  try {
    const value: unknown = JSON.parse(line);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
  } catch {
    /* not JSON */
  }
  return { ok: false, line };
}
