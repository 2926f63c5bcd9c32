/**
 * Splits Claude Code's `--output-format stream-json` stdout into JSON objects, one per line.
 * A line that is not a JSON object is reported, never thrown (the CLI may print a plain
 * error line such as "No conversation found with session ID: …").
 */
export type StreamJsonLine =
  { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly line: string };

export class StreamJsonParser {
  private buffer = '';

  /** Feeds a chunk; returns the complete lines it finished. */
  push(chunk: string): StreamJsonLine[] {
    this.buffer += chunk;
    const lines = this.buffer.split('\n');
    this.buffer = lines.pop() ?? '';
    return lines.filter((l) => l.trim() !== '').map(parseLine);
  }

  /** The unterminated rest at end of stream. */
  end(): StreamJsonLine[] {
    const rest = this.buffer;
    this.buffer = '';
    return rest.trim() === '' ? [] : [parseLine(rest)];
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
