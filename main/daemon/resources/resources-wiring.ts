/**
 * issue 42: the resources room's wiring — what each agent costs (its process tree's resident memory
 * and CPU: agent-costs.ts), in the agent view and in /metrics by runtime; idle agents put to sleep
 * (idle-sleep.ts); no new agent process while memory is short (memory-admission.ts), nor more
 * than `resources.startsAtOnce` starting at once (start-admission.ts). The root
 * builds `agentCosts` before the agents (their view reads it; the runtimes record their pids
 * through it) and calls `wireResources` once.
 */
import { availableParallelism } from 'node:os';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Registry } from 'prom-client';
import type { Agent } from '../../../shared/api/contract.js';
import type { AgentConfig, Config } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import type { RuntimePidRecorder } from '../runtime/runtime-pids.js';
import type { WakeLifecycle, WakePause } from '../wake/wake-lifecycle.js';
import { AgentCosts } from './agent-costs.js';
import { IdleSleep } from './idle-sleep.js';
import { MemoryAdmission } from './memory-admission.js';
import { StartAdmission } from './start-admission.js';
import { hostProcFs, memAvailableBytes, ProcessSampler, type ProcFs } from './process-sample.js';
import { createResourceMetrics } from './resource-metrics.js';

/** The agents as this room asks about them (the roster, as a port: services sit above this room). */
export interface ResourceAgents {
  /** An agent's view changed (its session state among it). */
  readonly updated$: Observable<{ readonly agent: AgentConfig; readonly state: Agent['state'] }>;
  running(): readonly AgentConfig[];
  /** The agent's entry as it runs. */
  agent(agentId: string): AgentConfig | undefined;
  stateOf(agentId: string): Agent['state'];
  /** Stops the agent's CLI process until its next delivery; false when it was not idle. */
  sleep(agentId: string): Promise<boolean>;
}

export interface ResourcesWiringDeps {
  readonly config: Config;
  readonly registry: Registry;
  /** The daemon's one clock: the samples' CPU share and the idle timers. */
  readonly clock: SchedulerLike;
  /** What each agent costs (`agentCosts`, built before the agents so their view can read it). */
  readonly costs: AgentCosts;
  readonly agents: ResourceAgents;
  /** issue 42: a wake held for memory is released through the lifecycle. */
  readonly lifecycle: Pick<WakeLifecycle, 'resume'>;
  /** A test's own /proc (its /proc/meminfo too). */
  readonly procFs?: ProcFs | undefined;
  readonly log: DaemonLog;
}

/**
 * What each agent costs, sampled from /proc (or a test's own): built before the agents, so the agent
 * view reads `of` and the runtimes record their pids through it (`RuntimeDeps.pids`; every record is
 * passed on to the daemon's pid registry, issue 16).
 */
export function agentCosts(d: {
  readonly pids: RuntimePidRecorder;
  readonly clock: SchedulerLike;
  readonly procFs?: ProcFs | undefined;
}): AgentCosts {
  return new AgentCosts({
    pids: d.pids,
    sampler: new ProcessSampler(d.procFs ?? hostProcFs),
    now: () => d.clock.now(),
  });
}

export interface ResourcesRoom {
  /** The lifecycle's admission hold: a sleeping agent is not started while memory is short, nor beyond `startsAtOnce`. */
  readonly admissionHold: (agentId: string) => WakePause | null;
  dispose(): void;
}

export function wireResources(d: ResourcesWiringDeps): ResourcesRoom {
  const { costs } = d;
  createResourceMetrics(d.registry, {
    agents: () =>
      d.agents.running().map((a) => ({ runtime: a.runtime, state: d.agents.stateOf(a.id), cost: costs.of(a.id) })),
  });
  const sleep = new IdleSleep({
    // The agent's own `resources.idleSleepSeconds` as it runs, else the daemon's (agentteam.json at start).
    idleSleepSecondsOf: (id) => d.agents.agent(id)?.resources?.idleSleepSeconds ?? d.config.resources.idleSleepSeconds,
    sleep: (id) => d.agents.sleep(id),
    clock: d.clock,
    log: d.log,
  });
  const procFs = d.procFs ?? hostProcFs;
  const memory = new MemoryAdmission({
    minFreeBytes: d.config.resources.minFreeMemoryMB * 1024 * 1024,
    memAvailable: () => memAvailableBytes(procFs),
    asleep: (id) => d.agents.stateOf(id) === 'sleeping',
    longestIdle: (except) => sleep.longestIdle(except),
    sleepNow: (id) => sleep.sleepNow(id),
    resume: (id) => d.lifecycle.resume(id),
    clock: d.clock,
  });
  const starts = new StartAdmission({
    // Absent: one start per CPU core (at least 2) — a start is CPU-bound (start-admission.ts).
    startsAtOnce: d.config.resources.startsAtOnce ?? Math.max(2, availableParallelism()),
    asleep: (id) => d.agents.stateOf(id) === 'sleeping',
    resume: (id) => d.lifecycle.resume(id),
    clock: d.clock,
  });
  const known = new Map<string, Agent['state']>();
  const states = d.agents.updated$.subscribe((u) => {
    // Falling asleep or waking (its process gone or back) is read from a new sample, never the last
    // one. Busy ⇄ idle changes no process: no /proc walk on every turn (a process's start and exit
    // already invalidate through record/forget).
    const before = known.get(u.agent.id);
    if (before !== u.state && (before === 'sleeping' || u.state === 'sleeping')) costs.invalidate();
    known.set(u.agent.id, u.state);
    sleep.state(u.agent.id, u.state);
    starts.state(u.agent.id, u.state);
  });
  return {
    // Memory first: a start held for memory takes no start place.
    admissionHold: (agentId) => memory.hold(agentId) ?? starts.hold(agentId),
    dispose: () => {
      memory.dispose();
      starts.dispose();
      states.unsubscribe();
      sleep.dispose();
    },
  };
}
