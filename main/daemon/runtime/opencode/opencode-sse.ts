/**
 * Decodes OpenCode's `GET /event` stream (SSE, research/runtimes.md §3 "OpenCode") into events:
 * the SSE framing is `eventsource-parser`'s (chunk boundaries, multi-line `data:`, comments and
 * keep-alives, CR/LF/CRLF line ends), each event's `data` is one JSON `{type, properties}`.
 * A frame that is not such an object is reported as a value (`onBad`), never thrown; the next
 * frame is independent. The text reaches the SSE parser line by line through the shared bounded
 * reader (../line-reader.ts, issue 29): linear, and a line over its cap is dropped and reported
 * (`kind: 'line_dropped'`), the stream goes on.
 */
import { createParser } from 'eventsource-parser';
import { LineReader, type DroppedLine } from '../line-reader.js';
import type { OpencodeEvent } from './opencode-events.js';

export interface OpencodeBadFrame {
  /**
   * `sse`: the framing itself (a field SSE does not know); `json`: `data` is not JSON; `shape`: not
   * `{type}`; `handler`: the consumer threw; `line_dropped`: a line over the reader's cap (issue 29).
   */
  readonly kind: 'sse' | 'json' | 'shape' | 'handler' | 'line_dropped';
  readonly reason: string;
  /** The frame's `data` (or the offending line), bounded. */
  readonly data: string;
  /** `line_dropped`: the dropped line's length and the cap (never its text). */
  readonly dropped?: DroppedLine;
}

const MAX_BAD_DATA = 300;

interface OpencodeEventDecoder {
  /** Feeds the next decoded text chunk (any split). */
  feed(chunk: string): void;
}

export function createOpencodeEventDecoder(
  onEvent: (e: OpencodeEvent) => void,
  onBad: (bad: OpencodeBadFrame) => void = () => undefined,
  maxLineChars?: number,
): OpencodeEventDecoder {
  const bad = (kind: OpencodeBadFrame['kind'], reason: string, data: string) =>
    onBad({ kind, reason, data: data.slice(0, MAX_BAD_DATA) });
  const parser = createParser({
    onEvent: ({ data }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch (err) {
        return bad('json', err instanceof Error ? err.message : String(err), data);
      }
      if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { type?: unknown }).type !== 'string')
        return bad('shape', 'not an object with a string "type"', data);
      const { type, properties } = parsed as { type: string; properties?: unknown };
      const props = typeof properties === 'object' && properties !== null ? properties : {};
      try {
        onEvent({ type, properties: props as Record<string, unknown> });
      } catch (err) {
        // A consumer bug must not break the stream (nor crash the daemon from a socket callback).
        bad('handler', err instanceof Error ? err.message : String(err), data);
      }
    },
    onError: (err) => bad('sse', err.message, err.line ?? ''),
  });
  const lines = new LineReader({
    lineEnds: 'any',
    ...(maxLineChars === undefined ? {} : { maxLineChars }),
    onDropped: (dropped) =>
      onBad({
        kind: 'line_dropped',
        reason: `a line of ${dropped.chars} characters is over the ${dropped.limit}-character cap`,
        data: '',
        dropped,
      }),
  });
  return {
    feed: (chunk) => {
      for (const line of lines.push(chunk)) parser.feed(`${line}\n`);
    },
  };
}
