/**
 * Decoding OpenCode's `GET /event` SSE stream (eventsource-parser framing + `{type, properties}`
 * JSON): any chunk split, multi-line data, comments and keep-alives, CRLF, and bad frames as values.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isOpencodeEvent,
  type OpencodeBusEvent,
  type OpencodeBusEventOf,
  type OpencodeEvent,
  type OpencodeToolState,
} from '../../../../../../main/daemon/runtime/opencode/opencode-events.js';
import {
  createOpencodeEventDecoder,
  type OpencodeBadFrame,
} from '../../../../../../main/daemon/runtime/opencode/opencode-sse.js';

function decode(chunks: readonly string[], onEvent?: (e: OpencodeEvent) => void) {
  const events: OpencodeEvent[] = [];
  const bad: OpencodeBadFrame[] = [];
  const decoder = createOpencodeEventDecoder(
    (e) => {
      events.push(e);
      onEvent?.(e);
    },
    (b) => bad.push(b),
  );
  for (const chunk of chunks) decoder.feed(chunk);
  return { events, bad };
}

const status = JSON.stringify({ type: 'session.status', properties: { sessionID: 'ses_1', status: { type: 'busy' } } });
const tool = JSON.stringify({
  type: 'message.part.updated',
  properties: {
    sessionID: 'ses_1',
    time: 1,
    part: {
      id: 'prt_1',
      sessionID: 'ses_1',
      messageID: 'msg_1',
      type: 'tool',
      callID: 'c1',
      tool: 'agentteam_message_send',
      state: { status: 'running', input: {} },
    },
  },
});
const idle = JSON.stringify({ type: 'session.idle', properties: { sessionID: 'ses_1' } });
const STREAM = `data: ${status}\n\ndata: ${tool}\n\ndata: ${idle}\n\n`;

describe('OpenCode /event decoding', () => {
  it('yields the same events whatever the chunk boundaries (every split point, and one char at a time)', () => {
    const whole = decode([STREAM]);
    expect(whole.events.map((e) => e.type)).toEqual(['session.status', 'message.part.updated', 'session.idle']);
    expect(whole.bad).toEqual([]);
    for (let cut = 1; cut < STREAM.length; cut++)
      expect(decode([STREAM.slice(0, cut), STREAM.slice(cut)]).events).toEqual(whole.events);
    expect(decode([...STREAM]).events).toEqual(whole.events);
  });

  it('joins multi-line data with newlines before parsing', () => {
    const pretty = JSON.stringify(JSON.parse(status), null, 2);
    const frame = `${pretty
      .split('\n')
      .map((l) => `data: ${l}`)
      .join('\n')}\n\n`;
    const { events, bad } = decode([frame]);
    expect(bad).toEqual([]);
    expect(events).toEqual([JSON.parse(status)]);
  });

  it('ignores comments, keep-alives, event/id/retry fields and blank lines', () => {
    const { events, bad } = decode([
      ': keep-alive\n\n',
      '\n\n',
      `event: message\nid: evt_1\nretry: 1000\ndata: ${idle}\n\n`,
      ':\n',
    ]);
    expect(bad).toEqual([]);
    expect(events).toEqual([JSON.parse(idle)]);
  });

  it('accepts CRLF (and lone CR) line ends, also split between the CR and the LF', () => {
    const crlf = STREAM.replaceAll('\n', '\r\n');
    const cut = crlf.indexOf('\r\n') + 1;
    expect(decode([crlf.slice(0, cut), crlf.slice(cut)]).events.map((e) => e.type)).toEqual([
      'session.status',
      'message.part.updated',
      'session.idle',
    ]);
    expect(decode([STREAM.replaceAll('\n', '\r')]).events).toHaveLength(3);
  });

  it('reports an unparseable or shapeless frame as a value and keeps decoding', () => {
    const { events, bad } = decode([
      'data: not json\n\n',
      'data: [1,2]\n\n',
      'data: {"properties":{}}\n\n',
      'bogus-field: x\n\n',
      `data: ${idle}\n\n`,
    ]);
    expect(events.map((e) => e.type)).toEqual(['session.idle']);
    expect(bad.map((b) => b.kind)).toEqual(['json', 'shape', 'shape', 'sse']);
    expect(bad[0]?.data).toBe('not json');
  });

  it('an event without properties gets an empty object; a throwing consumer is reported, not thrown', () => {
    let calls = 0;
    const { events, bad } = decode(['data: {"type":"server.connected"}\n\n', `data: ${idle}\n\n`], () => {
      if (calls++ === 0) throw new Error('consumer bug');
    });
    expect(events).toEqual([{ type: 'server.connected', properties: {} }, JSON.parse(idle)]);
    expect(bad).toEqual([{ kind: 'handler', reason: 'consumer bug', data: '{"type":"server.connected"}' }]);
  });

  it('known events narrow by type to the OpenAPI-derived shapes', () => {
    const [busy, part, end] = decode([STREAM]).events;
    if (busy === undefined || part === undefined || end === undefined) throw new Error('missing events');
    expect(isOpencodeEvent(busy, 'session.idle')).toBe(false);
    if (!isOpencodeEvent(busy, 'session.status')) throw new Error('expected session.status');
    expectTypeOf(busy).toEqualTypeOf<OpencodeBusEventOf<'session.status'>>();
    expectTypeOf(busy).toExtend<OpencodeBusEvent>();
    expect(busy.properties.status.type).toBe('busy');
    if (!isOpencodeEvent(part, 'message.part.updated')) throw new Error('expected message.part.updated');
    const p = part.properties.part;
    if (p.type !== 'tool') throw new Error('expected a tool part');
    expectTypeOf(p.state).toEqualTypeOf<OpencodeToolState>();
    expect([p.tool, p.state.status]).toEqual(['agentteam_message_send', 'running']);
    expect(isOpencodeEvent(end, 'session.idle') && end.properties.sessionID).toBe('ses_1');
  });
});

describe('the SSE decoder on the bounded line reader (issue 29)', () => {
  it('a data line over the cap is reported (line_dropped, its length) and the next frame decodes', () => {
    const bad: OpencodeBadFrame[] = [];
    const events: OpencodeEvent[] = [];
    const decoder = createOpencodeEventDecoder(
      (e) => events.push(e),
      (b) => bad.push(b),
      200,
    );
    const big = `data: ${JSON.stringify({ type: 'x', properties: { text: 'p'.repeat(300) } })}`;
    decoder.feed(`${big}\n\ndata: ${status}\n\n`);
    expect(events.map((e) => e.type)).toEqual(['session.status']);
    expect(bad).toEqual([
      {
        kind: 'line_dropped',
        reason: `a line of ${big.length} characters is over the 200-character cap`,
        data: '',
        dropped: { chars: big.length, limit: 200 },
      },
    ]);
  });
});
