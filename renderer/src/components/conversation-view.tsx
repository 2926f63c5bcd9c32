/** One conversation: title, virtualised messages, the one status area, then the composer (UI.md layout). */
import type { ReactNode } from 'react';
import type { Agent, Alert, Wake } from '../../../shared/api/contract.js';
import type { MessageLog } from '../conversations/message-log.js';
import type { Language } from '../i18n/copy.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { StatusArea } from './status-area.js';

export interface ConversationViewProps {
  readonly target: string;
  readonly log: MessageLog;
  readonly loadingOlder: boolean;
  readonly wakes: ReadonlyMap<string, Wake>;
  readonly alerts: readonly Alert[];
  readonly dismissed: ReadonlySet<string>;
  readonly agents: readonly Agent[];
  readonly language: Language;
  /** issue 14: approval chips for the status area, and the wakes they stand for. */
  readonly approvalChips?: ReactNode;
  readonly waitingWakes?: ReadonlySet<string>;
  onLoadOlder(): void;
  onSend(content: string): Promise<string | null>;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  onDismissAlert(id: string): void;
}

export function ConversationView(props: ConversationViewProps) {
  const { target, log, language } = props;
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-head">
        <h1 id="conversation-title">{target}</h1>
      </header>
      <MessageList
        target={target}
        messages={log.messages}
        hasMore={log.hasMore}
        loadingOlder={props.loadingOlder}
        language={language}
        onLoadOlder={props.onLoadOlder}
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
      <Composer key={target} target={target} agents={props.agents} language={language} onSend={props.onSend} />
    </section>
  );
}
