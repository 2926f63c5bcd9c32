/**
 * Deterministic answers to Codex's server→client requests (research/runtimes.md §3: they must
 * be answered, or the turn hangs). Everything that would need a person is declined: nothing
 * here can approve a command, a file change or a permission; the agent's only effect on
 * AgentTeam is the MCP tool.
 */
import type { RpcError, RpcServerRequest } from './codex-rpc-client.js';

const DECLINE_REASON =
  'AgentTeam runs this agent without interactive approvals; only the agentteam MCP tools are available.';

export function answerCodexServerRequest(
  r: RpcServerRequest,
): { readonly result: unknown } | { readonly error: RpcError } {
  switch (r.method) {
    case 'item/commandExecution/requestApproval':
    case 'item/fileChange/requestApproval':
      return { result: { decision: 'decline' } };
    case 'execCommandApproval':
    case 'applyPatchApproval':
      return { result: { decision: { denied: { rejection: DECLINE_REASON } } } };
    case 'item/permissions/requestApproval':
      return { result: { permissions: {}, scope: 'turn' } };
    case 'mcpServer/elicitation/request':
      return { result: { action: 'decline', content: null, _meta: null } };
    case 'item/tool/requestUserInput':
      return { result: { answers: {} } };
    case 'item/tool/call':
      return { result: { contentItems: [{ type: 'inputText', text: DECLINE_REASON }], success: false } };
    default:
      return { error: { code: -32601, message: `AgentTeam does not handle "${r.method}"` } };
  }
}
