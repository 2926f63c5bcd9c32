import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../shared/api/contract.js';
import { conversationTitle } from '../../../../renderer/src/conversations/conversation-title.js';
import { mentionSpans, messageRows } from '../../../../renderer/src/conversations/message-rows.js';
import {
  adoptConversations,
  loadReadMarkers,
  markRead,
  unreadCount,
} from '../../../../renderer/src/conversations/read-markers.js';
import { byteBudget } from '../../../../renderer/src/compose/byte-budget.js';
import { formatDay, formatTime } from '../../../../renderer/src/i18n/format.js';
import { timelineLine } from '../../../../renderer/src/status/timeline-copy.js';

process.env.TZ = 'UTC';

let seq = 0;
const msg = (authorId: string, createdAt: string, extra: Partial<Message> = {}): Message => ({
  id: `msg_${++seq}`,
  target: '#general',
  seq,
  authorId,
  authorName: authorId,
  authorKind: authorId === 'operator' ? 'operator' : 'agent',
  content: 'x',
  createdAt,
  responseId: null,
  redelivered: false,
  reactions: [],
  ...extra,
});

describe('message rows (issue 17)', () => {
  it('puts a date separator before each day and groups one author within five minutes', () => {
    const rows = messageRows([
      msg('operator', '2026-11-29T10:00:00Z'),
      msg('operator', '2026-11-29T10:03:00Z'),
      msg('demo', '2026-11-29T10:03:30Z'),
      msg('demo', '2026-11-29T10:20:00Z'),
      msg('demo', '2026-11-30T09:00:00Z'),
    ]);
    expect(rows.map((r) => (r.kind === 'day' ? 'day' : r.grouped ? 'g' : 'm'))).toEqual([
      'day',
      'm',
      'g',
      'm',
      'm',
      'day',
      'm',
    ]);
  });

  it('highlights only mentions of known agents', () => {
    expect(mentionSpans('@demo look, mail a@demo.org and @nobody, @demo.', new Set(['demo']))).toEqual([
      { text: '@demo', mention: true },
      { text: ' look, mail a@demo.org and @nobody, ', mention: false },
      { text: '@demo', mention: true },
      { text: '.', mention: false },
    ]);
  });

  it('titles DMs with the agent name and threads as "Thread in #channel"', () => {
    const agents = [{ id: 'demo', name: 'Demo', runtime: 'demo', model: null, state: 'idle', demo: true }] as const;
    expect(conversationTitle('dm:@demo', agents, 'en').title).toBe('Demo');
    expect(conversationTitle('#general:ab12cd34', agents, 'en')).toMatchObject({
      title: 'Thread in #general',
      parent: '#general',
      kind: 'thread',
    });
    expect(conversationTitle('#general:ab12cd34', agents, 'zh-CN').title).toBe('#general 中的话题');
    expect(conversationTitle('dm:@demo:ab12', agents, 'en').title).toBe('Thread in Demo');
  });

  it('formats times in the language: 24-hour in zh-CN; days relative to now', () => {
    expect(formatTime('2026-11-30T23:28:00Z', 'zh-CN')).toBe('23:28');
    expect(formatTime('2026-11-30T23:28:00Z', 'en')).toMatch(/11:28\sPM/);
    const now = Date.parse('2026-11-30T12:00:00Z');
    const words = { today: 'Today', yesterday: 'Yesterday' };
    expect(formatDay('2026-11-30T01:00:00Z', 'en', now, words)).toBe('Today');
    expect(formatDay('2026-11-29T01:00:00Z', 'en', now, words)).toBe('Yesterday');
    expect(formatDay('2026-10-01T01:00:00Z', 'zh-CN', now, words)).toBe('2026年10月1日');
  });
});

describe('read markers and unread counts (issue 17)', () => {
  it('a conversation seen first counts as read; new messages count until it is viewed', () => {
    let m = adoptConversations({}, [{ target: '#general', lastSeq: 7 }]);
    expect(unreadCount(m, { target: '#general', lastSeq: 7 })).toBe(0);
    expect(unreadCount(m, { target: '#general', lastSeq: 10 })).toBe(3);
    m = markRead(m, '#general', 10);
    expect(unreadCount(m, { target: '#general', lastSeq: 10 })).toBe(0);
    expect(markRead(m, '#general', 4)).toBe(m);
  });

  it('ignores a corrupt stored value', () => {
    expect(loadReadMarkers({ getItem: () => '{not json' })).toEqual({});
    expect(loadReadMarkers({ getItem: () => '{"#a":3,"#b":"x"}' })).toEqual({ '#a': 3 });
  });
});

describe('composer byte budget (issue 17)', () => {
  it('shows from 75 % of 32 KB and blocks above it, counting UTF-8 bytes', () => {
    expect(byteBudget('hello').show).toBe(false);
    expect(byteBudget('a'.repeat(24_576))).toMatchObject({ show: true, over: false, usedKb: '24', limitKb: '32' });
    // 3 bytes per CJK character: 11,000 characters are 33,000 bytes.
    expect(byteBudget('字'.repeat(11_000))).toMatchObject({ bytes: 33_000, over: true, usedKb: '32.2' });
  });
});

describe('inspector timeline in plain words (issue 17)', () => {
  const ev = (kind: 'status' | 'final_check' | 'beacon', status: string | null) =>
    ({ wakeToken: 'wk_1', kind, status, reason: null, detail: null, at: '2026-11-30T10:00:00Z' }) as never;
  it('says "Delivered to Claude", "Final check sent", "Replied" — and the same in Chinese', () => {
    expect(timelineLine(ev('status', 'queued'), 'Claude', 'en').label).toBe('Queued');
    expect(timelineLine(ev('status', 'delivered'), 'Claude', 'en').label).toBe('Delivered to Claude');
    expect(timelineLine(ev('final_check', null), 'Claude', 'en').label).toBe('Final check sent');
    expect(timelineLine(ev('status', 'reply_sent'), 'Claude', 'en').label).toBe('Replied');
    for (const e of [
      ev('status', 'delivered'),
      ev('final_check', null),
      ev('beacon', null),
      ev('status', 'reply_sent'),
    ])
      expect(timelineLine(e, 'Claude', 'zh-CN').label.replace('Claude', '')).not.toMatch(/[A-Za-z_]{3,}/);
  });
});

describe('short time beside grouped messages', () => {
  it('leaves out the day period so it fits the gutter', async () => {
    const { formatTimeShort } = await import('../../../../renderer/src/i18n/format.js');
    expect(formatTimeShort('2026-11-30T13:05:00Z', 'en')).toBe('1:05');
    expect(formatTimeShort('2026-11-30T13:05:00Z', 'zh-CN')).toBe('13:05');
  });
});
