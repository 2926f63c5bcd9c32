/**
 * Builds the runtime adapter an agent's config asks for: its descriptor's driver inside the
 * shared skeleton (Claude Code's stream-json, Codex's app-server, OpenCode's serve, any ACP
 * agent), or the descriptor's own adapter (the demo, in its own thread, issue 30). Which runtime
 * is registry.ts's answer (issue 39); what every runtime shares is here.
 */
import { join } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import { agentToolsEnv } from '../mcp/agent-tools-env.js';
import { agentCliTrusted, type InstalledAgentCli } from './agent-cli-shim.js';
import { runtimeDescriptor } from './registry.js';
import { hostCommandOf } from './readiness.js';
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
  const runtimeDir = runtimeDirOf(deps.dataDir, agent.id);
  // issue 43: an agent with `host` runs there: its cwd is a path on that host, its MCP endpoint a forward.
  const placement = deps.hosts?.placementOf(agent, runtimeDir, deps.mcp) ?? null;
  if (agent.host !== undefined && placement === null)
    return {
      ok: false,
      code: 'config_invalid',
      message: `agent "${agent.id}" names a host, and this daemon runs no agent over SSH`,
    };
  const { launch, overSsh } = runtimeDescriptor(agent.runtime);
  // The daemon's config load refuses `host` for these already (registry.ts agentConfigIssues); a config built in code is checked here.
  if (placement !== null && overSsh === null)
    return {
      ok: false,
      code: 'config_invalid',
      message: `agent "${agent.id}" names a host, and its runtime "${agent.runtime}" does not run over SSH`,
    };
  // issue 14: the workspace is checked (the default one made) before anything starts: a clear
  // error, nothing spawned. The demo has one too (`/approve` writes there).
  // issue 40: the code is the readiness reason its wakes then fail with. A host agent's workspace is on its host.
  const invalid = placement === null ? workspaceProblem(agent.id, agent.cwd, deps.dataDir, deps.privateDirs) : null;
  if (invalid !== null) return { ok: false, code: invalid.reason, message: invalid.message };
  const start = {
    // issue 43: `command` is a path on the host; none is the runtime's program on that host's PATH (never this checkout's).
    agent: placement === null ? agent : { ...agent, command: hostCommandOf(agent) },
    deps: placement === null ? deps : { ...deps, mcp: placement.mcp },
    // A host agent's default workspace is `workspace` in its runtime dir there (the launcher maps the path).
    workspace:
      placement === null
        ? workspaceOf(agent.cwd, deps.dataDir, agent.id)
        : (placement.cwd ?? join(runtimeDir, 'workspace')),
    runtimeDir,
  };
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
      agentEnv: agentToolsEnv(start.deps.mcp),
      // The `agentteam` shim is a program on this machine: a host agent replies through its MCP tools.
      ...(deps.agentCli === undefined || placement !== null
        ? {}
        : { agentCli: agentCliFor(deps.agentCli, start.workspace) }),
      ...(placement === null ? {} : { launcher: placement.launcher }),
    }),
  };
}

/** The shim for one agent: trusted for its own command only while nothing it runs lies in the agent's workspace. */
function agentCliFor(cli: InstalledAgentCli, workspace: string): { readonly dir: string; trusted(): boolean } {
  return { dir: cli.dir, trusted: () => agentCliTrusted(cli, workspace) };
}
