// @vitest-environment happy-dom
/** One row of the message list: header, body (mentions marked, text never markup), reactions, thread link, actions. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message, ThreadSummary } from '../../../../shared/api/contract.js';
import { DayRow, MessageRowView, type MessageRowProps } from '../../../../renderer/src/components/message-row.js';
import { messageOf } from '../../../fixtures/contract-values.js';
import { messageRows } from '../../../../renderer/src/conversations/message-rows.js';

// Times read in UTC, whatever the machine's zone.
beforeAll(() => void vi.stubEnv('TZ', 'UTC'));
afterAll(() => void vi.unstubAllEnvs());
afterEach(cleanup);

const thread = (replyCount: number): ThreadSummary => ({
  target: '#general:ab12cd',
  parent: '#general',
  root: null,
  replyCount,
  lastReplyAt: null,
});

function setup(message: Message, over: Partial<MessageRowProps> = {}) {
  const props: MessageRowProps = {
    message,
    grouped: false,
    language: 'en',
    agentIds: new Set(['claude']),
    thread: undefined,
    active: false,
    copied: false,
    onActivate: vi.fn(),
    onCopy: vi.fn(),
    onReplyInThread: vi.fn(),
    ...over,
  };
  render(<MessageRowView {...props} />);
  return { props, article: screen.getByRole('article') };
}
const agentMessage = messageOf({ authorId: 'claude', authorName: 'Claude', authorKind: 'agent' });

describe('MessageRowView', () => {
  it('heads a message with its author and time; the operator is "you"', () => {
    const { article } = setup(messageOf());
    expect(article.querySelector('.message-author')?.textContent).toBe('you');
    expect(article.querySelector('.avatar')?.textContent).toBe('Y');
    const time = article.querySelector('header time') as HTMLElement;
    expect(time.textContent).toBe('9:05 AM');
    expect(time.getAttribute('dateTime')).toBe('2026-03-02T09:05:00.000Z');
    expect(time.getAttribute('title')).toMatch(/2026/);
    cleanup();
    setup(agentMessage, { language: 'zh-CN' });
    expect(screen.getByRole('article').querySelector('.message-author')?.textContent).toBe('Claude');
    expect(screen.getByRole('article').querySelector('header time')?.textContent).toBe('09:05');
  });

  it("renders an agent's text as text, never markup, and marks mentions of known agents only", () => {
    const { article } = setup(
      messageOf({ ...agentMessage, content: '<img src=x onerror=alert(1)> @claude and @nobody <b>bold</b>' }),
    );
    const body = article.querySelector('.message-body') as HTMLElement;
    expect(body.querySelector('img, b')).toBeNull();
    expect(body.textContent).toBe('<img src=x onerror=alert(1)> @claude and @nobody <b>bold</b>');
    expect([...body.querySelectorAll('.mention')].map((m) => m.textContent)).toEqual(['@claude']);
  });

  it('marks a re-delivered reply and lists reactions', () => {
    const { article } = setup(
      messageOf({
        ...agentMessage,
        redelivered: true,
        reactions: [{ emoji: '👍', authorId: 'codex', authorName: 'Codex' }],
      }),
    );
    expect(article.querySelector('.message-tag')?.textContent).toBe('re-delivered');
    const reactions = within(article).getByRole('list', { name: 'Reactions' });
    expect(within(reactions).getByRole('listitem').textContent).toBe('👍 Codex');
  });

  it('a grouped message shows a short time in the gutter and is named by author and time', () => {
    const { article } = setup(messageOf(), { grouped: true });
    expect(article.className).toContain('grouped');
    expect(article.querySelector('header')).toBeNull();
    expect(article.querySelector('.message-gutter time')?.textContent).toBe('9:05');
    expect(article.getAttribute('aria-label')).toBe('you, 9:05 AM');
  });

  it('links its thread by reply count and opens it with the message', async () => {
    const message = messageOf();
    const { props } = setup(message, { thread: thread(3) });
    await userEvent.click(screen.getByRole('button', { name: '3 replies' }));
    expect(props.onReplyInThread).toHaveBeenCalledExactlyOnceWith(message);
    cleanup();
    setup(message, { thread: thread(1), language: 'zh-CN' });
    expect(screen.getByRole('button', { name: '1 条回复' })).toBeTruthy();
    cleanup();
    setup(message, { thread: thread(0) });
    expect(document.querySelector('.thread-link')).toBeNull();
  });

  it('offers copy and reply-in-thread actions, in the Tab order only while active', async () => {
    const message = messageOf();
    const { props } = setup(message);
    const actions = within(screen.getByRole('group', { name: 'Message actions' })).getAllByRole('button');
    expect(actions.map((b) => [b.textContent, b.tabIndex])).toEqual([
      ['Copy text', -1],
      ['Reply in thread', -1],
    ]);
    await userEvent.click(actions[0] as HTMLElement);
    expect(props.onCopy).toHaveBeenCalledExactlyOnceWith(message);
    await userEvent.click(actions[1] as HTMLElement);
    expect(props.onReplyInThread).toHaveBeenCalledExactlyOnceWith(message);
    cleanup();
    setup(message, { active: true, copied: true, onReplyInThread: undefined });
    const only = within(screen.getByRole('group')).getAllByRole('button');
    expect(only.map((b) => [b.textContent, b.tabIndex])).toEqual([['Copied', 0]]);
  });

  it('becomes the active message when focused; a found message is marked', () => {
    const { props, article } = setup(messageOf({ id: 'm42' }), { found: true });
    expect(article.className).toContain('found');
    fireEvent.focus(article);
    expect(props.onActivate).toHaveBeenCalledWith('m42');
  });
});

describe('DayRow', () => {
  const now = Date.parse('2026-03-02T12:00:00.000Z');
  it('says Today and Yesterday in the UI language, else the date', () => {
    render(<DayRow at="2026-03-02T08:00:00.000Z" language="en" nowMs={now} />);
    expect(screen.getByRole('separator').textContent).toBe('Today');
    cleanup();
    render(<DayRow at="2026-03-01T08:00:00.000Z" language="zh-CN" nowMs={now} />);
    expect(screen.getByRole('separator').textContent).toBe('昨天');
    cleanup();
    render(<DayRow at="2025-12-25T08:00:00.000Z" language="en" nowMs={now} />);
    expect(screen.getByRole('separator').textContent).toBe('December 25, 2025');
  });
});

describe('MessageRowView: where a message came from (issue 40 item 9)', () => {
  it('an operator message that came in from Telegram says "via Telegram" (来自 Telegram); one written here says nothing', () => {
    setup(messageOf({ authorKind: 'operator', responseId: 'telegram:4107' }));
    const origin = document.querySelector('.message-origin') as HTMLElement;
    expect(origin.textContent).toBe('via Telegram');
    expect(origin.getAttribute('data-origin')).toBe('telegram');
    cleanup();
    setup(messageOf({ authorKind: 'operator', responseId: 'telegram:4107' }), { language: 'zh-CN' });
    expect(document.querySelector('.message-origin')?.textContent).toBe('来自 Telegram');
    cleanup();
    setup(messageOf({ authorKind: 'operator', responseId: null }));
    expect(document.querySelector('.message-origin')).toBeNull();
    cleanup();
    setup(messageOf({ authorId: 'claude', authorName: 'Claude', authorKind: 'agent', responseId: 'rsp_1' }));
    expect(document.querySelector('.message-origin')).toBeNull();
  });

  it('a message from another channel is never grouped under a header written here', () => {
    const here = messageOf({ id: 'a', seq: 1, authorKind: 'operator', responseId: null });
    const phone = messageOf({ id: 'b', seq: 2, authorKind: 'operator', responseId: 'telegram:9' });
    const phoneAgain = messageOf({ id: 'c', seq: 3, authorKind: 'operator', responseId: 'telegram:10' });
    const grouped = messageRows([here, phone, phoneAgain]).flatMap((r) => (r.kind === 'message' ? [r.grouped] : []));
    expect(grouped).toEqual([false, false, true]);
  });
});
