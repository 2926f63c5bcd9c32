/**
 * issue 39: the agents' wiring — the roster (services/agent-roster.ts) with its readiness probe:
 * the runtime's own probe (runtime/readiness.ts, over SSH for an agent on another host), git's for
 * an isolated agent (the worktrees room), kept by the probe cache so the CLI runs only when its
 * files or the agent's entry changed, or on Retry (issue 42). The root calls `wireRoster` once.
 */
import type { SchedulerLike } from 'rxjs';
import type { AgentConfig, Config } from '../../../shared/config.js';
import type { AgentGrants } from '../approvals/agent-grants.js';
import type { DaemonLog } from '../daemon-log.js';
import { currentPersonProfile, type PersonProfile } from '../runtime/auth/person-profile.js';
import type { ReadinessProbe } from '../runtime/cli-probe.js';
import type { AgentHosts } from '../runtime/process-launcher.js';
import { ProbeCache } from '../runtime/probe-cache.js';
import { probeAgent } from '../runtime/readiness.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { WorktreeHome } from '../worktrees/worktree-wiring.js';
import type { AgentCosts } from '../resources/agent-costs.js';
import { AgentRoster, type AgentRosterOptions } from './agent-roster.js';

export interface RosterWiringDeps {
  readonly dataDir: string;
  readonly projectRoot: string;
  /** agentteam.json as at start: its agents are the ones that run. */
  readonly config: Pick<Config, 'agents'>;
  readonly source: AgentRosterOptions['file'];
  readonly lifecycle: Pick<WakeLifecycle, 'registerAgent'>;
  /** The daemon's one clock. */
  readonly clock: SchedulerLike;
  readonly grants: AgentGrants;
  readonly hosts: AgentHosts;
  /** The person whose sign-ins the agents share (tests: their own); the current one by default. */
  readonly person?: PersonProfile | undefined;
  /** A test's own readiness probe (CreateDaemonOptions.probe). */
  readonly probe?: ((agent: AgentConfig) => Promise<ReadinessProbe>) | undefined;
  /** The worktrees room's home: git's readiness for an isolated agent, and its worktree. */
  readonly home: Pick<WorktreeHome, 'gitReady' | 'worktreeOf'>;
  /** issue 42: what each agent's process tree costs now (the resources room). */
  readonly costs: Pick<AgentCosts, 'of'>;
  readonly log: DaemonLog;
}

export function wireRoster(d: RosterWiringDeps): AgentRoster {
  const person = d.person === undefined ? {} : { person: d.person };
  const probes = new ProbeCache({
    dataDir: d.dataDir,
    person: d.person ?? currentPersonProfile(),
    probe: d.home.gitReady(
      (a) =>
        d.probe?.(a) ?? probeAgent(a, { dataDir: d.dataDir, projectRoot: d.projectRoot, ...person, hosts: d.hosts }),
    ),
  });
  return new AgentRoster({
    agents: d.config.agents,
    file: d.source,
    lifecycle: d.lifecycle,
    dataDir: d.dataDir,
    grants: d.grants,
    probe: (a, fresh) => probes.probe(a, fresh),
    closeProbes: () => probes.close(),
    clock: d.clock,
    worktreeOf: d.home.worktreeOf,
    costOf: (id) => d.costs.of(id),
    log: d.log,
  });
}
