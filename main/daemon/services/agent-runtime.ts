/**
 * An agent's runtime adapter, built around its session's host: a fresh MCP token at each build
 * (a replaced process gets a new one, the old one stops working), the thread contract compiled
 * for the agent's send surface (contract §8.2), and the daemon's shared runtime dependencies.
 */
import type { AgentConfig } from '../../../shared/config.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import { compileThreadContract } from '../prompt/thread-contract.js';
import { sendSurfaceFor } from '../prompt/tool-names.js';
import type { TurnBoundaryHost } from '../runtime/runtime-adapter.js';
import type { RuntimeDeps } from '../runtime/runtime-factory.js';
import type { MadeAdapter } from './agent-session.js';

/** Builds one agent's runtime adapter around its session's host; the default is `createRuntimeAdapter`. */
export type RuntimeFactory = (agent: AgentConfig, deps: RuntimeDeps) => MadeAdapter;

export interface AgentRuntimeDeps {
  readonly createRuntime: RuntimeFactory;
  /** `AgentteamMcpServer.issueToken`. */
  readonly issueToken: (agentId: string) => McpEndpoint;
  /** What every agent's runtime shares (data dir, project root, log, pid registry, CLI shim, person). */
  readonly shared: Omit<RuntimeDeps, 'mcp' | 'host' | 'threadContractFingerprint' | 'threadContractText'>;
}

export function agentRuntimeBuilder(d: AgentRuntimeDeps): (agent: AgentConfig, host: TurnBoundaryHost) => MadeAdapter {
  return (agent, host) => {
    const contract = compileThreadContract(agent, sendSurfaceFor(agent.runtime, agent.agentTools, agent.preset));
    return d.createRuntime(agent, {
      ...d.shared,
      mcp: d.issueToken(agent.id),
      host,
      threadContractFingerprint: contract.fingerprint,
      threadContractText: contract.text,
    });
  };
}
