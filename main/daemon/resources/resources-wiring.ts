/**
 * issue 42: the resources room's wiring — what each agent costs (its process tree's resident memory
 * and CPU: agent-costs.ts), in the agent view and in /metrics by runtime; idle agents put to sleep
 * (idle-sleep.ts). The root calls `wireResources` once, gives `pids` to the runtimes (the room
 * passes every record on to the daemon's pid registry) and `costOf` to the agent view.
 */
import type { Observable, SchedulerLike } from 'rxjs';
import type { Registry } from 'prom-client';
import type { Agent } from '../../../shared/api/contract.js';
import type { AgentConfig, Config } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import type { RuntimePidRecorder } from '../runtime/runtime-pids.js';
import { AgentCosts, type AgentCost } from './agent-costs.js';
import { IdleSleep } from './idle-sleep.js';
import { ProcessSampler, type ProcFs } from './process-sample.js';
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
  /** The daemon's pid registry (issue 16): every record is passed on to it. */
  readonly pids: RuntimePidRecorder;
  readonly agents: ResourceAgents;
  /** A test's own /proc. */
  readonly procFs?: ProcFs | undefined;
  readonly log: DaemonLog;
}

export interface ResourcesRoom {
  /** The recorder the runtimes get (`RuntimeDeps.pids`). */
  readonly pids: RuntimePidRecorder;
  /** The agent's cost now (a sample at most a few seconds old). */
  costOf(agentId: string): AgentCost;
  dispose(): void;
}

export function wireResources(d: ResourcesWiringDeps): ResourcesRoom {
  const sampler = new ProcessSampler(d.procFs);
  const costs = new AgentCosts({ pids: d.pids, sampler, now: () => d.clock.now() });
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
  const known = new Map<string, Agent['state']>();
  const states = d.agents.updated$.subscribe((u) => {
    // A state change (asleep: its process gone) is read from a new sample, never the last one.
    if (known.get(u.agent.id) !== u.state) costs.invalidate();
    known.set(u.agent.id, u.state);
    sleep.state(u.agent.id, u.state);
  });
  return {
    pids: costs,
    costOf: (id) => costs.of(id),
    dispose: () => {
      states.unsubscribe();
      sleep.dispose();
    },
  };
}
