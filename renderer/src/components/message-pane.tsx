/**
 * One conversation's messages, its status area and its composer (UI.md layout): the block the
 * conversation view and the thread pane share. It reads what it shows from the window's stores
 * (state/app-state-context.tsx) — the conversation's log and paging, its wakes, alerts and
 * approvals, the agents, the language, the daemon's message limit — so a message or a wake of
 * this conversation re-renders this pane, and nothing else does.
 */
import { memo, useCallback, useMemo, useState } from 'react';
import type { Message, ThreadSummary } from '../../../shared/api/contract.js';
import { ApprovalChips } from '../status/approval-chip.js';
import { useAgentRoster } from '../state/agent-store.js';
import { useAlerts } from '../state/alert-store.js';
import { useAppState } from '../state/app-state-context.js';
import { useLoadingOlder, useMessageLog } from '../state/message-store.js';
import { useBeaconWords, useLanguage } from '../state/settings.js';
import { useValue } from '../state/value-store.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { StatusArea } from './status-area.js';
import { agentReadinessText } from './agent-detail.js';
import { copy } from '../i18n/copy.js';
import { GENERAL_CONVERSATION } from '../../../shared/config.js';
import { Welcome } from './welcome.js';

export interface MessagePaneProps {
  readonly target: string;
  /** The conversation's title as a person reads it (the list's accessible name). */
  readonly title: string;
  /** The composer's accessible name and placeholder. */
  readonly composerLabel: string;
  readonly composerPlaceholder: string;
  /** The status area's accessible name (default: the conversation's). */
  readonly statusLabel?: string;
  /** What an empty list says (default: how to wake an agent). */
  readonly emptyText?: string;
  /** Threads started from messages of this list, by root message id. */
  readonly threads?: ReadonlyMap<string, ThreadSummary>;
  /** issue 17: a search result opened here (scroll to it). */
  readonly focusSeq: { readonly seq: number; readonly nonce: number } | null;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  /** Absent inside a thread (no thread in a thread). */
  onReplyInThread?(message: Message): void;
  /** issue 27: a daily-budget pause's Raise budget (the Usage view). */
  onOpenUsage?(): void;
}

/** Memoised (issue 19): it re-renders for its own conversation's messages, not for the shell's state. */
export const MessagePane = memo(function MessagePane(props: MessagePaneProps) {
  const { target, onOpenWake } = props;
  const { state, approvals, waiting } = useAppState();
  const log = useMessageLog(state.messages, target);
  const loadingOlder = useLoadingOlder(state.messages);
  const agents = useAgentRoster(state.agents);
  const language = useLanguage(state.settings);
  const beaconWords = useBeaconWords(state.settings);
  const { alerts, dismissed } = useAlerts(state.alerts);
  const { maxMessageBytes } = useValue(state.limits);
  const { messages, alerts: alertStore } = state;

  const onLoadOlder = useCallback(() => messages.loadOlder(target), [messages, target]);
  const onLoadNewer = useCallback(() => messages.loadNewer(target), [messages, target]);
  const onLoadLatest = useCallback(() => messages.loadLatest(target), [messages, target]);
  // issue 40 item 9: the list follows to the message just sent (MessageList `sentNonce`).
  const [sentNonce, setSentNonce] = useState(0);
  const onSend = useCallback(
    (content: string) => {
      setSentNonce((n) => n + 1);
      return messages.send(target, content);
    },
    [messages, target],
  );
  const onDismissAlert = useCallback((id: string) => alertStore.dismiss(id), [alertStore]);
  // issue 29: a working chip's Stop (an operator call, like answering an approval).
  const onStop = useCallback(
    (agentId: string) => state.api.agents.stop({ agentId }).then((r) => (r.ok ? null : r.message)),
    [state.api],
  );
  // issue 25: Continue of a paused chain (an operator call, like Stop).
  const onContinueChain = useCallback((chainId: string) => state.continueChain(chainId), [state]);
  // issue 27: a paused chip's Try now / Cancel (operator calls).
  const onPause = useCallback(
    (agentId: string, action: 'tryNow' | 'cancel') =>
      (action === 'tryNow' ? state.api.agents.tryNow({ agentId }) : state.api.agents.cancelPause({ agentId })).then(
        (r) => (r.ok ? null : r.message),
      ),
    [state.api],
  );
  // issue 40 item 5: a failed chip's Retry (an operator call): checks the agent again, starts it anew.
  const onRetry = useCallback(
    (agentId: string) =>
      state.api.agents.check({ agentId }).then((r) => {
        if (!r.ok) return r.message;
        const agent = r.value.find((a) => a.id === agentId);
        if (agent === undefined) return '';
        if (agent.readiness?.ready === true) return copy(language, 'chip.retryReady', { agent: agent.name });
        const { label, fix } = agentReadinessText(agent, language);
        return copy(language, 'chip.retryNotReady', { agent: agent.name, fix: fix ?? label });
      }),
    [state.api, language],
  );
  // issue 40 item 6: an empty #general (the first run's conversation) welcomes the person.
  const welcome = useMemo(
    () =>
      target === GENERAL_CONVERSATION && props.emptyText === undefined ? (
        <Welcome language={language} fallback={copy(language, 'messages.empty')} onRetry={onRetry} />
      ) : undefined,
    [target, props.emptyText, language, onRetry],
  );
  // issue 14: the approval chips of this status area; memoised so the status area does not re-render for nothing.
  const approvalChips = useMemo(
    () => (
      <ApprovalChips
        api={state.api}
        approvals={approvals}
        wakes={state.wakes}
        target={target}
        language={language}
        onOpenWake={onOpenWake}
      />
    ),
    [state, approvals, target, language, onOpenWake],
  );

  return (
    <>
      <MessageList
        target={target}
        title={props.title}
        messages={log.messages}
        hasMore={log.hasMore}
        loadingOlder={loadingOlder}
        language={language}
        agents={agents}
        onLoadOlder={onLoadOlder}
        hasNewer={log.hasNewer ?? false}
        focusSeq={props.focusSeq}
        onLoadNewer={onLoadNewer}
        onLoadLatest={onLoadLatest}
        sentNonce={sentNonce}
        {...(props.threads === undefined ? {} : { threads: props.threads })}
        {...(props.emptyText === undefined ? {} : { emptyText: props.emptyText })}
        {...(welcome === undefined ? {} : { emptyContent: welcome })}
        {...(props.onReplyInThread === undefined ? {} : { onReplyInThread: props.onReplyInThread })}
      />
      <StatusArea
        target={target}
        wakes={state.wakes}
        alerts={alerts}
        dismissed={dismissed}
        language={language}
        onOpenWake={onOpenWake}
        onDismissAlert={onDismissAlert}
        approvalChips={approvalChips}
        waitingWakes={waiting}
        beaconWords={beaconWords}
        onStop={onStop}
        chains={state.chains}
        onContinueChain={onContinueChain}
        onPause={onPause}
        onRetry={onRetry}
        agents={agents}
        {...(props.onOpenUsage === undefined ? {} : { onRaiseBudget: props.onOpenUsage })}
        {...(props.statusLabel === undefined ? {} : { label: props.statusLabel })}
      />
      <Composer
        key={target}
        target={target}
        agents={agents}
        language={language}
        label={props.composerLabel}
        placeholder={props.composerPlaceholder}
        maxMessageBytes={maxMessageBytes}
        onSend={onSend}
      />
    </>
  );
});
