/**
 * One conversation: a header (title as a person reads it, a slot for tools such as search),
 * then its message pane — virtualised messages, the one status area, the composer (UI.md
 * layout; issue 17).
 */
import { memo, type ReactNode } from 'react';
import type { Message } from '../../../shared/api/contract.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy } from '../i18n/copy.js';
import { useAgentRoster } from '../state/agent-store.js';
import { useAppState } from '../state/app-state-context.js';
import { useLanguage } from '../state/settings.js';
import { useThreadsByRoot } from '../state/thread-store.js';
import { MessagePane } from './message-pane.js';

export interface ConversationViewProps {
  readonly target: string;
  /** issue 17: a search result opened here (scroll to it). */
  readonly focusSeq?: { readonly seq: number; readonly nonce: number } | null;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  onReplyInThread(message: Message): void;
  onOpenConversation(target: string): void;
  onOpenDrawer(opener: HTMLElement): void;
  /** What the header's tools slot holds (the search box). */
  readonly headerTools?: ReactNode;
  /** issue 27: a daily-budget pause's Raise budget (the Usage view). */
  onOpenUsage?(): void;
}

/** Memoised (issue 19): the shell re-renders for other conversations' messages; this view does not. */
export const ConversationView = memo(function ConversationView(props: ConversationViewProps) {
  const { target } = props;
  const { state } = useAppState();
  const agents = useAgentRoster(state.agents);
  const language = useLanguage(state.settings);
  const threads = useThreadsByRoot(state.threads, target);
  const title = conversationTitle(target, agents, language);
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-head">
        <button
          type="button"
          className="icon-button drawer-toggle"
          aria-label={copy(language, 'conversation.openDrawer')}
          onClick={(e) => props.onOpenDrawer(e.currentTarget)}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <div className="head-titles">
          <h1 id="conversation-title" data-target={target}>
            {title.title}
          </h1>
          {title.kind === 'dm' && <span className="head-sub">{copy(language, 'conversation.dm')}</span>}
          {title.parent !== null && (
            <button type="button" className="head-sub link" onClick={() => props.onOpenConversation(title.parent!)}>
              {copy(language, 'conversation.backTo', { parent: title.parentTitle ?? title.parent })}
            </button>
          )}
        </div>
        {/* Tools of the header: search across conversations (issue 17). */}
        <div className="head-tools" data-slot="header-tools">
          {props.headerTools}
        </div>
      </header>
      <MessagePane
        target={target}
        title={title.title}
        threads={threads}
        focusSeq={props.focusSeq ?? null}
        composerLabel={copy(language, 'composer.label', { target: title.title })}
        composerPlaceholder={copy(language, 'composer.placeholder', { target: title.title })}
        onOpenWake={props.onOpenWake}
        {...(title.kind === 'thread' ? {} : { onReplyInThread: props.onReplyInThread })}
        {...(props.onOpenUsage === undefined ? {} : { onOpenUsage: props.onOpenUsage })}
      />
    </section>
  );
});
