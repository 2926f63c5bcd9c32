/**
 * The message list, virtualised with @tanstack/react-virtual so a conversation of 100,000
 * messages renders only what is on screen. It sticks to the bottom while the person is at the
 * bottom, and loads older pages when they scroll near the top (keeping their place).
 * Wake statuses are never rendered here (contract §10.3): only the status area shows them.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { Message } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';

export interface MessageListProps {
  readonly target: string;
  readonly messages: readonly Message[];
  readonly hasMore: boolean;
  readonly loadingOlder: boolean;
  readonly language: Language;
  onLoadOlder(): void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** Memoised: wake and alert events re-render the status area, not the list. */
export const MessageList = memo(function MessageList({
  target,
  messages,
  hasMore,
  loadingOlder,
  language,
  onLoadOlder,
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const firstSeq = useRef<number | undefined>(undefined);
  const prevCount = useRef(0);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 44,
    overscan: 12,
    getItemKey: (i) => messages[i]?.id ?? i,
  });

  // Keep the person's place when an older page is prepended; follow new messages at the bottom.
  useLayoutEffect(() => {
    const first = messages[0]?.seq;
    const added = messages.length - prevCount.current;
    if (firstSeq.current !== undefined && first !== undefined && first < firstSeq.current && added > 0) {
      virtualizer.scrollToIndex(added, { align: 'start' });
    } else if (atBottom.current && messages.length > 0) {
      virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    }
    firstSeq.current = first;
    prevCount.current = messages.length;
  }, [messages, virtualizer]);

  useEffect(() => {
    atBottom.current = true;
    firstSeq.current = undefined;
    prevCount.current = 0;
  }, [target]);

  const onScroll = (): void => {
    const el = scrollRef.current;
    if (el === null) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    if (el.scrollTop < 200 && hasMore && !loadingOlder && messages.length > 0) onLoadOlder();
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className="message-scroll"
      onScroll={onScroll}
      tabIndex={0}
      role="log"
      aria-label={copy(language, 'messages.label', { target })}
      aria-live="off"
    >
      {loadingOlder && <div className="loading-older">{copy(language, 'messages.loadingOlder')}</div>}
      {messages.length === 0 && !hasMore && <p className="messages-empty">{copy(language, 'messages.empty')}</p>}
      <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
        <div className="message-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => {
            const m = messages[item.index];
            if (m === undefined) return null;
            return (
              <article
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className={`message message-${m.authorKind}`}
                data-message={m.id}
                data-seq={m.seq}
              >
                <header className="message-head">
                  <span className="message-author">
                    {m.authorKind === 'operator' ? copy(language, 'messages.you') : m.authorName}
                  </span>
                  <time className="message-time" dateTime={m.createdAt}>
                    {timeFormat.format(new Date(m.createdAt))}
                  </time>
                  {m.redelivered && <span className="message-tag">{copy(language, 'messages.redelivered')}</span>}
                </header>
                <div className="message-body">{m.content}</div>
                {m.reactions.length > 0 && (
                  <ul className="message-reactions" aria-label={copy(language, 'messages.reactions')}>
                    {m.reactions.map((r) => (
                      <li key={`${r.authorId}:${r.emoji}`} className="reaction" title={r.authorName}>
                        <span aria-hidden="true">{r.emoji}</span> {r.authorName}
                      </li>
                    ))}
                  </ul>
                )}
              </article>
            );
          })}
        </div>
      </div>
    </div>
  );
});
