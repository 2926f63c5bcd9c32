/**
 * Readiness of one agent without a model call (issue 15): is its CLI there (and which
 * version), and is it signed in or does it have a key — asked of the CLI's own status command
 * run against the SAME HOME/config dirs the runtime uses (`claude auth status` JSON,
 * `codex login status`, `opencode auth list`). The credential itself is never read. Each
 * runtime's questions are its descriptor's (`probe`, registry.ts; the shared steps in cli-probe.ts).
 */
import type { AgentConfig } from '../../../shared/config.js';
import type { ProbeDeps, ReadinessProbe } from './cli-probe.js';
import { runtimeDescriptor } from './registry.js';

export type { ReadinessProbe } from './cli-probe.js';

/** Checks one agent (the demo agent is always ready). */
export function probeAgent(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  return runtimeDescriptor(agent.runtime).probe(agent, deps);
}
