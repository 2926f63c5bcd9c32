/**
 * issue 42: what the agents cost, in /metrics as totals by runtime — never per agent (an agent id
 * is operator data, and unbounded label values would grow the registry). Read at scrape time from
 * the costs (a sample at most a few seconds old), so nothing polls for the registry's sake.
 */
import { Gauge, type Registry } from 'prom-client';
import { RUNTIMES, type RuntimeKind } from '../../../shared/wake-status.js';
import type { Agent } from '../../../shared/api/contract.js';
import type { AgentCost } from './agent-costs.js';

export interface ResourceFigures {
  /** Every running agent: its runtime, its session state and its cost now. */
  agents(): ReadonlyArray<{ readonly runtime: RuntimeKind; readonly state: Agent['state']; readonly cost: AgentCost }>;
}

export function createResourceMetrics(registry: Registry, figures: ResourceFigures): void {
  const totals = () => {
    const by = new Map(RUNTIMES.map((r) => [r, { rss: 0, cpu: 0, sleeping: 0 }]));
    for (const a of figures.agents()) {
      const t = by.get(a.runtime);
      if (t === undefined) continue;
      t.rss += a.cost.rssBytes ?? 0;
      t.cpu += a.cost.cpuPercent ?? 0;
      if (a.state === 'sleeping') t.sleeping += 1;
    }
    return by;
  };
  new Gauge({
    name: 'agentteam_agents_resident_memory_bytes',
    help: "Resident memory of the agents' whole process trees, by runtime",
    labelNames: ['runtime'] as const,
    registers: [registry],
    collect() {
      for (const [runtime, t] of totals()) this.set({ runtime }, t.rss);
    },
  });
  new Gauge({
    name: 'agentteam_agents_cpu_percent',
    help: "CPU of the agents' whole process trees between the last two samples, by runtime (100 = one core)",
    labelNames: ['runtime'] as const,
    registers: [registry],
    collect() {
      for (const [runtime, t] of totals()) this.set({ runtime }, t.cpu);
    },
  });
  new Gauge({
    name: 'agentteam_agents_sleeping',
    help: 'Agents asleep (their CLI process stopped until the next delivery), by runtime',
    labelNames: ['runtime'] as const,
    registers: [registry],
    collect() {
      for (const [runtime, t] of totals()) this.set({ runtime }, t.sleeping);
    },
  });
}
