/** Public face of the agentteam MCP server. */
export { startMcpServer, MCP_SERVER_NAME, MCP_PATH, TOOL_MESSAGE_SEND, TOOL_REACTION } from './mcp-server.js';
export type {
  AgentteamMcpServer,
  McpEndpoint,
  McpServerLimits,
  McpServerOptions,
  McpServerRefusalCode,
  McpToolCallRecord,
} from './mcp-server.js';
export type {
  CommunicationHandler,
  MessageSendArgs,
  MessageSendResult,
  ReactionArgs,
  ToolRefusal,
} from './communication-handler.js';
