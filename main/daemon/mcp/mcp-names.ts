/**
 * The names the agentteam MCP server publishes (DESIGN.md "MCP server"): its server name, its
 * HTTP path and its tools. One definition for the server that registers them, the prompts that
 * name them (prompt/tool-names.ts) and the runtimes that configure or call them. Free of the SDK.
 */

/** The MCP server name as runtimes see it (`mcp__agentteam__…`, `agentteam_…`). */
export const MCP_SERVER_NAME = 'agentteam';
/** Where the streamable HTTP endpoint listens on 127.0.0.1. */
export const MCP_PATH = '/mcp';
export const TOOL_MESSAGE_SEND = 'message_send';
export const TOOL_REACTION = 'reaction';
/** A tool the server registers. */
export type McpTool = typeof TOOL_MESSAGE_SEND | typeof TOOL_REACTION;
