/** The agents and their readiness, each with its Message action. */
import { AgentsPage } from '../../components/agents-page.js';
import { useAgents } from '../../state/agent-store.js';
import { useAppState } from '../../state/app-state-context.js';
import type { PageEntry, PageProps } from '../page.js';

function AgentsListPage({ language, navigation }: PageProps) {
  const { state } = useAppState();
  return <AgentsPage agents={useAgents(state.agents)} language={language} onMessage={navigation.message} />;
}

export const AGENTS_PAGE = {
  kind: 'agents',
  label: 'sidebar.agents',
  place: 'heading',
  Page: AgentsListPage,
} as const satisfies PageEntry;
