/**
 * Builds the runtime adapter an agent's config asks for: its descriptor's driver inside the
 * shared skeleton (Claude Code's stream-json, Codex's app-server, OpenCode's serve, any ACP
 * agent), or the descriptor's own adapter (the demo, in its own thread, issue 30). Which runtime
 * is registry.ts's answer (issue 39); what every runtime shares is here.
 */
import type { AgentConfig } from '../../../shared/config.js';
import { agentToolsEnv } from '../mcp/agent-tools-env.js';
import { agentCliTrusted, type InstalledAgentCli } from './agent-cli-shim.js';
import { runtimeDescriptor } from './registry.js';
import type { RuntimeAdapter } from './runtime-adapter.js';
import type { RuntimeDeps } from './runtime-descriptor.js';
import { runtimeDirOf, sessionStoreOf } from './runtime-home.js';
import { RuntimeSkeleton } from './runtime-skeleton.js';
import { workspaceOf, workspaceProblem, type WorkspaceProblem } from './workspace.js';

export type { RuntimeDeps } from './runtime-descriptor.js';
export { sessionStoreOf } from './runtime-home.js';

export type RuntimeAdapterResult =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: WorkspaceProblem['reason'] | 'config_invalid'; readonly message: string };

export function createRuntimeAdapter(agent: AgentConfig, deps: RuntimeDeps): RuntimeAdapterResult {
  // issue 14: the workspace is checked (the default one made) before anything starts: a clear
  // error, nothing spawned. The demo has one too (`/approve` writes there).
  // issue 40: the code is the readiness reason its wakes then fail with.
  const invalid = workspaceProblem(agent.id, agent.cwd, deps.dataDir, deps.privateDirs);
  if (invalid !== null) return { ok: false, code: invalid.reason, message: invalid.message };
  const start = {
    agent,
    deps,
    workspace: workspaceOf(agent.cwd, deps.dataDir, agent.id),
    runtimeDir: runtimeDirOf(deps.dataDir, agent.id),
  };
  const { launch } = runtimeDescriptor(agent.runtime);
  if ('adapter' in launch) return { ok: true, adapter: launch.adapter(start) };
  return {
    ok: true,
    adapter: new RuntimeSkeleton({
      agentId: agent.id,
      driver: launch.driver(start),
      host: deps.host,
      threadContractFingerprint: deps.threadContractFingerprint,
      sessionStore: deps.sessionStore ?? sessionStoreOf(deps.dataDir, agent.id),
      ...(deps.log !== undefined ? { log: deps.log } : {}),
      ...(deps.pids === undefined ? {} : { pids: deps.pids }),
      agentEnv: agentToolsEnv(deps.mcp),
      ...(deps.agentCli === undefined ? {} : { agentCli: agentCliFor(deps.agentCli, start.workspace) }),
    }),
  };
}

/** The shim for one agent: trusted for its own command only while nothing it runs lies in the agent's workspace. */
function agentCliFor(cli: InstalledAgentCli, workspace: string): { readonly dir: string; trusted(): boolean } {
  return { dir: cli.dir, trusted: () => agentCliTrusted(cli, workspace) };
}
