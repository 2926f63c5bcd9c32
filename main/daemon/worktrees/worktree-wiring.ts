/**
 * issue 39: the worktrees room's wiring (issue 26) — an isolated agent's git worktree (made at its
 * runtime's start, merged or discarded by the operator) and every wake's changes, snapshotted when
 * it is delivered and when it ends, off the hot path. The root calls `wireWorktrees` once and
 * merges `api` into the daemon's API; a wake whose changes were stored leaves as `changed$`. What
 * the roster reads of the room (its git check, the worktrees it prepared) is `worktreeHome`, built
 * before the roster and the room alike.
 */
import { Subject, type Observable } from 'rxjs';
import type { WakeChangesSummary } from '../../../shared/api/contract.js';
import { DEFAULT_AGENT_CWD, type AgentConfig } from '../../../shared/config.js';
import type { RemoteGit } from '../git/git-host.js';
import type { ChangesPort, WorktreesPort } from '../api/api-ports.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ReadinessProbe } from '../runtime/readiness.js';
import { workspaceOf } from '../runtime/workspace.js';
import type { Store } from '../store/index.js';
import type { WakeStatusEvent } from '../wake/wake-status-event.js';
import { WakeChanges } from './wake-changes.js';
import { isolatedWorktree, type AgentWorktree } from './worktree-contract.js';
import { WorktreeService, checkGit, withGitReadiness, worktreesApi, type GitAvailability } from './worktree-service.js';

/** The agents as this room asks about them (the roster, as a port: services sit above this room). */
export interface WorktreeAgents {
  /** The agent's entry as it runs. */
  agent(agentId: string): AgentConfig | undefined;
  /** Whether the agent's turn is running now (merge and discard are refused then). */
  turnRunning(agentId: string): boolean;
  /** The agent's worktree was made, reused or repaired: its view shows it. */
  changed(agentId: string): void;
}

export interface WorktreeWiringDeps {
  readonly dataDir: string;
  /** issue 29: folders besides the data dir no workspace may overlap. */
  readonly privateDirs?: readonly string[] | undefined;
  readonly store: Store;
  readonly lifecycle: { readonly wakeStatus$: Observable<WakeStatusEvent> };
  readonly agents: WorktreeAgents;
  /** The room's git check and prepared worktrees (`worktreeHome`), shared with the roster. */
  readonly home: WorktreeHome;
  /** issue 43: git on an agent's host (hosts/ssh-hosts.ts `gitOf`); null for an agent on this machine. */
  readonly hostGitOf?: (agent: AgentConfig) => RemoteGit | null;
  readonly log: DaemonLog;
}

/** What the room keeps that the roster reads: its git check and the worktrees it prepared. */
export interface WorktreeHome {
  /** Git as this room checks it: once, at its first use (an isolated agent's readiness probe or worktree). */
  readonly check: () => Promise<GitAvailability>;
  /** The worktree prepared for each agent (the service writes it). */
  readonly prepared: Map<string, AgentWorktree>;
  /** A readiness probe that also needs a usable git for an isolated agent. */
  gitReady(probe: (agent: AgentConfig) => Promise<ReadinessProbe>): (agent: AgentConfig) => Promise<ReadinessProbe>;
  /** The worktree of an agent as it runs (its view shows it), else null (worktree-contract.ts). */
  worktreeOf(agent: AgentConfig): AgentWorktree | null;
}

/**
 * issue 39: the room's git check and prepared worktrees as a value, built before the roster (whose
 * readiness probe and agent view read them) and before the room (whose service checks git and
 * prepares worktrees into them): no forward reference either way.
 */
export function worktreeHome(): WorktreeHome {
  let checked: Promise<GitAvailability> | null = null;
  const check = () => (checked ??= checkGit());
  const prepared = new Map<string, AgentWorktree>();
  return {
    check,
    prepared,
    gitReady: (probe) => withGitReadiness(probe, check),
    worktreeOf: (agent) => isolatedWorktree(agent, prepared),
  };
}

export interface WorktreesRoom {
  readonly service: WorktreeService;
  /** A wake's changes were stored: its summary (state, file count, times; never the patches). */
  readonly changed$: Observable<WakeChangesSummary>;
  readonly api: { readonly worktrees: WorktreesPort; readonly changes: ChangesPort };
  dispose(): Promise<void>;
}

export function wireWorktrees(d: WorktreeWiringDeps): WorktreesRoom {
  const changed = new Subject<WakeChangesSummary>();
  const service = new WorktreeService({
    dataDir: d.dataDir,
    ...(d.privateDirs === undefined ? {} : { privateDirs: d.privateDirs }),
    turnRunning: (id) => d.agents.turnRunning(id),
    gitCheck: d.home.check,
    worktrees: d.home.prepared,
    agent: (id) => d.agents.agent(id),
    prepared: (id) => d.agents.changed(id),
    ...(d.hostGitOf === undefined ? {} : { hostGitOf: d.hostGitOf }),
    log: d.log,
  });
  /** issue 43: an agent with `host` and a folder there (its `cwd`, or its worktree) is snapshotted there. */
  const onHost = (agent: AgentConfig | undefined): boolean =>
    agent?.host !== undefined && (agent.cwd !== DEFAULT_AGENT_CWD || service.worktreeOf(agent.id) !== null);
  const changes = new WakeChanges({
    // issue 30: its two writes per wake in store transactions, so they join the turn's group
    // commit (an autocommit write syncs on the main thread before it returns).
    table: {
      start: (r) => d.store.transaction(() => d.store.wakeChanges.start(r)),
      end: (r) => d.store.transaction(() => d.store.wakeChanges.end(r)),
      get: (wakeToken) => d.store.wakeChanges.get(wakeToken),
    },
    wakeStatus$: d.lifecycle.wakeStatus$,
    workspaceOf: (id) => {
      const agent = d.agents.agent(id);
      if (agent === undefined) return undefined;
      return onHost(agent) ? agent.cwd : workspaceOf(agent.cwd, d.dataDir, id);
    },
    gitHostOf: (id) => (onHost(d.agents.agent(id)) ? service.gitHostOf(id) : undefined),
    worktreeOf: service.worktreeOf,
    changed: (summary) => changed.next(summary),
    log: d.log,
  });
  changes.start();
  return {
    service,
    changed$: changed.asObservable(),
    api: { worktrees: worktreesApi(service), changes: service },
    dispose: async () => {
      await changes.dispose();
      changed.complete();
    },
  };
}
