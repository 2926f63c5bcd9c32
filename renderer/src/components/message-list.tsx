/**
 * The message list, virtualised with @tanstack/react-virtual so a conversation of 100,000
 * messages renders only what is on screen. Reads like a chat app (issue 17): date separators,
 * consecutive messages of one author grouped under one header, mentions highlighted, times in
 * the UI language's format, actions on each message (copy, reply in thread), reply counts.
 * It sticks to the bottom while the person is at the bottom — also when the list itself gets
 * shorter (a panel opens, the composer grows) — offers "Jump to latest" when they are not, and
 * loads older pages when they scroll near the top (keeping their place).
 * Wake statuses are never rendered here (contract §10.3): only the status area shows them.
 */
import { measureElement as measureRow, useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Message, ThreadSummary } from '../../../shared/api/contract.js';
import type { AgentIdentity } from '../state/agent-store.js';
import { messageRows } from '../conversations/message-rows.js';
import { copy, type Language } from '../i18n/copy.js';
import { DayRow, MessageRowView } from './message-row.js';

export interface MessageListProps {
  readonly target: string;
  /** What the log is called for assistive technology (the conversation's title). */
  readonly title: string;
  readonly messages: readonly Message[];
  readonly hasMore: boolean;
  readonly loadingOlder: boolean;
  readonly language: Language;
  readonly agents: readonly AgentIdentity[];
  /** Threads started from messages of this list, by root message id. */
  readonly threads?: ReadonlyMap<string, ThreadSummary>;
  /** What an empty conversation says (default: how to wake an agent). */
  readonly emptyText?: string;
  /** issue 40 item 6: what an empty conversation shows instead of the text (the first run's welcome). */
  readonly emptyContent?: ReactNode;
  onLoadOlder(): void;
  /** Absent inside a thread (no thread in a thread). */
  onReplyInThread?(message: Message): void;
  // ---- issue 17: a search result opened in context ----
  /** Newer messages exist after the last one held (a window around a search result). */
  readonly hasNewer?: boolean;
  /** Scroll to, mark and focus this message (a new `nonce` repeats it). */
  readonly focusSeq?: { readonly seq: number; readonly nonce: number } | null;
  onLoadNewer?(): void;
  /** Replace the window with the newest page ("Jump to latest" while `hasNewer`). */
  onLoadLatest?(): void;
  /**
   * issue 40 item 9: changes each time the person sends from this pane's composer: the list goes to
   * the newest (loading it when an older stretch is on view) and follows, so the message just sent
   * is in view even when the person had scrolled up.
   */
  readonly sentNonce?: number;
}

/** Distance from the bottom (px) that still counts as "at the bottom". */
const BOTTOM_SLACK = 48;

type RowShape = 'day' | 'grouped' | 'message';
/**
 * Estimated row heights (issue 19): a single-line row of each shape as Chromium lays it out here
 * (offsetHeight, rounded as the virtualizer measures). Every row measured to a different height
 * than estimated makes the virtualizer recompute every row's offset after it and, above the
 * viewport, shift the scroll position: with 32/48/24 against real 37/51/26 that was every row
 * scrolled into view. The list also learns the smallest height it measures per shape (another
 * font, another platform), so the estimate follows the real single-line height.
 */
const ESTIMATE: Readonly<Record<RowShape, number>> = { day: 37, grouped: 26, message: 51 };

/** Memoised: wake and alert events re-render the status area, not the list. */
export const MessageList = memo(function MessageList({
  target,
  title,
  messages,
  hasMore,
  loadingOlder,
  language,
  agents,
  threads,
  emptyText,
  emptyContent,
  onLoadOlder,
  onReplyInThread,
  hasNewer = false,
  focusSeq,
  onLoadNewer,
  onLoadLatest,
  sentNonce = 0,
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The list's scrollTop as last seen (a scroll event) or set (following the newest): which way it moved since. */
  const lastScrollTop = useRef(0);
  const firstSeq = useRef<number | undefined>(undefined);
  const prevRows = useRef(0);
  const seenCount = useRef(messages.length);
  const [away, setAway] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  /** The message whose actions are in the Tab order (roving: one message at a time, issue 17). */
  const [active, setActive] = useState<string | null>(null);
  /** The seq of the message a search result opened (marked until another is opened). */
  const [found, setFound] = useState<number | null>(null);
  const focusedNonce = useRef<number | null>(null);
  const rows = useMemo(() => messageRows(messages), [messages]);
  // Keyed by the ids, not the list: agent.updated (busy/idle, many a second under load) must not
  // re-render every memoised row (issue 19).
  const agentIdsKey = agents.map((a) => a.id).join('\n');
  const agentIds = useMemo(() => new Set(agentIdsKey.split('\n').filter((id) => id !== '')), [agentIdsKey]);
  const learned = useRef<Partial<Record<RowShape, number>>>({});
  const shapeOf = (i: number): RowShape => {
    const row = rows[i];
    return row?.kind === 'day' ? 'day' : row?.kind === 'message' && row.grouped ? 'grouped' : 'message';
  };
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const shape = shapeOf(i);
      return learned.current[shape] ?? ESTIMATE[shape];
    },
    measureElement: (element, entry, instance) => {
      const size = measureRow(element, entry, instance);
      const shape = shapeOf(instance.indexFromElement(element));
      if (size > 0 && size < (learned.current[shape] ?? Infinity)) learned.current[shape] = size;
      return size;
    },
    overscan: 12,
    getItemKey: (i) => rows[i]?.key ?? i,
    // issue 19: the default (true) re-renders the list synchronously inside each scroll event
    // (11 s of 47 s of scroll-trace tasks); batched, React renders once per frame instead.
    useFlushSync: false,
  });
  // "Today"/"Yesterday" of the date separators: fixed between message changes, so separators stay memoised.
  const dayNow = useMemo(() => Date.now(), [messages]);

  const toBottom = (): void => {
    if (rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    const el = scrollRef.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    lastScrollTop.current = el.scrollTop;
  };

  // Keep the person's place when an older page is prepended; follow new messages at the bottom.
  useLayoutEffect(() => {
    const first = messages[0]?.seq;
    const added = rows.length - prevRows.current;
    if (firstSeq.current !== undefined && first !== undefined && first < firstSeq.current && added > 0) {
      virtualizer.scrollToIndex(added, { align: 'start' });
    } else if (atBottom.current && rows.length > 0 && !hasNewer) {
      toBottom();
      seenCount.current = messages.length;
    }
    firstSeq.current = first;
    prevRows.current = rows.length;
  }, [rows, virtualizer]);

  // issue 40 item 9: a send from this pane's composer brings the newest into view and follows it.
  const followedNonce = useRef(sentNonce);
  useLayoutEffect(() => {
    if (followedNonce.current === sentNonce) return;
    followedNonce.current = sentNonce;
    atBottom.current = true;
    seenCount.current = messages.length;
    setAway(false);
    if (hasNewer) onLoadLatest?.();
    else toBottom();
  }, [sentNonce]);

  // The list got shorter or narrower (a panel opened, the composer grew): keep the newest in view.
  useEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (!atBottom.current) return;
      el.scrollTop = el.scrollHeight;
      lastScrollTop.current = el.scrollTop;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    atBottom.current = true;
    lastScrollTop.current = 0;
    firstSeq.current = undefined;
    prevRows.current = 0;
    setAway(false);
    setFound(null);
  }, [target]);

  // A search result opened here (issue 17): scroll it to the middle, mark it, focus it.
  useEffect(() => {
    if (focusSeq == null || focusedNonce.current === focusSeq.nonce) return;
    const index = rows.findIndex((r) => r.kind === 'message' && r.message.seq === focusSeq.seq);
    if (index === -1) return;
    focusedNonce.current = focusSeq.nonce;
    atBottom.current = false;
    seenCount.current = messages.length;
    setAway(true);
    setFound(focusSeq.seq);
    virtualizer.scrollToIndex(index, { align: 'center' });
    // Rows are measured after they render: settle on the element itself, then focus it.
    let tries = 0;
    const settle = (): void => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`article[data-seq="${focusSeq.seq}"]`);
      if ((el === null || el === undefined) && tries++ < 10) {
        virtualizer.scrollToIndex(index, { align: 'center' });
        requestAnimationFrame(settle);
        return;
      }
      el?.scrollIntoView({ block: 'center' });
      el?.focus({ preventScroll: true });
    };
    requestAnimationFrame(settle);
  }, [focusSeq, rows, virtualizer, messages.length]);

  const onScroll = (): void => {
    const el = scrollRef.current;
    if (el === null) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    const movedUp = el.scrollTop < lastScrollTop.current;
    lastScrollTop.current = el.scrollTop;
    // Only a scroll up leaves the bottom. A jump to the end lands in steps (the virtualizer scrolls
    // again as it measures the rows it brings in, the list growing under it): a step short of the end
    // is not the person leaving it, and taking it for that stopped the list following the newest when
    // the composer grew or a panel opened next (a race on a busy machine).
    if (fromBottom < BOTTOM_SLACK && !hasNewer) atBottom.current = true;
    else if (movedUp || hasNewer) atBottom.current = false;
    if (atBottom.current) seenCount.current = messages.length;
    setAway(!atBottom.current);
    if (el.scrollTop < 200 && hasMore && !loadingOlder && messages.length > 0) onLoadOlder();
    if (fromBottom < 200 && hasNewer && messages.length > 0) onLoadNewer?.();
  };

  // Stable, so the memoised rows (message-row.tsx) do not re-render on every scroll frame.
  const copyText = useCallback((m: Message): void => {
    void navigator.clipboard?.writeText(m.content).then(
      () => {
        setCopied(m.id);
        setTimeout(() => setCopied((c) => (c === m.id ? null : c)), 1500);
      },
      () => undefined,
    );
  }, []);

  // Arrow keys move between messages (from the log itself: to the newest); Tab then reaches its actions.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    const el = scrollRef.current;
    if (el === null || (e.target as HTMLElement).closest('button, textarea, input') !== null) return;
    const articles = [...el.querySelectorAll<HTMLElement>('article[data-message]')];
    if (articles.length === 0) return;
    const current = (e.target as HTMLElement).closest<HTMLElement>('article[data-message]');
    const at = current === null ? articles.length : articles.indexOf(current);
    const next = articles[Math.max(0, Math.min(articles.length - 1, at + (e.key === 'ArrowUp' ? -1 : 1)))];
    e.preventDefault();
    next?.focus();
    next?.scrollIntoView({ block: 'nearest' });
  };

  const newBelow = Math.max(0, messages.length - seenCount.current);
  const items = virtualizer.getVirtualItems();
  return (
    <div className="message-pane">
      <div
        ref={scrollRef}
        className="message-scroll"
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        tabIndex={0}
        role="log"
        aria-label={copy(language, 'messages.label', { target: title })}
        aria-live="off"
      >
        {loadingOlder && <div className="loading-older">{copy(language, 'messages.loadingOlder')}</div>}
        {messages.length === 0 &&
          !hasMore &&
          (emptyContent ?? <p className="messages-empty">{emptyText ?? copy(language, 'messages.empty')}</p>)}
        <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
          <div className="message-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              return (
                <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="row">
                  {row.kind === 'day' ? (
                    <DayRow at={row.at} language={language} nowMs={dayNow} />
                  ) : (
                    <MessageRowView
                      message={row.message}
                      grouped={row.grouped}
                      language={language}
                      agentIds={agentIds}
                      thread={threads?.get(row.message.id)}
                      active={active === row.message.id}
                      copied={copied === row.message.id}
                      found={found === row.message.seq}
                      onActivate={setActive}
                      onCopy={copyText}
                      {...(onReplyInThread === undefined ? {} : { onReplyInThread })}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {(away || hasNewer) && (
        <button
          type="button"
          className="jump-latest"
          onClick={() => {
            atBottom.current = true;
            seenCount.current = messages.length;
            setAway(false);
            if (hasNewer) onLoadLatest?.();
            else toBottom();
          }}
        >
          {copy(language, 'messages.jumpLatest')}
          {newBelow > 0 && <span className="badge">{copy(language, 'messages.newBelow', { count: newBelow })}</span>}
          <span aria-hidden="true"> ↓</span>
        </button>
      )}
    </div>
  );
});
