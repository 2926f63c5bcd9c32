// @vitest-environment happy-dom
/** The virtualised message list: only a window of rows renders, it follows the newest, keys move between messages. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../../shared/api/contract.js';
import { MessageList, type MessageListProps } from '../../../../renderer/src/components/message-list.js';
import { agentOf, messageOf } from '../../../fixtures/contract-values.js';

// happy-dom lays nothing out: give the scroll element a viewport and every row a height, so the
// virtualizer has a window to fill (sizes mocked, nothing skipped).
const VIEWPORT = 400;
const ROW = 50;
/** Extra height of the canvas, as rows measured taller than the virtualizer's estimate add it. */
let grown = 0;
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(ROW);
  // The log scrolls over its canvas, whose height the virtualizer sets.
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return (Number.parseFloat(this.querySelector<HTMLElement>('.message-canvas')?.style.height ?? '') || 0) + grown;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const messages = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) =>
    messageOf({
      id: `m${i + 1}`,
      seq: i + 1,
      authorId: i % 2 === 0 ? 'operator' : 'claude',
      authorName: i % 2 === 0 ? 'You' : 'Claude',
      authorKind: i % 2 === 0 ? 'operator' : 'agent',
      content: `message ${i + 1}`,
      createdAt: new Date(Date.parse('2026-03-02T09:00:00.000Z') + i * 600_000).toISOString(),
    }),
  );

function setup(over: Partial<MessageListProps> = {}) {
  const props: MessageListProps = {
    target: '#general',
    title: '#general',
    messages: messages(3),
    hasMore: false,
    loadingOlder: false,
    language: 'en',
    agents: [agentOf()],
    onLoadOlder: vi.fn(),
    onReplyInThread: vi.fn(),
    ...over,
  };
  const view = render(<MessageList {...props} />);
  return { props, view, log: screen.getByRole('log') };
}
/** The person scrolls from the newest up to `top` (happy-dom lays nothing out, so the list is put at its end first). */
function scrollUp(log: HTMLElement, top: number): void {
  log.scrollTop = log.scrollHeight;
  fireEvent.scroll(log);
  log.scrollTop = top;
  fireEvent.scroll(log);
}
const seqs = () => [...document.querySelectorAll('article[data-seq]')].map((a) => Number(a.getAttribute('data-seq')));

describe('MessageList', () => {
  it('is a log named after its conversation (en and 简体中文)', () => {
    setup();
    expect(screen.getByRole('log', { name: 'Messages in #general' })).toBeTruthy();
    cleanup();
    setup({ language: 'zh-CN' });
    expect(screen.getByRole('log', { name: '#general 中的消息' })).toBeTruthy();
  });

  it('renders the messages in order with their day separator', () => {
    setup();
    expect(seqs()).toEqual([1, 2, 3]);
    expect(document.querySelectorAll('[role="separator"]')).toHaveLength(1);
    expect(document.querySelector('article[data-seq="2"] .message-author')?.textContent).toBe('Claude');
  });

  it('renders only a window of a long conversation, at its newest message', () => {
    const { log } = setup({ messages: messages(1000) });
    expect(log.scrollTop).toBeGreaterThan(40_000);
    fireEvent.scroll(log);
    const shown = seqs();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(60);
    expect(shown).toContain(1000);
    expect(shown).not.toContain(1);
  });

  it('says how to start an empty conversation, or what its pane says; nothing while older pages exist', () => {
    setup({ messages: [] });
    expect(screen.getByText('No messages yet. Mention an agent with @ to wake it.')).toBeTruthy();
    cleanup();
    setup({ messages: [], emptyText: 'No replies yet.' });
    expect(screen.getByText('No replies yet.')).toBeTruthy();
    cleanup();
    setup({ messages: [], hasMore: true });
    expect(document.querySelector('.messages-empty')).toBeNull();
    cleanup();
    // issue 40 item 6: an empty #general shows the welcome in the text's place, and only while empty.
    setup({ messages: [], emptyContent: <section aria-label="welcome">hi</section> });
    expect(screen.getByRole('region', { name: 'welcome' })).toBeTruthy();
    expect(document.querySelector('.messages-empty')).toBeNull();
    cleanup();
    setup({ messages: messages(1), emptyContent: <section aria-label="welcome">hi</section> });
    expect(screen.queryByRole('region', { name: 'welcome' })).toBeNull();
  });

  it('says when older messages are loading', () => {
    setup({ loadingOlder: true, hasMore: true });
    expect(screen.getByText('Loading older messages…')).toBeTruthy();
  });

  it("renders an agent's text as text, never markup", () => {
    setup({
      messages: [messageOf({ authorKind: 'agent', authorName: '<i>x</i>', content: '<script>alert(1)</script>' })],
    });
    expect(document.querySelector('article script, article i')).toBeNull();
    expect(document.querySelector('.message-body')?.textContent).toBe('<script>alert(1)</script>');
  });

  it('arrow keys from the log move to the newest message, then between messages', () => {
    const { log } = setup();
    log.focus();
    fireEvent.keyDown(log, { key: 'ArrowUp' });
    expect(document.activeElement?.getAttribute('data-seq')).toBe('3');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowUp' });
    expect(document.activeElement?.getAttribute('data-seq')).toBe('2');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement?.getAttribute('data-seq')).toBe('3');
  });

  it("the focused message's actions join the Tab order", () => {
    const { log } = setup();
    fireEvent.keyDown(log, { key: 'ArrowUp' });
    const tabbable = [...document.querySelectorAll<HTMLButtonElement>('.message-actions button')].filter(
      (b) => b.tabIndex === 0,
    );
    expect(tabbable.map((b) => b.closest('article')?.getAttribute('data-seq'))).toEqual(['3', '3']);
  });

  it('asks for older messages when scrolled near the top, unless they are loading', () => {
    const { log, props, view } = setup({ messages: messages(30), hasMore: true });
    log.scrollTop = 100;
    fireEvent.scroll(log);
    expect(props.onLoadOlder).toHaveBeenCalledTimes(1);
    view.rerender(<MessageList {...props} loadingOlder />);
    fireEvent.scroll(log);
    expect(props.onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('away from the bottom, counts new messages under "Jump to latest", which returns to the newest', () => {
    const { log, props, view } = setup({ messages: messages(30) });
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
    scrollUp(log, 300);
    view.rerender(<MessageList {...props} messages={messages(32)} />);
    const jump = screen.getByRole('button', { name: /Jump to latest/ });
    expect(jump.querySelector('.badge')?.textContent).toBe('2 new');
    fireEvent.click(jump);
    expect(log.scrollTop).toBeGreaterThan(32 * ROW - VIEWPORT - 50);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
  });

  it('issue 40 item 9: a send from the composer brings the newest into view even when scrolled up, and follows the sent message', () => {
    const { log, props, view } = setup({ messages: messages(30) });
    scrollUp(log, 300);
    expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeTruthy();
    view.rerender(<MessageList {...props} sentNonce={1} />);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
    // The sent message arrives (message.stored): it is followed into view, not counted "new below".
    view.rerender(<MessageList {...props} sentNonce={1} messages={messages(31)} />);
    expect(log.scrollTop).toBeGreaterThan(31 * ROW - VIEWPORT - 50);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
    // Viewing an older stretch (a search result): the send loads the newest.
    const onLoadLatest = vi.fn();
    view.rerender(<MessageList {...props} sentNonce={1} hasNewer onLoadLatest={onLoadLatest} onLoadNewer={vi.fn()} />);
    view.rerender(<MessageList {...props} sentNonce={2} hasNewer onLoadLatest={onLoadLatest} onLoadNewer={vi.fn()} />);
    expect(onLoadLatest).toHaveBeenCalledTimes(1);
  });

  it('issue 44: a jump to the newest that lands in steps keeps following it (only a scroll up leaves the bottom)', () => {
    const { log, props, view } = setup({ messages: messages(30) });
    scrollUp(log, 300);
    fireEvent.click(screen.getByRole('button', { name: /Jump to latest/ }));
    // The rows it brought in measure taller than estimated: the list grows under a scroll position
    // that has not moved up (the virtualizer then scrolls on), and the scroll event comes in between.
    const top = log.scrollTop;
    grown = VIEWPORT + 300; // happy-dom leaves scrollTop at scrollHeight (no clamp to the end): 300 px short
    log.scrollTop = top;
    fireEvent.scroll(log);
    grown = 0;
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
    // Still following: the next message is brought into view, not counted "new below".
    view.rerender(<MessageList {...props} messages={messages(31)} />);
    expect(log.scrollTop).toBeGreaterThan(31 * ROW - VIEWPORT - 50);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
    // The person scrolling up does leave it.
    log.scrollTop = 200;
    fireEvent.scroll(log);
    expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeTruthy();
  });

  it('offers "Jump to latest" while newer messages not held it loads them', () => {
    const onLoadLatest = vi.fn();
    setup({ messages: messages(30), hasNewer: true, onLoadLatest, onLoadNewer: vi.fn() });
    const jump = screen.getByRole('button', { name: /Jump to latest/ });
    fireEvent.click(jump);
    expect(onLoadLatest).toHaveBeenCalledTimes(1);
  });

  it('copies a message with its action and says Copied', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
    setup();
    fireEvent.click(document.querySelector('article[data-seq="2"] .message-actions button') as HTMLElement);
    expect(writeText).toHaveBeenCalledExactlyOnceWith('message 2');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('opens the thread of a message with that message', () => {
    const { props } = setup();
    fireEvent.click(screen.getAllByRole('button', { name: 'Reply in thread' })[0] as HTMLElement);
    expect(props.onReplyInThread).toHaveBeenCalledExactlyOnceWith(props.messages[0]);
  });
});
