/**
 * The agent roster: the agents as agentteam.json has them and as they run (issue 14: a workspace
 * or policy chosen in the UI restarts that agent with its file entry; until then it runs the
 * entry it started with). One registry, one lookup. It also owns:
 * - the agent view of the API (`toAgent` + readiness, workspace, sign-in, `allow` as the file
 *   has it now), re-emitted on `updated$` when a session's state, a readiness or the file changes;
 * - the wake lifecycle's profile of each agent (registered at launch and at each restart);
 * - the per-agent restart chain: restarts of one agent run one after another.
 */
import type { TeamMate } from '../prompt/team-context.js';
import { Subject, Subscription, skip, type Observable, type SchedulerLike } from 'rxjs';
import { UNKNOWN_RUNTIME_WORDS, type RuntimeWords } from '../../../shared/agent-readiness.js';
import type { Agent } from '../../../shared/api/contract.js';
import { AgentConfigSchema, type AgentConfig, type Config } from '../../../shared/config.js';
import { toAgent, type AgentMore } from '../api/api-mappers.js';
import type { ApprovalPolicyOf } from '../approvals/approval-service.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ReadinessProbe } from '../runtime/readiness.js';
import { runtimeWordsOf, startsWhenReady } from '../runtime/registry.js';
import { sessionStoreOf } from '../runtime/runtime-factory.js';
import { DEFAULT_RESTART_POLICY } from '../runtime/supervisor.js';
import { workspaceOf } from '../runtime/workspace.js';
import type { AgentProfile, WakeLifecycle } from '../wake/wake-lifecycle.js';
import { AgentReadinessService } from './agent-readiness.js';
import type { AgentSession, MaybeMadeAdapter } from './agent-session.js';
import type { AgentWorktree } from '../worktrees/worktree-contract.js';

/** What the roster drives of an agent's session (services/agent-session.ts). */
export type RosterSession = Pick<
  AgentSession,
  'state' | 'down' | 'turnId' | 'wakesOfTurn' | 'start' | 'replace' | 'sleep' | 'stop' | 'endTurn' | 'stillEnding'
>;

/** What an `agent.updated` event is built from (api-mappers.ts `toAgent`). */
export interface AgentUpdate {
  readonly agent: AgentConfig;
  readonly state: Agent['state'];
  readonly more: AgentMore;
}

export interface AgentRosterOptions {
  /** The agents as agentteam.json had them at start: the ones that run. */
  readonly agents: readonly AgentConfig[];
  /** agentteam.json as it is now (issue 17: watched); `state$` replays the current state first. */
  readonly file: { readonly config: Config; readonly state$: Observable<unknown> };
  readonly lifecycle: Pick<WakeLifecycle, 'registerAgent'>;
  readonly dataDir: string;
  /** issue 29: the rules the daemon granted each agent, and those agentteam.json lists without a grant. */
  readonly grants?: {
    rules(agentId: string): string[];
    unconfirmed(agentId: string): string[];
    /** An agent's grants (or the file's rules) changed: its view is re-emitted. */
    readonly changed$: Observable<string>;
  };
  /**
   * issue 15: one agent's CLI and sign-in check (runtime/readiness.ts `probeAgent`); issue 42:
   * through the probe cache, `fresh` for the operator's Retry.
   */
  readonly probe: (agent: AgentConfig, fresh?: boolean) => Promise<ReadinessProbe>;
  /** The probes keep nothing from now on (the daemon stops; runtime/probe-cache.ts `close`). */
  readonly closeProbes?: () => void;
  /** The daemon's one clock (issue 39): the held-back sign-in check runs on it. */
  readonly clock: SchedulerLike;
  /** issue 26: the worktree an agent as it runs works in (worktrees/worktree-wiring.ts `worktreeHome`). */
  readonly worktreeOf?: (agent: AgentConfig) => AgentWorktree | null;
  /** issue 42: what the agent's process tree costs now (resources/agent-costs.ts). */
  readonly costOf?: (agentId: string) => { readonly rssBytes: number | null; readonly cpuPercent: number | null };
  readonly log?: DaemonLog;
}

/** The approval policy of an agent the file no longer names: the schema's defaults (shared/config.ts). */
const DEFAULT_POLICY: ApprovalPolicyOf = AgentConfigSchema.pick({ approvalTimeoutSeconds: true, allow: true }).parse(
  {},
);

const RESTART_DETAIL = 'the agent was restarted to apply its new workspace or permissions';
const RETRY_DETAIL = 'the operator asked to retry starting the agent';
const READY_DETAIL = 'a check found the agent ready (signed in, or its CLI installed)';
/** issue 40 item 6: how often a CLI held back for its sign-in is looked at again (a stat of its files). */
const HELD_BACK_CHECK_MS = 5000;

/** The wake lifecycle's profile of an agent (its preset names its tools in the final-check, issue 38). */
export const profileOf = (agent: AgentConfig): AgentProfile => ({
  agentId: agent.id,
  publicName: agent.id,
  displayName: agent.name,
  runtime: agent.runtime,
  model: agent.model,
  language: agent.language,
  agentTools: agent.agentTools,
  ...(agent.preset === undefined ? {} : { preset: agent.preset }),
});

interface Entry {
  /** The entry as it runs. */
  config: AgentConfig;
  session: RosterSession | null;
  build: ((agent: AgentConfig) => MaybeMadeAdapter) | null;
  /** The tail of this agent's restart chain. */
  restarts: Promise<unknown>;
}

export class AgentRoster {
  readonly #o: AgentRosterOptions;
  readonly #entries = new Map<string, Entry>();
  /** The running entries in file order; the readiness service reads this same array. */
  readonly #running: AgentConfig[];
  readonly #readiness: AgentReadinessService;
  readonly #updated = new Subject<AgentUpdate>();
  readonly #subs = new Subscription();
  #disposed = false;
  #started = false;
  /** The held-back check while one is scheduled (`#watchHeldBack`). */
  #heldBackCheck: Subscription | null = null;
  /** An agent's view changed. */
  readonly updated$: Observable<AgentUpdate> = this.#updated.asObservable();
  readonly #applied = new Subject<string>();
  /**
   * The running entries changed (a restart applied the agent's file entry; the agent's id): the
   * settings compute "restart to apply" again (issue 14; issue 39: an event, not a port back).
   */
  readonly applied$: Observable<string> = this.#applied.asObservable();

  constructor(options: AgentRosterOptions) {
    this.#o = options;
    this.#running = [...options.agents];
    for (const config of options.agents)
      this.#entries.set(config.id, { config, session: null, build: null, restarts: Promise.resolve() });
    this.#readiness = new AgentReadinessService({
      agents: this.#running,
      probe: options.probe,
      restartCap: DEFAULT_RESTART_POLICY.maxRestarts,
      changed: (a) => this.changed(a.id),
    });
    if (options.grants) this.#subs.add(options.grants.changed$.subscribe((agentId) => this.changed(agentId)));
  }

  /** The agents as they run, in file order. */
  running(): readonly AgentConfig[] {
    return this.#running;
  }

  /** An agent's entry as it runs. */
  agent(agentId: string): AgentConfig | undefined {
    return this.#entries.get(agentId)?.config;
  }

  /** An agent's display name (its id when unknown). */
  readonly name = (agentId: string): string => this.agent(agentId)?.name ?? agentId;

  /** issue 39: what the agent's runtime is called and how it is signed in (neutral words when unknown). */
  readonly runtimeWords = (agentId: string): RuntimeWords => {
    const agent = this.agent(agentId);
    return agent === undefined ? UNKNOWN_RUNTIME_WORDS : runtimeWordsOf(agent);
  };

  ids(): ReadonlySet<string> {
    return new Set(this.#entries.keys());
  }

  /** issue 29: a runtime that ignores its own interrupt — its process is replaced, as a crashed one is. */
  restartReplaced(agentId: string, detail: string): void {
    const agent = this.agent(agentId);
    if (agent !== undefined) this.restart(agent, { workspaceChanged: false }, detail);
  }

  runtimeOf(agentId: string): AgentConfig['runtime'] {
    return this.agent(agentId)?.runtime ?? 'demo';
  }

  session(agentId: string): RosterSession | undefined {
    return this.#entries.get(agentId)?.session ?? undefined;
  }

  /**
   * The agent's approval policy now: its timeout as agentteam.json has it (else the running entry,
   * else the schema's default); issue 29: its `always` rules only as the daemon granted them (the
   * store), never as the file lists them — the file's list is for reading.
   */
  policyOf(agentId: string): ApprovalPolicyOf {
    const entry = this.#fileEntry(agentId) ?? this.agent(agentId) ?? DEFAULT_POLICY;
    const grants = this.#o.grants;
    return {
      approvalTimeoutSeconds: entry.approvalTimeoutSeconds,
      allow: grants === undefined ? entry.allow : grants.rules(agentId),
    };
  }

  /** The agent's running turn, or null (none, or no session yet). */
  turnOf(agentId: string): string | null {
    return this.session(agentId)?.turnId ?? null;
  }

  /** Whether the agent's turn is running now (issue 26: merge and discard are refused then). */
  turnRunning(agentId: string): boolean {
    return this.turnOf(agentId) !== null;
  }

  /** The wakes a turn of the agent's session carried (none when it has no session). */
  wakesOfTurn(agentId: string, turnId: string): readonly string[] {
    return this.session(agentId)?.wakesOfTurn(turnId) ?? [];
  }

  /**
   * What runs, with `allow` and (issue 27) `budget` read from the file (they apply at once):
   * "restart to apply" compares the file with it.
   */
  appliedAgents(): AgentConfig[] {
    return this.#running.map((a) => {
      const file = this.#fileEntry(a.id);
      return { ...a, allow: file?.allow ?? a.allow, budget: file === undefined ? a.budget : file.budget };
    });
  }

  /** One running agent's view (undefined: not running). */
  view(agentId: string): Agent | undefined {
    const a = this.agent(agentId);
    if (a === undefined) return undefined;
    const u = this.#update(a);
    return toAgent(u.agent, u.state, u.more);
  }

  views(): Agent[] {
    return this.#running.map((a) => {
      const u = this.#update(a);
      return toAgent(u.agent, u.state, u.more);
    });
  }

  /** issue 25: the other agents of the team (id, display name, runtime, ready), as the turn context lists them. */
  mates(agentId: string): TeamMate[] {
    return this.views()
      .filter((v) => v.id !== agentId)
      .map((v) => ({ id: v.id, name: v.name, runtime: v.runtime, ready: v.readiness?.ready ?? false }));
  }

  /** Re-emits an agent's view (its session's state changed). */
  changed(agentId: string): void {
    // After dispose no view is built (a session may still settle while the daemon stops; the store is closed).
    if (this.#disposed) return;
    const agent = this.agent(agentId);
    if (agent === undefined) return;
    this.#updated.next(this.#update(agent));
    if (this.#heldBack(agent)) this.#watchHeldBack();
  }

  /** issue 15: a restart was scheduled (attempt n), or the runtime is up again (null). */
  restarting(agentId: string, attempt: number | null): void {
    const agent = this.agent(agentId);
    if (agent !== undefined) this.#readiness.restart(agent, attempt);
  }

  /** Probes the agents (all, or the named one). */
  check(agentId?: string): Promise<void> {
    return this.#readiness.check(agentId);
  }

  /**
   * issue 40 "Retry" (the agent page, the failed chip, `agentteam retry`): probes again, then
   * starts anew each agent whose runtime is down — it could not start (its workspace, its entry,
   * its CLI or sign-in) or gave up after its restarts — with its entry as agentteam.json has it
   * now (the fix the person just made). Resolves once those starts settled. Never called on its
   * own after a failed start (a loop): only for the operator.
   */
  async retry(agentId?: string, fresh = true): Promise<void> {
    await this.#readiness.check(agentId, fresh);
    // A CLI still missing or not signed in stays as it is: the check just said why (no process, no second probe).
    const down = this.#running.filter(
      (a) =>
        (agentId === undefined || a.id === agentId) &&
        this.session(a.id)?.state === 'crashed' &&
        (!startsWhenReady(a) || this.#readiness.refusal(a) === null),
    );
    await Promise.all(
      down.map((running) => {
        const file = this.#fileEntry(running.id) ?? running;
        this.restart(file, { workspaceChanged: file.cwd !== running.cwd }, fresh ? RETRY_DETAIL : READY_DETAIL);
        return this.#entries.get(running.id)?.restarts;
      }),
    );
  }

  /** Registers the agent with the wake lifecycle and starts its session with the runtime `build` makes. */
  launch(agentId: string, session: RosterSession, build: (agent: AgentConfig) => MaybeMadeAdapter): void {
    const entry = this.#entries.get(agentId);
    if (entry === undefined) return;
    this.#o.lifecycle.registerAgent(profileOf(entry.config));
    entry.session = session;
    entry.build = build;
    // The session follows the lifecycle's deliveries before anything is admitted (start subscribes synchronously).
    void session.start(this.#whenReady(entry.config, build));
  }

  /**
   * issue 40 item 6: a CLI runtime is built only once its readiness probe finds it ready — one that
   * is missing or not signed in runs no process at all (its wakes fail with that reason meanwhile);
   * Retry (`retry`) starts it once it is. Rows admitted while the probe runs wait, as while a
   * runtime starts. The demo needs no probe.
   */
  #whenReady(agent: AgentConfig, build: (agent: AgentConfig) => MaybeMadeAdapter): MaybeMadeAdapter {
    if (!startsWhenReady(agent)) return build(agent);
    return this.#readiness
      .startable(agent)
      .then((refused): MaybeMadeAdapter => (refused === null ? build(agent) : { ok: false, ...refused }));
  }

  /**
   * Follows agentteam.json (a changed file may have changed an agent's rules) and checks every
   * agent's readiness. issue 40 item 6 "sign-in detected → it starts": a CLI held back for its
   * sign-in (or install) is checked again every few seconds — a `stat` of its files, the CLI asked
   * only when they changed (runtime/probe-cache.ts) — and started once it is ready.
   */
  start(): void {
    this.#started = true;
    if (this.#running.some((a) => this.#heldBack(a))) this.#watchHeldBack();
    this.#subs.add(
      this.#o.file.state$.pipe(skip(1)).subscribe(() => {
        for (const a of this.#running) this.changed(a.id);
      }),
    );
    void this.check();
  }

  /**
   * issue 14: the agent runs `agent` (its entry as saved into agentteam.json) from now on: its
   * process is replaced, after any restart of it still under way. Unknown or not launched: ignored.
   */
  restart(agent: AgentConfig, change: { readonly workspaceChanged: boolean }, detail = RESTART_DETAIL): void {
    const entry = this.#entries.get(agent.id);
    const session = entry?.session ?? null;
    const build = entry?.build ?? null;
    if (entry === undefined || session === null || build === null) return;
    entry.config = agent;
    this.#running[this.#running.findIndex((a) => a.id === agent.id)] = agent;
    this.#o.lifecycle.registerAgent(profileOf(agent));
    this.#applied.next(agent.id);
    this.#o.log?.info(
      detail === RESTART_DETAIL ? 'agent restarting with its configuration from agentteam.json' : 'agent restarting',
      {
        agentId: agent.id,
        cwd: workspaceOf(agent.cwd, this.#o.dataDir, agent.id),
        permissions: agent.permissions,
      },
    );
    // A new workspace is a new project: its stored session is forgotten, so the new process starts
    // fresh (never resumed into another folder). issue 40: an agent whose runtime is down (never
    // started, or gave up) is built only once it is ready, as at launch.
    const down = session.state === 'crashed';
    this.#replace(entry, session, () => (down ? this.#whenReady(agent, build) : build(agent)), {
      forgetSession: change.workspaceChanged,
      detail,
    });
  }

  /**
   * issue 24 (contract §6.6): the agent's context overflowed and its session cannot go on: its
   * process is replaced, with the entry it runs, by one that starts a fresh session (the stored
   * session forgotten: no `--resume`, a new Codex thread, a new OpenCode session), after any
   * restart of it still under way. Unknown or not launched: ignored.
   */
  renew(agentId: string, detail: string): void {
    const entry = this.#entries.get(agentId);
    const session = entry?.session ?? null;
    const build = entry?.build ?? null;
    if (entry === undefined || session === null || build === null) return;
    // Forgotten now, so a daemon killed before the replacement never resumes the overflowed
    // session either; and again once the old process is gone.
    const store = sessionStoreOf(this.#o.dataDir, agentId);
    const forgotten = store.load()?.sessionId ?? null;
    store.clear();
    this.#o.log?.info(
      'context overflowed: the stored runtime session is forgotten; the agent continues in a fresh one',
      {
        agentId,
        sessionId: forgotten,
      },
    );
    // The entry as it runs once the restarts before this one are done.
    this.#replace(entry, session, () => build(entry.config), { forgetSession: true, detail });
  }

  /** The one replacement path (`AgentSession.replace`), on this agent's restart chain. */
  #replace(
    entry: Entry,
    session: RosterSession,
    build: () => MaybeMadeAdapter,
    how: { readonly forgetSession: boolean; readonly detail: string },
  ): void {
    const next = entry.restarts
      .then(() =>
        session.replace(() => {
          // Once the old process is gone (nothing can save its session again).
          if (how.forgetSession) sessionStoreOf(this.#o.dataDir, entry.config.id).clear();
          return build();
        }, how.detail),
      )
      // Not part of the chain: a later restart must not wait for a probe (wakes would reach the old process).
      .then(() => void this.check(entry.config.id));
    entry.restarts = next.catch(() => undefined);
  }

  /** The agent's session state now (`crashed` when it has none). */
  stateOf(agentId: string): Agent['state'] {
    return this.session(agentId)?.state ?? 'crashed';
  }

  /**
   * issue 42 "Sleep and wake": stops the idle agent's process until its next delivery, which starts
   * its entry as it runs then (in the same session). On the agent's restart chain: never while a
   * replacement is under way. False when it was not idle (or not launched).
   */
  sleep(agentId: string): Promise<boolean> {
    const entry = this.#entries.get(agentId);
    const session = entry?.session ?? null;
    const build = entry?.build ?? null;
    if (entry === undefined || session === null || build === null) return Promise.resolve(false);
    const slept = entry.restarts.then(() => session.sleep(() => build(entry.config)));
    entry.restarts = slept.catch(() => undefined);
    return slept;
  }

  /** issue 40 item 6: the agent's runtime is down because its CLI is not ready (not signed in, missing). */
  #heldBack(agent: AgentConfig): boolean {
    return this.session(agent.id)?.state === 'crashed' && this.#readiness.refusal(agent) !== null;
  }

  /**
   * Schedules the held-back check on the daemon's clock, once: every few seconds while an agent is
   * held back (each one retried with a cached probe), then no more — nothing stays scheduled while
   * every agent is ready (an agent that becomes held back arms it again, from `changed`).
   */
  #watchHeldBack(): void {
    if (!this.#started || this.#disposed || this.#heldBackCheck !== null) return;
    const check = this.#o.clock.schedule(() => {
      this.#subs.remove(check);
      this.#heldBackCheck = null;
      const held = this.#running.filter((a) => this.#heldBack(a));
      for (const a of held) void this.retry(a.id, false);
      if (held.length > 0) this.#watchHeldBack();
    }, HELD_BACK_CHECK_MS);
    this.#heldBackCheck = check;
    this.#subs.add(check);
  }

  /** Stops every session (its runtime ends: no orphans). */
  async stop(): Promise<void> {
    this.#o.closeProbes?.();
    await Promise.allSettled([...this.#entries.values()].map((e) => e.session?.stop()));
  }

  /** Stops following the file; no view is emitted any more. */
  dispose(): void {
    this.#disposed = true;
    this.#subs.unsubscribe();
    this.#updated.complete();
    this.#applied.complete();
  }

  #fileEntry(agentId: string): AgentConfig | undefined {
    return this.#o.file.config.agents.find((a) => a.id === agentId);
  }

  #update(agent: AgentConfig): AgentUpdate {
    const session = this.session(agent.id);
    const state = this.stateOf(agent.id);
    return {
      agent,
      state,
      more: {
        readiness: this.#readiness.readiness(agent, state, session?.down ?? null),
        // issue 39: the runtime's words as its descriptor says them (the page and the CLI word nothing themselves).
        runtimeWords: runtimeWordsOf(agent),
        cwd: workspaceOf(agent.cwd, this.#o.dataDir, agent.id),
        auth: agent.auth,
        // issue 29: the "always" rules as the daemon granted them; what the file adds is only shown, never applied.
        allow: this.#o.grants?.rules(agent.id) ?? this.#fileEntry(agent.id)?.allow ?? agent.allow,
        ...(this.#o.grants === undefined ? {} : { unconfirmedAllow: this.#o.grants.unconfirmed(agent.id) }),
        isolation: agent.isolation,
        worktree: this.#o.worktreeOf?.(agent) ?? null,
        ...this.#o.costOf?.(agent.id),
      },
    };
  }
}
