/**
 * The sidebar: channels, direct messages, threads (under their parent), the pages (view-registry.tsx:
 * Team, Usage, Agents, then the agents with state, Settings).
 */
import { memo, useState } from 'react';
import type { Agent, Conversation } from '../../../shared/api/contract.js';
import { groupConversations } from '../conversations/conversation-groups.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { runtimeLabel } from '../../../shared/agent-readiness.js';
import { PAGES, type PageKind, type View } from '../views/view-registry.js';
import { agentReadinessText } from './agent-detail.js';
import { CHIP_ICONS, pausedHead } from '../status/wake-chips.js';
import { usePausedWake, type WakeBook } from '../status/wake-store.js';

export interface SidebarProps {
  readonly conversations: readonly Conversation[];
  readonly agents: readonly Agent[];
  readonly view: View;
  readonly language: Language;
  onSelect(view: View): void;
  /** Unread messages of a conversation (issue 17). */
  unread(c: Conversation): number;
  /** A thread's label in the list (its root message, shortened), by thread target. */
  readonly threadLabels: ReadonlyMap<string, string>;
  /** Narrow screens: the sidebar is a drawer, open or closed. */
  readonly drawerOpen: boolean;
  /** Resolves with an error message, or null when created. */
  onCreateChannel(target: string): Promise<string | null>;
  /** The pages' badges (view-registry.tsx), e.g. issue 25's agents that need the operator on Team. */
  readonly badges?: Readonly<Partial<Record<PageKind, number>>>;
  /** issue 40 item 8: the window's wakes: an agent with a paused wake says "Paused until 14:05", not Ready. */
  readonly wakes?: WakeBook;
}

/** Memoised (issue 19): a message elsewhere re-renders its own link, not every link. */
const ConversationLink = memo(function ConversationLink({
  c,
  view,
  onSelect,
  nested,
  label,
  unread,
  language,
}: {
  c: Conversation;
  view: View;
  onSelect: SidebarProps['onSelect'];
  nested?: boolean;
  label: string;
  unread: number;
  language: Language;
}) {
  const current = view.kind === 'conversation' && view.target === c.target;
  return (
    <li>
      <button
        type="button"
        className={`nav-item${nested === true ? ' nested' : ''}${unread > 0 ? ' has-unread' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => onSelect({ kind: 'conversation', target: c.target })}
        data-target={c.target}
      >
        <span className="nav-label">{nested === true ? `↳ ${label}` : label}</span>
        {unread > 0 && (
          <span className="unread-badge" data-unread={unread}>
            {unread}
            <span className="visually-hidden"> {copy(language, 'sidebar.unread', { count: unread })}</span>
          </span>
        )}
      </button>
    </li>
  );
});

/** Memoised (issue 19): wake and message events of other conversations do not re-render it. */
export const Sidebar = memo(function Sidebar({
  conversations,
  agents,
  view,
  language,
  onSelect,
  onCreateChannel,
  unread,
  threadLabels,
  drawerOpen,
  badges = {},
  wakes,
}: SidebarProps) {
  const groups = groupConversations(conversations);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const t = (key: CopyKey) => copy(language, key);
  const withThreads = (list: readonly Conversation[]) =>
    list.flatMap((c) => [
      <ConversationLink
        key={c.target}
        c={c}
        view={view}
        onSelect={onSelect}
        label={conversationTitle(c.target, agents, language).title}
        unread={unread(c)}
        language={language}
      />,
      ...(groups.threads.get(c.target) ?? []).map((th) => (
        <ConversationLink
          key={th.target}
          c={th}
          view={view}
          onSelect={onSelect}
          nested
          label={threadLabels.get(th.target) ?? t('thread.title')}
          unread={unread(th)}
          language={language}
        />
      )),
    ]);

  return (
    <nav className={`sidebar${drawerOpen ? ' drawer-open' : ''}`} aria-label={t('sidebar.label')} id="sidebar">
      <h2 className="sidebar-heading" id="nav-channels">
        {t('sidebar.channels')}
      </h2>
      <ul aria-labelledby="nav-channels">{withThreads(groups.channels)}</ul>
      {adding ? (
        <form
          className="new-channel"
          onSubmit={(e) => {
            e.preventDefault();
            const target = name.trim().startsWith('#') ? name.trim() : `#${name.trim()}`;
            void onCreateChannel(target).then((failure) => {
              if (failure === null) {
                setAdding(false);
                setName('');
                setError(null);
              } else setError(failure);
            });
          }}
        >
          <input
            autoFocus
            aria-label={t('sidebar.newChannelPrompt')}
            placeholder="#build"
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setAdding(false)}
          />
          {error !== null && <div role="alert">{error}</div>}
        </form>
      ) : (
        <button type="button" className="nav-item subtle" onClick={() => setAdding(true)}>
          + {t('sidebar.newChannel')}
        </button>
      )}
      <h2 className="sidebar-heading" id="nav-direct">
        {t('sidebar.direct')}
      </h2>
      <ul aria-labelledby="nav-direct">{withThreads(groups.dms)}</ul>
      {PAGES.filter((p) => p.place === 'heading').map((page) => (
        <h2 className="sidebar-heading" key={page.kind}>
          <PageLink page={page} view={view} language={language} onSelect={onSelect} count={badges[page.kind] ?? 0} />
        </h2>
      ))}
      <ul className="agent-states">
        {agents.map((a) => {
          // issue 15/17: runtime and readiness on the row (busy shows as the state), the row opens the detail.
          const readiness = agentReadinessText(a, language);
          const ready = a.readiness?.ready ?? a.state !== 'crashed';
          return (
            <li
              key={a.id}
              className={`agent-state state-${a.state}`}
              data-agent={a.id}
              data-readiness={a.readiness?.state}
            >
              <button
                type="button"
                className="nav-item agent-row"
                aria-current={view.kind === 'agent' && view.agentId === a.id ? 'page' : undefined}
                onClick={() => onSelect({ kind: 'agent', agentId: a.id })}
                title={readiness.fix ?? undefined}
              >
                {/* issue 40 item 8: a paused agent's dot is the paused chip's ⏸, as its text says "Paused until". */}
                {wakes === undefined ? (
                  <span className="state-dot" aria-hidden="true">
                    {stateDot(a, ready)}
                  </span>
                ) : (
                  <AgentStateDot wakes={wakes} agentId={a.id} fallback={stateDot(a, ready)} />
                )}
                <span className="agent-name">{a.name}</span>{' '}
                {wakes === undefined ? (
                  <span className="agent-state-text">
                    {a.state === 'busy' && ready ? copy(language, 'agent.state.busy') : readiness.label}
                  </span>
                ) : (
                  <AgentStateText
                    wakes={wakes}
                    agentId={a.id}
                    language={language}
                    fallback={a.state === 'busy' && ready ? copy(language, 'agent.state.busy') : readiness.label}
                  />
                )}
                {/* The runtime, then issue 14's permission policy (`full` carries a warning badge) and the workspace. */}
                <span className="agent-row-meta">
                  <span className="agent-runtime">
                    {a.demo ? t('agent.demo') : runtimeLabel(a.runtimeWords, language)}
                  </span>
                  {!a.demo && a.permissions !== undefined && (
                    <span className={`agent-permissions permissions-${a.permissions}`} data-permissions={a.permissions}>
                      {a.permissions === 'full' ? '⚠ ' : ''}
                      {a.permissions}
                    </span>
                  )}
                  {!a.demo && a.cwd !== undefined && (
                    <span className="agent-cwd" title={a.cwd}>
                      {a.cwd}
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {PAGES.filter((p) => p.place === 'foot').map((page) => (
        <PageLink
          key={page.kind}
          page={page}
          view={view}
          language={language}
          onSelect={onSelect}
          count={badges[page.kind] ?? 0}
        />
      ))}
    </nav>
  );
});

/**
 * issue 40 item 8: an agent's state words, "Paused until 14:05" (the reset in local time) while a wake
 * of it is paused — a pause is visible wherever the agent is shown (DESIGN.md "Usage") — else `fallback`.
 */
/** The agent's dot by readiness and state. */
function stateDot(a: Agent, ready: boolean): string {
  // issue 40 item 6: a CLI not signed in is available (neutral), not a warning.
  if (a.readiness?.state === 'needs_sign_in') return '◇';
  if (!ready) return '⚠';
  return a.state === 'busy' ? '●' : a.state === 'idle' ? '○' : '◌';
}

/** The dot of an agent with a paused wake is the paused chip's icon; else its state's. */
function AgentStateDot({
  wakes,
  agentId,
  fallback,
}: {
  readonly wakes: WakeBook;
  readonly agentId: string;
  readonly fallback: string;
}) {
  const paused = usePausedWake(wakes, agentId);
  return (
    <span className="state-dot" aria-hidden="true">
      {paused === undefined ? fallback : CHIP_ICONS.paused}
    </span>
  );
}

function AgentStateText({
  wakes,
  agentId,
  language,
  fallback,
}: {
  readonly wakes: WakeBook;
  readonly agentId: string;
  readonly language: Language;
  readonly fallback: string;
}) {
  const paused = usePausedWake(wakes, agentId);
  return (
    <span className="agent-state-text" data-paused={paused === undefined ? undefined : (paused.reason ?? 'paused')}>
      {paused === undefined ? fallback : pausedHead(paused, language)}
    </span>
  );
}

/** A page's link: a heading of the nav (Team, Usage, Agents) or at its foot (Settings), with its badge. */
function PageLink({
  page,
  view,
  language,
  onSelect,
  count,
}: {
  readonly page: (typeof PAGES)[number];
  readonly view: View;
  readonly language: Language;
  onSelect(view: View): void;
  readonly count: number;
}) {
  const classes = [
    'nav-item',
    page.place === 'heading' ? 'heading-link' : null,
    'className' in page ? page.className : null,
    count > 0 ? 'has-unread' : null,
  ];
  return (
    <button
      type="button"
      className={classes.filter((c) => c !== null).join(' ')}
      aria-current={view.kind === page.kind ? 'page' : undefined}
      onClick={() => onSelect({ kind: page.kind })}
    >
      {'badge' in page ? (
        <>
          <span className="nav-label">{copy(language, page.label)}</span>
          {count > 0 && (
            <span className="unread-badge" {...{ [page.badge.attribute]: count }}>
              {count}
              <span className="visually-hidden"> {copy(language, page.badge.label, { count })}</span>
            </span>
          )}
        </>
      ) : (
        copy(language, page.label)
      )}
    </button>
  );
}
