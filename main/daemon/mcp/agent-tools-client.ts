/**
 * The client side of the CLI agent-tools surface: one MCP tool call to the daemon's own MCP
 * server over streamable HTTP (the SDK client), authenticated with the agent's token. The CLI
 * is an MCP client like the runtimes are, so a send through `agentteam agent send` meets the
 * very same tool code (scope guard, rate limit, delivery tracker) as `message_send`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_SERVER_NAME, type McpTool } from './mcp-names.js';

export type AgentToolResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Calls `tool` with `args` as the agent whose token this is. Connection problems are values too. */
export async function callAgentTool(
  endpoint: { readonly url: string; readonly token: string },
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<AgentToolResult> {
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    return { ok: false, code: 'no_daemon', message: `"${endpoint.url}" is not the URL of an AgentTeam MCP server.` };
  }
  const client = new Client({ name: `${MCP_SERVER_NAME}-cli`, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
  });
  try {
    try {
      await client.connect(transport);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      return /\b401\b|unauthori[sz]ed/i.test(text)
        ? {
            ok: false,
            code: 'auth_failed',
            message: 'The daemon refused this agent token; it changes when the runtime restarts.',
          }
        : { ok: false, code: 'no_daemon', message: `No AgentTeam daemon answered at ${endpoint.url} (${text}).` };
    }
    const result = await client.callTool({ name: tool, arguments: args });
    const first = Array.isArray(result.content)
      ? (result.content[0] as { type?: string; text?: string } | undefined)
      : undefined;
    const text = first?.type === 'text' ? (first.text ?? '') : '';
    if (result.isError === true) {
      // The server's refusals read "code: message" (mcp-server.ts).
      const m = /^([a-z_]+): ([\s\S]*)$/.exec(text);
      return { ok: false, code: m?.[1] ?? 'refused', message: m?.[2] ?? text };
    }
    const structured = result.structuredContent;
    return {
      ok: true,
      value: structured !== undefined && structured !== null ? (structured as Record<string, unknown>) : { text },
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
