/**
 * Readiness of one agent without a model call (issue 15): is its CLI there (and which
 * version), and is it signed in or does it have a key — asked of the CLI's own status command
 * run against the SAME HOME/config dirs the runtime uses (`claude auth status` JSON,
 * `codex login status`, `opencode auth list`). The credential itself is never read. Each
 * runtime's questions are its descriptor's (`probe`, registry.ts; the shared steps in cli-probe.ts).
 */
import type { AgentConfig } from '../../../shared/config.js';
import type { ProbeDeps, ReadinessProbe } from './cli-probe.js';
import type { AgentHosts } from './process-launcher.js';
import { runtimeDescriptor } from './registry.js';

export type { ReadinessProbe } from './cli-probe.js';

/** Checks one agent (the demo agent is always ready); an agent with `host` is checked on that host (issue 43). */
export function probeAgent(
  agent: AgentConfig,
  deps: ProbeDeps & { readonly hosts?: AgentHosts },
): Promise<ReadinessProbe> {
  return deps.hosts?.probe(agent) ?? runtimeDescriptor(agent.runtime).probe(agent, deps);
}

/** issue 43: the CLI an agent on another host runs there: its `command`, else its runtime's program on that host's PATH. */
export function hostCommandOf(agent: Pick<AgentConfig, 'command' | 'runtime' | 'preset'>): string {
  return agent.command ?? runtimeDescriptor(agent.runtime).overSsh?.program(agent) ?? agent.runtime;
}
