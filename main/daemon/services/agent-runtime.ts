/**
 * An agent's runtime adapter, built around its session's host: a fresh MCP token at each build
 * (a replaced process gets a new one, the old one stops working), the thread contract compiled
 * for the agent's send surface (contract §8.2), and the daemon's shared runtime dependencies.
 */
import type { AgentConfig } from '../../../shared/config.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import { compileThreadContract } from '../prompt/thread-contract.js';
import { sendSurfaceFor } from '../prompt/tool-names.js';
import { toolNamingOf } from '../runtime/registry.js';
import type { TurnBoundaryHost } from '../runtime/runtime-adapter.js';
import type { RuntimeDeps } from '../runtime/runtime-factory.js';
import type { MadeAdapter, MaybeMadeAdapter } from './agent-session.js';
import type { WorktreeService } from '../worktrees/worktree-service.js';

/** Builds one agent's runtime adapter around its session's host; the default is `createRuntimeAdapter`. */
export type RuntimeFactory = (agent: AgentConfig, deps: RuntimeDeps) => MadeAdapter;

export interface AgentRuntimeDeps {
  readonly createRuntime: RuntimeFactory;
  /** `AgentteamMcpServer.issueToken`. */
  readonly issueToken: (agentId: string) => McpEndpoint;
  /** What every agent's runtime shares (data dir, project root, log, pid registry, CLI shim, person). */
  readonly shared: Omit<RuntimeDeps, 'mcp' | 'host' | 'threadContractFingerprint' | 'threadContractText'>;
  /** issue 26: an agent with `"isolation": "worktree"` works in the worktree this prepares (made or reused first). */
  readonly worktrees?: Pick<WorktreeService, 'prepare'>;
}

export function agentRuntimeBuilder(
  d: AgentRuntimeDeps,
): (agent: AgentConfig, host: TurnBoundaryHost) => MaybeMadeAdapter {
  const build = (agent: AgentConfig, host: TurnBoundaryHost): MadeAdapter => {
    const contract = compileThreadContract(agent, sendSurfaceFor(toolNamingOf(agent), agent.agentTools));
    return d.createRuntime(agent, {
      ...d.shared,
      mcp: d.issueToken(agent.id),
      host,
      threadContractFingerprint: contract.fingerprint,
      threadContractText: contract.text,
    });
  };
  return (agent, host) => {
    if (agent.isolation !== 'worktree' || d.worktrees === undefined) return build(agent, host);
    // The runtime works in the agent's worktree (cwd's place in it); nothing starts when it cannot be made.
    return d.worktrees.prepare(agent).then(
      (cwd) => build({ ...agent, cwd }, host),
      (err: unknown): MadeAdapter => ({
        ok: false,
        // issue 40: an isolated agent's worktree could not be made: its entry cannot run as written.
        code: 'config_invalid',
        message: err instanceof Error ? err.message : String(err),
      }),
    );
  };
}
