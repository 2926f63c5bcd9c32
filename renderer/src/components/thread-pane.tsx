/**
 * The thread pane (issue 17): a thread's root message, then its message pane — replies, its own
 * status area and a reply composer — beside the conversation on wide screens and a full-screen
 * sheet on narrow ones. The thread is an ordinary conversation (`#channel:shortid`), titled
 * "Thread in #channel". Esc closes it when no inspector is open above it.
 */
import { memo, useEffect, useRef } from 'react';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy } from '../i18n/copy.js';
import { formatDateTime, formatTime } from '../i18n/format.js';
import { useAgentRoster } from '../state/agent-store.js';
import { useAppState } from '../state/app-state-context.js';
import { useLanguage } from '../state/settings.js';
import { useThreadSummary } from '../state/thread-store.js';
import { MessagePane } from './message-pane.js';

export interface ThreadPaneProps {
  readonly target: string;
  /** An inspector is open above the pane: Esc belongs to it. */
  readonly covered: boolean;
  /** issue 17: a search result opened here (scroll to it). */
  readonly focusSeq?: { readonly seq: number; readonly nonce: number } | null;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  onClose(): void;
}

/** Memoised (issue 19): the shell re-renders for other conversations' messages; this view does not. */
export const ThreadPane = memo(function ThreadPane(props: ThreadPaneProps) {
  const { target, covered, onClose } = props;
  const { state } = useAppState();
  const agents = useAgentRoster(state.agents);
  const language = useLanguage(state.settings);
  const summary = useThreadSummary(state.threads, target);
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
      <MessagePane
        target={target}
        title={title.title}
        emptyText={copy(language, 'thread.empty')}
        statusLabel={copy(language, 'thread.status')}
        focusSeq={props.focusSeq ?? null}
        composerLabel={copy(language, 'composer.replyLabel')}
        composerPlaceholder={copy(language, 'composer.replyPlaceholder')}
        onOpenWake={props.onOpenWake}
      />
    </aside>
  );
});
