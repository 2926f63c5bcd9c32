/**
 * issue 39: the teams room's wiring (issue 25) — chains of agent-caused wakes within
 * `limits.agentHops`, hand-backs, the operator's Continue, the deputy check of issue 41, and the
 * Team board. The root calls `wireTeams` once and merges `api` into the daemon's API; a chain that
 * changed leaves as `chain$` (the API's `chain.updated`, a channel's status line), a board entry
 * as `board$` (`team.updated`).
 */
import { merge, Subject, type Observable, type Subscription } from 'rxjs';
import type { Agent, Chain, TeamAgent } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { TeamsPort } from '../api/api-ports.js';
import type { ApprovalService } from '../approvals/approval-service.js';
import type { DaemonLog } from '../daemon-log.js';
import type { Store } from '../store/index.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import { deputyCheckOf } from './deputy-check.js';
import { TeamBoard } from './team-board.js';
import { TeamService } from './team-service.js';

/** The agents as the team sees them (the roster, as a port: services sit above this room). */
export interface TeamAgents {
  ids(): ReadonlySet<string>;
  agent(agentId: string): AgentConfig | undefined;
  runtimeOf(agentId: string): RuntimeKind;
  readonly name: (agentId: string) => string;
  views(): readonly Agent[];
  view(agentId: string): Agent | undefined;
  /** An agent's view changed (its session's state, its readiness, the file). */
  readonly updated$: Observable<{ readonly agent: { readonly id: string } }>;
}

export interface TeamWiringDeps {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly agents: TeamAgents;
  readonly approvals: Pick<ApprovalService, 'request' | 'pendingOf' | 'changes$'>;
  /** `limits.agentHops` (shared/config.ts has its default). */
  readonly agentHops: number;
  readonly dataDir: string;
  readonly log: DaemonLog;
}

export interface TeamsRoom {
  /** The chains' rule, for the communication and conversation services that route messages. */
  readonly team: TeamService;
  /** A chain's hops or status changed, as the API shows it. */
  readonly chain$: Observable<Chain>;
  /** One agent's Team board entry changed. */
  readonly board$: Observable<TeamAgent>;
  readonly api: { readonly teams: TeamsPort };
  dispose(): void;
}

export function wireTeams(d: TeamWiringDeps): TeamsRoom {
  const chains = new Subject<Chain>();
  const entries = new Subject<TeamAgent>();
  const team: TeamService = new TeamService({
    store: d.store,
    lifecycle: d.lifecycle,
    agentHops: d.agentHops,
    agentIds: () => d.agents.ids(),
    runtimeOf: (agentId) => d.agents.runtimeOf(agentId),
    displayName: d.agents.name,
    onChainChanged: (chain) => chains.next(team.toChain(chain)),
    // issue 41: a mention that would make the woken agent the author's deputy is asked as the author's approval.
    deputyCheck: deputyCheckOf((id) => d.agents.agent(id), d.dataDir),
    askOperator: (authorId, ask) =>
      d.approvals.request(
        { agentId: authorId, runtime: d.agents.runtimeOf(authorId), turnId: null, wakeTokens: [] },
        ask,
      ),
    log: d.log,
  });
  // The Team board, read from the agents, the lifecycle and the approvals; live per agent.
  const board = new TeamBoard({
    agents: () => d.agents.views(),
    agent: (agentId) => d.agents.view(agentId),
    lifecycle: d.lifecycle,
    store: d.store,
    pendingApprovals: (agentId) => d.approvals.pendingOf(agentId),
    changed: (entry) => entries.next(entry),
  });
  const refreshes: Subscription = merge(d.lifecycle.wakeStatus$, d.approvals.changes$).subscribe((e) =>
    board.refresh(e.agentId),
  );
  refreshes.add(d.agents.updated$.subscribe((u) => board.refresh(u.agent.id)));
  return {
    team,
    chain$: chains.asObservable(),
    board$: entries.asObservable(),
    api: {
      teams: {
        listChains: (filter) => team.listChains(filter),
        continueChain: (request) => team.toChain(team.continueChain(request)),
        board: () => board.board(),
      },
    },
    dispose: () => {
      refreshes.unsubscribe();
      chains.complete();
      entries.complete();
    },
  };
}
