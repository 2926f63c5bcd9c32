/**
 * How an agent's shell reaches the CLI agent-tools surface (contract §8.2/§11 "CLI
 * agent-tools"; DESIGN.md "More CLI": `agentteam agent send|react`): every runtime process gets
 * the daemon's MCP endpoint and the agent's OWN bearer token in its environment, so a command
 * the agent runs authenticates as that agent — never as the operator — and goes through the
 * same MCP tools (scope guard, rate limit, delivery tracker) as a direct tool call.
 */
import type { McpEndpoint } from './mcp-server.js';

/** The streamable HTTP endpoint of the daemon's MCP server. */
export const AGENT_MCP_URL_ENV = 'AGENTTEAM_MCP_URL';
/** The agent's own MCP bearer token (rotated with each issue; never the operator's serve token). */
export const AGENT_TOKEN_ENV = 'AGENTTEAM_AGENT_TOKEN';

export function agentToolsEnv(endpoint: Pick<McpEndpoint, 'url' | 'token'>): Record<string, string> {
  return { [AGENT_MCP_URL_ENV]: endpoint.url, [AGENT_TOKEN_ENV]: endpoint.token };
}
