/**
 * issue 39: the pages of the shell, in the sidebar's order. The sidebar lists each as a link (with
 * its badge), the shell shows the one on view: a new page is one component file and one line in
 * `PAGES`. A conversation and one agent's detail are not pages: the sidebar lists those themselves
 * (conversations.tsx grouping, the agent rows) and the shell opens them with their target.
 *
 * Each page reads the stores it shows itself (useAppState): only the page on view subscribes, so a
 * busy/idle flip re-renders that page, not the shell (issue 30).
 */
import { useMemo, type ComponentType } from 'react';
import { AgentsPage } from '../components/agents-page.js';
import { SettingsView } from '../components/settings-view.js';
import { TeamView } from '../components/team-view.js';
import { UsageView } from '../components/usage-view.js';
import type { CopyKey, Language } from '../i18n/copy.js';
import { useAgentRoster, useAgents } from '../state/agent-store.js';
import { useAppState } from '../state/app-state-context.js';
import { useConversations } from '../state/conversation-store.js';
import { useTeamNeedsYou } from '../state/team-store.js';
import { useValue } from '../state/value-store.js';

/** What the shell shows: a conversation, one agent's detail (issue 17), or one of the pages. */
export type View =
  | { readonly kind: 'conversation'; readonly target: string }
  | { readonly kind: 'agent'; readonly agentId: string }
  | { readonly kind: PageKind };

/** The shell's navigation, as the pages use it. */
export interface Navigation {
  select(view: View): void;
  /** Shows a conversation that exists (e.g. a Team row's). */
  openConversation(target: string): void;
  /** Opens (or creates) the direct conversation with an agent. */
  message(agentId: string): void;
}

export interface PageProps {
  readonly language: Language;
  readonly navigation: Navigation;
}

interface PageEntry {
  readonly kind: string;
  /** The sidebar link's words (and the page's name for assistive technology). */
  readonly label: CopyKey;
  /** In the sidebar: a heading of the nav (before the agent rows), or at its foot. */
  readonly place: 'heading' | 'foot';
  /** The link's own class (styles). */
  readonly className?: string;
  /**
   * A count on the link, e.g. the agents that need the operator (issue 25); with its words for
   * assistive technology and the data attribute that carries it.
   */
  readonly badge?: { readonly useCount: () => number; readonly label: CopyKey; readonly attribute: `data-${string}` };
  readonly Page: ComponentType<PageProps>;
}

/** issue 25: every agent and what it is doing now. */
function TeamPage({ language, navigation }: PageProps) {
  const { state } = useAppState();
  return (
    <TeamView
      team={state.team}
      agents={useAgents(state.agents)}
      language={language}
      onOpenConversation={navigation.openConversation}
      onOpenAgent={(agentId) => navigation.select({ kind: 'agent', agentId })}
      onMessage={navigation.message}
    />
  );
}

/** issue 27: what each agent consumed, its limits; Raise or (issue 39) Remove its budget. */
function UsagePage({ language }: PageProps) {
  const { state } = useAppState();
  return (
    <UsageView
      usage={state.usage}
      agents={useAgentRoster(state.agents)}
      language={language}
      raiseBudget={(agentId, budget) =>
        state.api.agents.raiseBudget({ agentId, budget }).then((r) => (r.ok ? null : r.message))
      }
    />
  );
}

function AgentsListPage({ language, navigation }: PageProps) {
  const { state } = useAppState();
  return <AgentsPage agents={useAgents(state.agents)} language={language} onMessage={navigation.message} />;
}

function SettingsPage({ language }: PageProps) {
  const { state } = useAppState();
  const settings = useValue(state.settings);
  const conversations = useConversations(state.conversations);
  if (settings === null) return null;
  return (
    <SettingsView
      settings={settings}
      language={language}
      channels={state.api.channels}
      conversations={conversations}
      onSave={(update) => state.saveSettings(update)}
    />
  );
}

export const PAGES = [
  {
    kind: 'team',
    label: 'team.nav',
    place: 'heading',
    className: 'team-link',
    badge: {
      useCount: () => useTeamNeedsYou(useAppState().state.team),
      label: 'team.needsYouCount',
      attribute: 'data-needs-you',
    },
    Page: TeamPage,
  },
  { kind: 'usage', label: 'usage.nav', place: 'heading', className: 'usage-link', Page: UsagePage },
  { kind: 'agents', label: 'sidebar.agents', place: 'heading', Page: AgentsListPage },
  { kind: 'settings', label: 'sidebar.settings', place: 'foot', className: 'settings-link', Page: SettingsPage },
] as const satisfies readonly PageEntry[];

export type PageKind = (typeof PAGES)[number]['kind'];

/** The page a view shows, or null for a conversation or an agent's detail. */
export function pageOf(view: View): PageEntry | null {
  return PAGES.find((p) => p.kind === view.kind) ?? null;
}

/** Each page's badge count (0 without one), for the sidebar; the same object while no count changes. */
export function usePageBadges(): Readonly<Partial<Record<PageKind, number>>> {
  // `PAGES` never changes, so these hooks run in the same order on every render.
  const counts = PAGES.map((p) => ('badge' in p ? p.badge.useCount() : 0));
  const key = counts.join(',');
  return useMemo(() => Object.fromEntries(PAGES.map((p, i) => [p.kind, counts[i]])), [key]);
}
