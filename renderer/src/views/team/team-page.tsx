/** issue 25: every agent and what it is doing now; the link counts the agents that need the operator. */
import { TeamView } from '../../components/team-view.js';
import { useAgents } from '../../state/agent-store.js';
import { useAppState } from '../../state/app-state-context.js';
import { useTeamNeedsYou } from '../../state/team-store.js';
import type { PageEntry, PageProps } from '../page.js';

function TeamPage({ language, navigation }: PageProps) {
  const { state } = useAppState();
  return (
    <TeamView
      team={state.team}
      agents={useAgents(state.agents)}
      language={language}
      onOpenConversation={navigation.openConversation}
      onOpenAgent={navigation.openAgent}
      onMessage={navigation.message}
    />
  );
}

export const TEAM_PAGE = {
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
} as const satisfies PageEntry;
