/**
 * issue 39 "Plug-ins": THE list of runtimes (STYLE.md habit 20). Every runtime folder exports
 * its descriptor (runtime-descriptor.ts); this is the one line per runtime. The daemon builds a
 * runtime (runtime-factory.ts), probes its readiness (readiness.ts) and seeds a first run
 * (first-run-config.ts) by asking the descriptor here, never by comparing runtime ids.
 * The ACP presets are entries of the ACP descriptor (acp/acp-presets.ts).
 */
import type { RuntimeWords } from '../../../shared/agent-readiness.js';
import type { InstallableRuntime } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import { RUNTIMES, type RuntimeKind } from '../../../shared/wake-status.js';
import { ACP_RUNTIME } from './acp/acp-descriptor.js';
import { CLAUDE_CODE_RUNTIME } from './claude-code/claude-descriptor.js';
import { CODEX_RUNTIME } from './codex/codex-descriptor.js';
import { DEMO_RUNTIME } from './demo/demo-descriptor.js';
import { OPENCODE_RUNTIME } from './opencode/opencode-descriptor.js';
import type { McpToolNaming } from '../prompt/tool-names.js';
import type { RuntimeDescriptor } from './runtime-descriptor.js';

/** Keyed by `RUNTIMES` (shared/wake-status.ts): a kind without its descriptor fails typecheck. */
const REGISTRY: { readonly [K in RuntimeKind]: RuntimeDescriptor<K> } = {
  'claude-code': CLAUDE_CODE_RUNTIME,
  codex: CODEX_RUNTIME,
  opencode: OPENCODE_RUNTIME,
  demo: DEMO_RUNTIME,
  acp: ACP_RUNTIME,
};

/** The descriptor of one runtime kind. */
export function runtimeDescriptor(kind: RuntimeKind): RuntimeDescriptor {
  return REGISTRY[kind];
}

/** Every runtime, in `RUNTIMES` order (the order a first run offers them in). */
export function runtimeDescriptors(): readonly RuntimeDescriptor[] {
  return RUNTIMES.map((kind) => REGISTRY[kind]);
}

/**
 * How an agent's runtime (and its ACP preset) names our MCP tools: the prompt room is handed
 * this (prompt/tool-names.ts `ToolNamingOf`), so no prompt asks which runtime it writes for.
 */
export function toolNamingOf(agent: Pick<AgentConfig, 'runtime' | 'preset'>): McpToolNaming {
  return REGISTRY[agent.runtime].toolNaming(agent);
}

/** issue 39: what a person reads about the agent's runtime (its descriptor's words; the agent view carries them). */
export function runtimeWordsOf(agent: Pick<AgentConfig, 'runtime' | 'preset'>): RuntimeWords {
  return REGISTRY[agent.runtime].words(agent);
}

/**
 * issue 39: the coding CLIs a person can install — what a first run offers when found on PATH
 * (each descriptor's `firstRun.offered`), with their words. The empty welcome names them
 * (`agents.installable`), so a new runtime's offer reaches the page with no edit there.
 */
export function installableRuntimes(): InstallableRuntime[] {
  return runtimeDescriptors().flatMap((d) =>
    d.firstRun.offered.map((o) => ({ command: o.command, words: d.words(o.agent) })),
  );
}

/**
 * issue 43 (issue 39 "Plug-ins"): the rules on an agent's entry in agentteam.json that its runtime's
 * descriptor decides — today, that `host` names a runtime that runs over SSH (`overSsh`). The daemon
 * checks them wherever it loads the file (config/load-config.ts `AgentConfigIssues`), so a runtime
 * that runs over SSH is its folder and registry line, with no list restated in shared/.
 */
export function agentConfigIssues(
  agent: Pick<AgentConfig, 'host' | 'runtime'>,
): { readonly path: string[]; readonly message: string }[] {
  if (agent.host === undefined || REGISTRY[agent.runtime].overSsh !== null) return [];
  const over = runtimeDescriptors().flatMap((d) => (d.overSsh === null ? [] : [`"${d.kind}"`]));
  return [
    {
      path: ['runtime'],
      message: `"host" is supported for the runtimes ${over.join(', ')} (this agent's is "${agent.runtime}"); remove "host" to run it on this machine`,
    },
  ];
}

/**
 * issue 40 item 6: whether the agent's runtime is a CLI process the skeleton drives, built only once
 * its readiness probe finds it installed and signed in. A runtime with its own adapter (the demo, in
 * the daemon's own worker thread) has nothing to hold back and is built at launch.
 */
export const startsWhenReady = (agent: Pick<AgentConfig, 'runtime'>): boolean =>
  'driver' in runtimeDescriptor(agent.runtime).launch;
