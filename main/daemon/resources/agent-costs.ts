/**
 * issue 42 "What each agent costs": each agent's resident memory and CPU, over its whole process
 * tree (every group its runtime recorded: runtime-pids.ts). It sits between the runtimes and the
 * pid registry (the same `record`/`forget` the skeleton calls, passed on unchanged), so it always
 * knows which groups are whose without asking any runtime.
 *
 * Sampled cheaply: one pass over /proc (process-sample.ts), only when a figure is read (the agent
 * list, /metrics) and the last sample is older than `minIntervalMs` or a process tree started or
 * ended since — never a timer of its own, never a tight poll. CPU % is the CPU time spent between two samples over the wall time between
 * them (100 = one core), on the daemon's injected clock.
 */
import type { RuntimePidRecorder } from '../runtime/runtime-pids.js';
import type { ProcessSampler } from './process-sample.js';

/** One agent's cost now; null where this platform cannot tell. */
export interface AgentCost {
  readonly rssBytes: number | null;
  /** Percent of one core between the last two samples; null until two samples were taken (or unknown). */
  readonly cpuPercent: number | null;
}

export interface AgentCostsOptions {
  /** The recorder the runtimes' pids are passed on to (the daemon's RuntimePidRegistry). */
  readonly pids: RuntimePidRecorder;
  readonly sampler: ProcessSampler;
  /** The daemon's clock, in ms. */
  readonly now: () => number;
  /** A figure younger than this is read as it is (default 2 s). */
  readonly minIntervalMs?: number;
}

interface Taken {
  readonly at: number;
  readonly rssBytes: number;
  readonly cpuSeconds: number;
  readonly cpuPercent: number | null;
}

export class AgentCosts implements RuntimePidRecorder {
  readonly #o: AgentCostsOptions;
  /** The live process groups of each agent (group leader pids). */
  readonly #groups = new Map<string, Set<number>>();
  readonly #agentOf = new Map<number, string>();
  #taken = new Map<string, Taken>();
  #sampledAt: number | null = null;

  constructor(options: AgentCostsOptions) {
    this.#o = options;
  }

  record(pid: number, info: { readonly agentId: string; readonly command: string }): void {
    this.#o.pids.record(pid, info);
    const groups = this.#groups.get(info.agentId) ?? new Set<number>();
    groups.add(pid);
    this.#groups.set(info.agentId, groups);
    this.#agentOf.set(pid, info.agentId);
    // A new process: the next read samples again (a start, a wake-up shows at once).
    this.#sampledAt = null;
  }

  forget(pid: number): void {
    this.#o.pids.forget(pid);
    const agentId = this.#agentOf.get(pid);
    this.#agentOf.delete(pid);
    if (agentId !== undefined) this.#groups.get(agentId)?.delete(pid);
    // A process tree gone (a sleep, a stop): the next read samples again, never the old figure.
    this.#sampledAt = null;
  }

  /** An agent's session changed state (a sleep, a wake-up): the next read samples again. */
  invalidate(): void {
    this.#sampledAt = null;
  }

  /** The agent's cost as of a sample at most `minIntervalMs` old. */
  of(agentId: string): AgentCost {
    if (!this.#o.sampler.supported) return { rssBytes: null, cpuPercent: null };
    this.#fresh();
    const t = this.#taken.get(agentId);
    // An agent that never ran a process of its own (the demo, in the daemon) costs nothing of its own.
    if (t === undefined) return { rssBytes: 0, cpuPercent: 0 };
    return { rssBytes: t.rssBytes, cpuPercent: t.cpuPercent };
  }

  /** Takes a sample now unless the last one is younger than `minIntervalMs`. */
  #fresh(): void {
    const now = this.#o.now();
    if (this.#sampledAt !== null && now - this.#sampledAt < (this.#o.minIntervalMs ?? 2000)) return;
    this.#sampledAt = now;
    const pgids = new Set(this.#agentOf.keys());
    const groups = this.#o.sampler.sample(pgids);
    if (groups === null) return;
    const next = new Map<string, Taken>();
    for (const [agentId, leaders] of this.#groups) {
      let rssBytes = 0;
      let cpuSeconds = 0;
      for (const pgid of leaders) {
        const g = groups.get(pgid);
        rssBytes += g?.rssBytes ?? 0;
        cpuSeconds += g?.cpuSeconds ?? 0;
      }
      const before = this.#taken.get(agentId);
      const seconds = before === undefined ? 0 : (now - before.at) / 1000;
      // A process that ended between samples takes its CPU time with it: never a negative share.
      const cpuPercent =
        before === undefined || seconds <= 0
          ? null
          : Math.round((Math.max(0, cpuSeconds - before.cpuSeconds) / seconds) * 1000) / 10;
      next.set(agentId, { at: now, rssBytes, cpuSeconds, cpuPercent });
    }
    this.#taken = next;
  }
}
