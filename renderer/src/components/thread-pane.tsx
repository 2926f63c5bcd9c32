/**
 * The thread pane (issue 17): a thread's root message, its replies, its own status area and a
 * reply composer, beside the conversation on wide screens and a full-screen sheet on narrow ones.
 * The thread is an ordinary conversation (`#channel:shortid`), titled "Thread in #channel".
 * Esc closes it when no inspector is open above it.
 */
import { memo, useEffect, useRef, type ReactNode } from 'react';
import type { Agent, Alert, ThreadSummary } from '../../../shared/api/contract.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import type { MessageLog } from '../conversations/message-log.js';
import { copy, type Language } from '../i18n/copy.js';
import { formatDateTime, formatTime } from '../i18n/format.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { StatusArea } from './status-area.js';
import type { WakeBook } from '../status/wake-store.js';

export interface ThreadPaneProps {
  readonly target: string;
  readonly summary: ThreadSummary | undefined;
  readonly log: MessageLog;
  readonly loadingOlder: boolean;
  readonly wakes: WakeBook;
  readonly alerts: readonly Alert[];
  readonly dismissed: ReadonlySet<string>;
  readonly agents: readonly Agent[];
  readonly language: Language;
  /** An inspector is open above the pane: Esc belongs to it. */
  readonly covered: boolean;
  /** issue 14: approval chips for the thread's status area, and the wakes they stand for. */
  readonly approvalChips?: ReactNode;
  readonly waitingWakes?: ReadonlySet<string>;
  onLoadOlder(): void;
  onSend(content: string): Promise<string | null>;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  onDismissAlert(id: string): void;
  /** issue 17: a search result opened here (scroll to it), and paging of such a window. */
  readonly focusSeq?: { readonly seq: number; readonly nonce: number } | null;
  onLoadNewer?(): void;
  onLoadLatest?(): void;
  onClose(): void;
}

/** Memoised (issue 19): the shell re-renders for other conversations' messages; this view does not. */
export const ThreadPane = memo(function ThreadPane(props: ThreadPaneProps) {
  const { target, summary, language, agents, covered, onClose } = props;
  const title = conversationTitle(target, agents, language);
  const closeRef = useRef<HTMLButtonElement>(null);
  const root = summary?.root ?? null;

  useEffect(() => {
    closeRef.current?.focus();
  }, [target]);
  useEffect(() => {
    if (covered) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [covered, onClose]);

  return (
    <aside className="thread-pane sheet" aria-labelledby="thread-title" data-thread={target}>
      <header className="pane-head">
        <h2 id="thread-title">
          {copy(language, 'thread.title')}
          <span className="pane-sub"> · {title.parentTitle}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={copy(language, 'thread.close')}
        >
          ×
        </button>
      </header>
      {root !== null && (
        <div className="thread-root" data-message={root.id}>
          <div className="message-head">
            <span className="message-author">
              {root.authorKind === 'operator' ? copy(language, 'messages.you') : root.authorName}
            </span>
            <time className="message-time" dateTime={root.createdAt} title={formatDateTime(root.createdAt, language)}>
              {formatTime(root.createdAt, language)}
            </time>
          </div>
          <div className="message-body">{root.content}</div>
        </div>
      )}
      <MessageList
        target={target}
        title={title.title}
        messages={props.log.messages}
        hasMore={props.log.hasMore}
        loadingOlder={props.loadingOlder}
        language={language}
        agents={agents}
        emptyText={copy(language, 'thread.empty')}
        onLoadOlder={props.onLoadOlder}
        hasNewer={props.log.hasNewer ?? false}
        focusSeq={props.focusSeq ?? null}
        {...(props.onLoadNewer ? { onLoadNewer: props.onLoadNewer } : {})}
        {...(props.onLoadLatest ? { onLoadLatest: props.onLoadLatest } : {})}
      />
      <StatusArea
        target={target}
        wakes={props.wakes}
        alerts={props.alerts}
        dismissed={props.dismissed}
        language={language}
        label={copy(language, 'thread.status')}
        onOpenWake={props.onOpenWake}
        onDismissAlert={props.onDismissAlert}
        approvalChips={props.approvalChips}
        waitingWakes={props.waitingWakes}
      />
      <Composer
        key={target}
        target={target}
        agents={agents}
        language={language}
        label={copy(language, 'composer.replyLabel')}
        placeholder={copy(language, 'composer.replyPlaceholder')}
        onSend={props.onSend}
      />
    </aside>
  );
});
