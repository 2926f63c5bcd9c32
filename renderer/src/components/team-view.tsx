/**
 * issue 25: the Team view — every agent across conversations with what it is doing now, the
 * "who needs me" board: those waiting for the operator's approval, failed or needing sign-in
 * first, then those at work (the conversation, for how long), then the idle ones. It reads the
 * Team board store (state/team-store.ts), so it updates live from `team.updated`; each row links
 * to where to act: the conversation (its approval chip, its working chip), or the agent's detail
 * (what to fix, how to sign in), or a direct message.
 */
import { failureWords, runtimeLabel, UNKNOWN_RUNTIME_WORDS } from '../../../shared/agent-readiness.js';
import type { Agent, TeamAgent } from '../../../shared/api/contract.js';
import { formatElapsed } from '../../../shared/elapsed.js';
import { isFailureReason } from '../../../shared/wake-status.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { needsOperator, useTeamBoard, type TeamStore } from '../state/team-store.js';
import { agentReadinessText } from './agent-detail.js';
import { memoryText } from './agent-cost.js';
import { useNow } from './status-area.js';
import './team-view.css';
import { FixText } from './fix-text.js';

export interface TeamViewProps {
  readonly team: TeamStore;
  readonly agents: readonly Agent[];
  readonly language: Language;
  onOpenConversation(target: string): void;
  onOpenAgent(agentId: string): void;
  onMessage(agentId: string): void;
}

const STATE_ICONS: Readonly<Record<TeamAgent['state'], string>> = {
  waiting_approval: '✋',
  failed: '!',
  // issue 40 item 6: neutral — available once signed in, not a warning.
  needs_sign_in: '◇',
  working: '◐',
  idle: '○',
};

const GROUPS = [
  { key: 'needsYou', title: 'team.group.needsYou', has: (e: TeamAgent) => needsOperator(e.state) },
  { key: 'working', title: 'team.group.working', has: (e: TeamAgent) => e.state === 'working' },
  { key: 'idle', title: 'team.group.idle', has: (e: TeamAgent) => e.state === 'idle' },
  { key: 'available', title: 'team.group.available', has: (e: TeamAgent) => e.state === 'needs_sign_in' },
] as const satisfies ReadonlyArray<{ key: string; title: CopyKey; has(e: TeamAgent): boolean }>;

export function TeamView({ team, agents, language, onOpenConversation, onOpenAgent, onMessage }: TeamViewProps) {
  const board = useTeamBoard(team);
  const now = useNow(board.some((e) => e.since !== null));
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  return (
    <section className="page team-view" aria-labelledby="team-title">
      <h1 id="team-title">{t('team.title')}</h1>
      <p className="team-intro">{t('team.intro')}</p>
      {!team.loaded && board.length === 0 && <p>{t('team.loading')}</p>}
      {team.loaded && board.length === 0 && <p>{t('team.none')}</p>}
      {GROUPS.map((group) => {
        const rows = board.filter(group.has);
        if (rows.length === 0) return null;
        return (
          <section
            key={group.key}
            className={`team-group team-group-${group.key}`}
            aria-labelledby={`team-${group.key}`}
          >
            <h2 id={`team-${group.key}`}>
              {t(group.title)} <span className="team-count">{rows.length}</span>
            </h2>
            <ul className="team-rows">
              {rows.map((entry) => (
                <TeamRow
                  key={entry.agentId}
                  entry={entry}
                  agent={agents.find((a) => a.id === entry.agentId)}
                  agents={agents}
                  language={language}
                  now={now}
                  onOpenConversation={onOpenConversation}
                  onOpenAgent={onOpenAgent}
                  onMessage={onMessage}
                />
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}

function TeamRow({
  entry,
  agent,
  agents,
  language,
  now,
  onOpenConversation,
  onOpenAgent,
  onMessage,
}: {
  readonly entry: TeamAgent;
  readonly agent: Agent | undefined;
  readonly agents: readonly Agent[];
  readonly language: Language;
  readonly now: number;
} & Pick<TeamViewProps, 'onOpenConversation' | 'onOpenAgent' | 'onMessage'>) {
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  const conversation =
    entry.target === null ? null : (entry.title ?? conversationTitle(entry.target, agents, language).title);
  // issue 42: an idle agent whose CLI process sleeps says so (the next message wakes it).
  const what =
    entry.state === 'idle' && agent?.state === 'sleeping'
      ? t('team.state.sleeping')
      : stateText(entry, conversation, language);
  const memory = agent === undefined ? null : memoryText(agent);
  const note = stateNote(entry, agent, language);
  const action = rowAction(entry, conversation, language);
  const act = () => {
    if (action.to === 'conversation' && entry.target !== null) onOpenConversation(entry.target);
    else if (action.to === 'agent') onOpenAgent(entry.agentId);
    else onMessage(entry.agentId);
  };
  return (
    <li
      className={`team-row team-${entry.state}`}
      data-team-agent={entry.agentId}
      data-team-state={entry.state}
      data-target={entry.target ?? undefined}
    >
      <span className="team-icon" aria-hidden="true">
        {STATE_ICONS[entry.state]}
      </span>
      <span className="team-who">
        <span className="team-name">{entry.name}</span>{' '}
        <span className="team-runtime">
          {agent?.demo === true
            ? t('agent.demo')
            : runtimeLabel(agent?.runtimeWords ?? UNKNOWN_RUNTIME_WORDS, language)}
          {!entry.ready && entry.state !== 'needs_sign_in' && entry.state !== 'failed' && ` · ${t('team.notReady')}`}
        </span>
        {memory !== null && (
          <span className="team-cost" data-field="memory">
            {' '}
            · {memory}
          </span>
        )}
      </span>
      <span className="team-what">
        <span className="team-state">{what}</span>
        {entry.since !== null && (entry.state === 'working' || entry.state === 'waiting_approval') && (
          <span className="team-elapsed" aria-hidden="true">
            {' '}
            {t('team.elapsed', { elapsed: formatElapsed(now - (Date.parse(entry.since) || now), language) })}
          </span>
        )}
        {note !== null && (
          <span className="team-note">
            <FixText text={note} />
          </span>
        )}
      </span>
      <button type="button" className="team-action" onClick={act}>
        {action.label}
      </button>
    </li>
  );
}

/** What the agent is doing, in words. */
function stateText(entry: TeamAgent, conversation: string | null, language: Language): string {
  switch (entry.state) {
    case 'working':
      return conversation === null
        ? copy(language, 'team.state.workingUnknown')
        : copy(language, 'team.state.working', { conversation });
    case 'waiting_approval':
      return conversation === null
        ? copy(language, 'team.state.waitingApprovalUnknown')
        : copy(language, 'team.state.waitingApproval', { conversation });
    case 'failed':
      return copy(language, 'team.state.failed');
    case 'needs_sign_in':
      return copy(language, 'team.state.needsSignIn');
    case 'idle':
      return copy(language, 'team.state.idle');
  }
}

/** A failure or a sign-in in plain words, with the fix (the agent's readiness, or the failure vocabulary). */
function stateNote(entry: TeamAgent, agent: Agent | undefined, language: Language): string | null {
  if (entry.state === 'needs_sign_in')
    return (agent === undefined ? null : agentReadinessText(agent, language).fix) ?? null;
  if (entry.state !== 'failed') return null;
  const reason = isFailureReason(entry.reason) ? entry.reason : 'runtime_error';
  return failureWords(reason, language, {
    words: agent?.runtimeWords ?? UNKNOWN_RUNTIME_WORDS,
    ...(agent?.auth ? { auth: agent.auth } : {}),
  });
}

/** Where to act on the row: the conversation, the agent's detail, or a direct message. */
function rowAction(
  entry: TeamAgent,
  conversation: string | null,
  language: Language,
): { to: 'conversation' | 'agent' | 'message'; label: string } {
  switch (entry.state) {
    case 'waiting_approval':
      return entry.target === null
        ? { to: 'agent', label: copy(language, 'team.action.fix') }
        : { to: 'conversation', label: copy(language, 'team.action.review') };
    case 'working':
      return entry.target === null || conversation === null
        ? { to: 'agent', label: copy(language, 'team.action.agent') }
        : { to: 'conversation', label: copy(language, 'team.action.open', { conversation }) };
    case 'failed':
      // The failed chip (its Details) is in the conversation when the board names one; else the agent's detail says what to fix.
      return entry.target === null || conversation === null
        ? { to: 'agent', label: copy(language, 'team.action.fix') }
        : { to: 'conversation', label: copy(language, 'team.action.open', { conversation }) };
    case 'needs_sign_in':
      return { to: 'agent', label: copy(language, 'team.action.signIn') };
    case 'idle':
      return { to: 'message', label: copy(language, 'team.action.message') };
  }
}
