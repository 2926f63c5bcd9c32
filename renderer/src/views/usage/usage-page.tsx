/** issue 27: what each agent consumed, its limits; Raise or (issue 39) Remove its budget. */
import { UsageView } from '../../components/usage-view.js';
import { useAgentRoster } from '../../state/agent-store.js';
import { useAppState } from '../../state/app-state-context.js';
import type { PageEntry, PageProps } from '../page.js';

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

export const USAGE_PAGE = {
  kind: 'usage',
  label: 'usage.nav',
  place: 'heading',
  className: 'usage-link',
  Page: UsagePage,
} as const satisfies PageEntry;
