/**
 * One conversation: a header (title as a person reads it, a slot for tools such as search),
 * virtualised messages, the one status area, then the composer (UI.md layout; issue 17).
 */
import { memo, type ReactNode } from 'react';
import type { Agent, Alert, Message, ThreadSummary } from '../../../shared/api/contract.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import type { MessageLog } from '../conversations/message-log.js';
import { copy, type Language } from '../i18n/copy.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { StatusArea } from './status-area.js';
import type { WakeBook } from '../status/wake-store.js';

export interface ConversationViewProps {
  readonly target: string;
  readonly log: MessageLog;
  readonly loadingOlder: boolean;
  readonly wakes: WakeBook;
  readonly alerts: readonly Alert[];
  readonly dismissed: ReadonlySet<string>;
  readonly agents: readonly Agent[];
  readonly language: Language;
  /** Threads under this conversation, by root message id. */
  readonly threads: ReadonlyMap<string, ThreadSummary>;
  /** issue 14: approval chips for the status area, and the wakes they stand for. */
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
  onReplyInThread(message: Message): void;
  onOpenConversation(target: string): void;
  onOpenDrawer(opener: HTMLElement): void;
  /** What the header's tools slot holds (the search box). */
  readonly headerTools?: ReactNode;
}

/** Memoised (issue 19): the shell re-renders for other conversations' messages; this view does not. */
export const ConversationView = memo(function ConversationView(props: ConversationViewProps) {
  const { target, log, language, agents } = props;
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
      <MessageList
        target={target}
        title={title.title}
        messages={log.messages}
        hasMore={log.hasMore}
        loadingOlder={props.loadingOlder}
        language={language}
        agents={agents}
        threads={props.threads}
        onLoadOlder={props.onLoadOlder}
        hasNewer={log.hasNewer ?? false}
        focusSeq={props.focusSeq ?? null}
        {...(props.onLoadNewer ? { onLoadNewer: props.onLoadNewer } : {})}
        {...(props.onLoadLatest ? { onLoadLatest: props.onLoadLatest } : {})}
        {...(title.kind === 'thread' ? {} : { onReplyInThread: props.onReplyInThread })}
      />
      <StatusArea
        target={target}
        wakes={props.wakes}
        alerts={props.alerts}
        dismissed={props.dismissed}
        language={language}
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
        label={copy(language, 'composer.label', { target: title.title })}
        placeholder={copy(language, 'composer.placeholder', { target: title.title })}
        onSend={props.onSend}
      />
    </section>
  );
});
