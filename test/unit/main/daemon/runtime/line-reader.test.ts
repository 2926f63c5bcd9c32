/**
 * issue 29 "Bounded input everywhere": the one line reader of runtime output is linear (work is
 * counted, never timed) and capped (a line over the cap is reported by its length and dropped;
 * the lines around it come through).
 */
import { describe, expect, it } from 'vitest';
import { LineReader, type DroppedLine } from '../../../../../main/daemon/runtime/line-reader.js';
import { StreamJsonParser } from '../../../../../main/daemon/runtime/claude-code/stream-json-parser.js';

const feed = (reader: LineReader, chunks: readonly string[]) => chunks.flatMap((c) => reader.push(c));

/** `text` cut into pieces of `size` characters. */
const pieces = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('LineReader', () => {
  it('splits lines across any chunking, keeps an empty line, returns the rest at end', () => {
    const text = 'one\ntwo\n\nthree\nrest';
    for (const size of [1, 2, 3, 7, text.length]) {
      const reader = new LineReader();
      expect(feed(reader, pieces(text, size))).toEqual(['one', 'two', '', 'three']);
      expect(reader.end()).toBe('rest');
      expect(reader.end()).toBeNull();
    }
  });

  it(`lineEnds 'any': \\r\\n, \\n and \\r each end one line, also when \\r\\n is cut between chunks`, () => {
    const text = 'a\r\nb\rc\n\r\nd\r';
    for (const size of [1, 2, 3, text.length]) {
      const reader = new LineReader({ lineEnds: 'any' });
      expect(feed(reader, pieces(text, size))).toEqual(['a', 'b', 'c', '', 'd']);
      expect(reader.end()).toBeNull();
    }
  });

  it('a line over the cap is dropped and reported by its length; the next lines come through', () => {
    const dropped: DroppedLine[] = [];
    const reader = new LineReader({ maxLineChars: 10, onDropped: (d) => dropped.push(d) });
    const long = 'x'.repeat(25);
    expect(feed(reader, ['ok\n', ...pieces(`${long}\nafter\n`, 4), 'exactly10!\n'])).toEqual([
      'ok',
      'after',
      'exactly10!',
    ]);
    expect(dropped).toEqual([{ chars: 25, limit: 10 }]);
    // Over the cap at end of stream: dropped too, never returned.
    reader.push('y'.repeat(11));
    expect(reader.end()).toBeNull();
    expect(dropped).toEqual([
      { chars: 25, limit: 10 },
      { chars: 11, limit: 10 },
    ]);
  });

  it('refuses a cap that is not a positive integer, naming it', () => {
    expect(() => new LineReader({ maxLineChars: 0 })).toThrow(/maxLineChars must be a positive integer, got 0/);
  });

  // The measurement: 2/4/8 MiB lines took 104/258/1,122 ms (quadratic). Work, not time:
  // each character is searched once and copied at most once, whatever the line's length or chunking.
  it.each([2, 4, 8])('a %i MiB line in 64 KiB chunks: each character searched once, copied at most once', (mib) => {
    const line = 'z'.repeat(mib * 1024 * 1024);
    const reader = new LineReader({ maxLineChars: 16 * 1024 * 1024 });
    const out = feed(reader, [...pieces(line, 64 * 1024), '\n']);
    expect(out).toHaveLength(1);
    expect(out[0]?.length).toBe(line.length);
    expect(reader.work).toEqual({ scanned: line.length + 1, copied: line.length });
  });

  it('many short lines in one chunk: the work is the input, not lines × chunk', () => {
    const text = 'ab\n'.repeat(100_000);
    const reader = new LineReader({ lineEnds: 'any' });
    expect(reader.push(text)).toHaveLength(100_000);
    expect(reader.work).toEqual({ scanned: text.length, copied: 0 });
  });
});

describe('StreamJsonParser (Claude Code stdout) on the bounded reader', () => {
  it('a stream-json line over the cap is dropped and reported; the messages around it are parsed', () => {
    const dropped: DroppedLine[] = [];
    const parser = new StreamJsonParser({ maxLineChars: 64, onDropped: (d) => dropped.push(d) });
    const big = JSON.stringify({ type: 'assistant', text: 'q'.repeat(100) });
    const lines = parser.push(`{"type":"a"}\n${big}\n{"type":"b"}\n`);
    expect(lines).toEqual([
      { ok: true, value: { type: 'a' } },
      { ok: true, value: { type: 'b' } },
    ]);
    expect(dropped).toEqual([{ chars: big.length, limit: 64 }]);
  });
});
