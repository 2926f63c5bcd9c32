/** The sidebar: channels, direct messages, threads (under their parent), agents with state, settings. */
import { useState } from 'react';
import type { Agent, Conversation } from '../../../shared/api/contract.js';
import { groupConversations } from '../conversations/conversation-groups.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';

export type View =
  | { readonly kind: 'conversation'; readonly target: string }
  | { readonly kind: 'agents' }
  | { readonly kind: 'settings' };

export interface SidebarProps {
  readonly conversations: readonly Conversation[];
  readonly agents: readonly Agent[];
  readonly view: View;
  readonly language: Language;
  onSelect(view: View): void;
  /** Resolves with an error message, or null when created. */
  onCreateChannel(target: string): Promise<string | null>;
}

function ConversationLink({
  c,
  view,
  onSelect,
  nested,
}: {
  c: Conversation;
  view: View;
  onSelect: SidebarProps['onSelect'];
  nested?: boolean;
}) {
  const current = view.kind === 'conversation' && view.target === c.target;
  return (
    <li>
      <button
        type="button"
        className={`nav-item${nested === true ? ' nested' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => onSelect({ kind: 'conversation', target: c.target })}
        data-target={c.target}
      >
        {c.kind === 'dm' ? c.target.replace(/^dm:/, '') : c.kind === 'thread' ? `↳ ${c.title}` : c.target}
      </button>
    </li>
  );
}

export function Sidebar({ conversations, agents, view, language, onSelect, onCreateChannel }: SidebarProps) {
  const groups = groupConversations(conversations);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const t = (key: CopyKey) => copy(language, key);
  const withThreads = (list: readonly Conversation[]) =>
    list.flatMap((c) => [
      <ConversationLink key={c.target} c={c} view={view} onSelect={onSelect} />,
      ...(groups.threads.get(c.target) ?? []).map((th) => (
        <ConversationLink key={th.target} c={th} view={view} onSelect={onSelect} nested />
      )),
    ]);

  return (
    <nav className="sidebar" aria-label={t('sidebar.label')}>
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
      <h2 className="sidebar-heading">
        <button
          type="button"
          className="nav-item heading-link"
          aria-current={view.kind === 'agents' ? 'page' : undefined}
          onClick={() => onSelect({ kind: 'agents' })}
        >
          {t('sidebar.agents')}
        </button>
      </h2>
      <ul className="agent-states">
        {agents.map((a) => (
          <li key={a.id} className={`agent-state state-${a.state}`} data-agent={a.id}>
            <span className="state-dot" aria-hidden="true">
              {a.state === 'busy' ? '●' : a.state === 'idle' ? '○' : '◌'}
            </span>
            <span className="agent-name">{a.name}</span>{' '}
            <span className="agent-state-text">
              ({a.demo ? t('agent.demo') : copy(language, `agent.state.${a.state}`)})
            </span>
            {/* issue 14: the workspace and the permission policy (`full` carries a warning badge). */}
            {a.permissions !== undefined && !a.demo && (
              <span className={`agent-permissions permissions-${a.permissions}`} data-permissions={a.permissions}>
                {a.permissions === 'full' ? '⚠ ' : ''}
                {a.permissions}
              </span>
            )}
            {a.cwd !== undefined && !a.demo && (
              <span className="agent-cwd" title={a.cwd}>
                {a.cwd}
              </span>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="nav-item settings-link"
        aria-current={view.kind === 'settings' ? 'page' : undefined}
        onClick={() => onSelect({ kind: 'settings' })}
      >
        {t('sidebar.settings')}
      </button>
    </nav>
  );
}
