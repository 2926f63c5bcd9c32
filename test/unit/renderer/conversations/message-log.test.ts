import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../shared/api/contract.js';
import { emptyLog, mergeMessages, olderPageCursor } from '../../../../renderer/src/conversations/message-log.js';
import { groupConversations, matchConversations } from '../../../../renderer/src/conversations/conversation-groups.js';

const msg = (seq: number, target = '#general'): Message => ({
  id: `${target}/${seq}`,
  target,
  seq,
  authorId: 'you',
  authorName: 'you',
  authorKind: 'operator',
  content: `m${seq}`,
  createdAt: '2026-11-30T10:00:00Z',
  responseId: null,
  redelivered: false,
  reactions: [],
});

describe('message log', () => {
  it('keeps messages sorted by TargetSeq and unique, whatever order pages and events arrive in', () => {
    let log = emptyLog('#general');
    log = mergeMessages(log, [msg(201), msg(202)], true);
    log = mergeMessages(log, [msg(203)]);
    log = mergeMessages(log, [msg(202)]);
    log = mergeMessages(
      log,
      Array.from({ length: 200 }, (_, i) => msg(i + 1)),
      false,
    );
    expect(log.messages.map((m) => m.seq)).toEqual(Array.from({ length: 203 }, (_, i) => i + 1));
    expect(log.hasMore).toBe(false);
    expect(olderPageCursor(log)).toBe(1);
  });

  it('ignores messages of another target', () => {
    const log = mergeMessages(emptyLog('#general'), [msg(1, '#general:ab12')]);
    expect(log.messages).toEqual([]);
  });

  it('holds 100,000 messages built from pages of 500', () => {
    let log = emptyLog('#general');
    for (let top = 100_000; top > 0; top -= 500)
      log = mergeMessages(
        log,
        Array.from({ length: 500 }, (_, i) => msg(top - 499 + i)),
        top > 500,
      );
    expect(log.messages).toHaveLength(100_000);
    expect(log.messages[0]?.seq).toBe(1);
    expect(log.messages[99_999]?.seq).toBe(100_000);
  });
});

describe('conversation groups', () => {
  const c = (target: string, kind: 'channel' | 'dm' | 'thread', parent: string | null = null) => ({
    target,
    kind,
    title: target,
    parent,
    lastSeq: 0,
  });
  it('puts threads under their parent and keeps DMs apart', () => {
    const g = groupConversations([
      c('#general:ab12', 'thread', '#general'),
      c('dm:@claude', 'dm'),
      c('#general', 'channel'),
      c('#build', 'channel'),
      c('dm:@claude:xy99', 'thread', 'dm:@claude'),
    ]);
    expect(g.channels.map((x) => x.target)).toEqual(['#build', '#general']);
    expect(g.dms.map((x) => x.target)).toEqual(['dm:@claude']);
    expect(g.threads.get('#general')?.map((x) => x.target)).toEqual(['#general:ab12']);
    expect(g.threads.get('dm:@claude')?.map((x) => x.target)).toEqual(['dm:@claude:xy99']);
  });
  it('filters for the switcher', () => {
    expect(matchConversations([c('#general', 'channel'), c('#build', 'channel')], 'bu').map((x) => x.target)).toEqual([
      '#build',
    ]);
  });
});
