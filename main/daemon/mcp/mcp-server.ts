/**
 * The agentteam MCP server inside the daemon (DESIGN.md "MCP server"): streamable HTTP on
 * 127.0.0.1, one bearer token per agent, tools `message_send` and `reaction`.
 *
 * Why the low-level SDK `Server` and not `McpServer.registerTool`: McpServer turns argument
 * validation failures into free text ("Input validation error: …"); every refusal here must
 * carry a stable code the model and the tests can rely on, so arguments are validated with
 * our own zod schemas and the published JSON Schemas are generated from the same schemas.
 *
 * Sessions: one SDK transport + Server per MCP session, bound at `initialize` to the agent
 * whose token opened it; a request with another agent's token on that session is refused.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  isInitializeRequest,
  isJSONRPCRequest,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { Subject, type Observable } from 'rxjs';
import { z } from 'zod';
import { parseTarget } from '../../../shared/target.js';
import { describeIssues } from '../../../shared/api/describe-issues.js';
import type { DaemonLog } from '../daemon-log.js';
import { AgentCallGate } from './agent-call-gate.js';
import type { CommunicationHandler, ToolRefusal } from './communication-handler.js';
import { MCP_PATH, MCP_SERVER_NAME, TOOL_MESSAGE_SEND, TOOL_REACTION } from './mcp-names.js';
import { RateLimiter } from './rate-limiter.js';
import { MessageSendInput, ReactionInput, compileMessageSendCheck } from './tool-input.js';
import { releaseAnsweredJsonStreams } from './sdk-json-stream-leak.js';
import { INVALID_PARAMS, gateBody, invalidToolParams, readBoundedBody } from './jsonrpc-gate.js';

const MAX_MESSAGE_ID_LENGTH = 200;
const MAX_EMOJI_LENGTH = 32;
/** Sessions one agent may hold open; the oldest is closed first (a restarted runtime reconnects). */
const MAX_SESSIONS_PER_AGENT = 8;
/**
 * issue 41: refused requests (not JSON, not JSON-RPC, too deep or too large, invalid params, an
 * unknown tool) an agent's token may send per minute; beyond it the endpoint answers 429 before
 * reading the body, so a runtime stuck in a loop of junk costs the daemon almost nothing.
 */
const REFUSED_REQUESTS_PER_MINUTE = 30;
/** Longest tool name repeated back in an "Unknown tool" error. */
const MAX_ECHOED_TOOL_NAME = 64;

export interface McpServerLimits {
  /** shared/config.ts `limits.sendsPerMinute`: communication writes per agent per minute. */
  readonly sendsPerMinute: number;
  /** shared/config.ts `limits.maxMessageBytes`: largest `content` in UTF-8 bytes. */
  readonly maxMessageBytes: number;
}

export interface McpServerOptions {
  readonly handler: CommunicationHandler;
  readonly limits: McpServerLimits;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Clock for the rate limiter (ms). */
  readonly now?: () => number;
  readonly log?: DaemonLog;
  /** issue 30: agent tool calls handled per event-loop turn, the rest in later turns (agent-call-gate.ts). */
  readonly agentCallsPerTurn?: number;
}

/** How a runtime reaches the server as one agent. */
export interface McpEndpoint {
  readonly url: string;
  readonly token: string;
  /** HTTP headers the runtime must send (the bearer token). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * issue 28: how many authenticated `tools/list` requests this token has had answered. A runtime
   * that starts its session without our tools (an ACP agent whose MCP connection failed) is caught
   * by it before the first prompt (runtime/acp/acp-driver.ts).
   */
  readonly toolsListed?: () => number;
}

/** One tool call as seen by the server, for metrics and diagnostics (never the content). */
export interface McpToolCallRecord {
  readonly agentId: string;
  readonly tool: string;
  /** `ok`, or the refusal code. */
  readonly outcome: string;
  readonly durationMs: number;
}

export interface AgentteamMcpServer {
  readonly url: string;
  readonly port: number;
  /** Every tool call, after it is answered. */
  readonly toolCalls$: Observable<McpToolCallRecord>;
  /** A fresh random token for the agent; a previous token of that agent stops working and its sessions close. */
  issueToken(agentId: string): McpEndpoint;
  /** Refuses the agent from now on and closes its sessions. */
  revokeToken(agentId: string): void;
  /** Closes all sessions and the listener. Idempotent. */
  close(): Promise<void>;
}

interface Session {
  readonly agentId: string;
  /** The protocol revision negotiated at `initialize` (decides whether batches are allowed). */
  readonly version: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
}

function refusal(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}

function fromRefusal(r: ToolRefusal): CallToolResult {
  return refusal(r.code, r.message);
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function writeJsonError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The revision the SDK's Server answers an initialize with (server/index.js `_oninitialize`). */
function negotiatedVersion(body: JSONRPCMessage | JSONRPCMessage[]): string {
  const requested = !Array.isArray(body) && isInitializeRequest(body) ? body.params.protocolVersion : undefined;
  return requested !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

/** Starts the agentteam MCP server on 127.0.0.1 and resolves once it listens. */
export async function startMcpServer(options: McpServerOptions): Promise<AgentteamMcpServer> {
  const now = options.now ?? Date.now;
  const log = options.log;
  const limiter = new RateLimiter(options.limits.sendsPerMinute);
  const refusedLimiter = new RateLimiter(REFUSED_REQUESTS_PER_MINUTE);
  // JSON escaping can grow content up to 6× (\uXXXX); the content limit itself is checked per call.
  const maxRequestBodySize = options.limits.maxMessageBytes * 6 + 65_536;
  const toolCalls = new Subject<McpToolCallRecord>();
  /** sha256(token) → { agentId, token }: lookup by digest, then a constant-time compare. */
  const tokens = new Map<string, { agentId: string; token: Buffer }>();
  const tokenOfAgent = new Map<string, string>();
  /** issue 28: answered `tools/list` per agent since its current token was issued. */
  const toolsListedBy = new Map<string, number>();
  const sessions = new Map<string, Session>();
  // issue 30: the operator's traffic first — a busy team's calls are handled a few per loop turn.
  const gate = new AgentCallGate(options.agentCallsPerTurn);
  const messageSendSchema = z.toJSONSchema(MessageSendInput, { io: 'input' });
  const reactionSchema = z.toJSONSchema(ReactionInput, { io: 'input' });
  // issue 30: the hot call's arguments checked by the same schema compiled (tool-input.ts).
  const messageSendValid = compileMessageSendCheck(messageSendSchema);
  let allowedOrigins = new Set<string>();
  let closed = false;

  function authenticate(req: IncomingMessage): string | null {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return null;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) return null;
    const presented = Buffer.from(match[1] ?? '');
    const entry = tokens.get(digest(match[1] ?? ''));
    if (entry === undefined || entry.token.length !== presented.length) return null;
    return timingSafeEqual(entry.token, presented) ? entry.agentId : null;
  }

  /** One bucket per agent for both tools: they are the agent's writes. Taken only by otherwise valid calls. */
  function rateLimited(agentId: string, tool: string): CallToolResult | null {
    const rate = limiter.take(agentId, now());
    if (rate.allowed) return null;
    const seconds = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
    return refusal(
      'rate_limited',
      `You have reached ${options.limits.sendsPerMinute} messages and reactions per minute; wait ${seconds} s before calling ${tool} again, or combine your messages into one.`,
    );
  }

  async function messageSend(agentId: string, raw: unknown): Promise<CallToolResult> {
    const args = raw ?? {};
    // Valid (almost always): the compiled check; else zod, for the exact refusal it words.
    const parsed = messageSendValid(args) ? { success: true as const, data: args } : MessageSendInput.safeParse(args);
    if (!parsed.success) {
      return refusal(
        'invalid_arguments',
        `message_send needs {target: string, content: string, allow_cross_target?: boolean} (${describeIssues(parsed.error.issues, '(arguments)')}); call it again with those arguments.`,
      );
    }
    const { target, content, allow_cross_target } = parsed.data;
    const t = parseTarget(target);
    if (!t.ok)
      return refusal(
        'invalid_target',
        `${t.error.message} Call message_send again with the exact target of the conversation you are answering.`,
      );
    if (content.trim().length === 0)
      return refusal(
        'empty_content',
        'The content is empty; put the message participants should see in content, or do not call message_send if no reply is needed.',
      );
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > options.limits.maxMessageBytes) {
      return refusal(
        'content_too_large',
        `The content is ${bytes} bytes; at most ${options.limits.maxMessageBytes} are allowed. Shorten it or split it into several message_send calls.`,
      );
    }
    const limited = rateLimited(agentId, TOOL_MESSAGE_SEND);
    if (limited !== null) return limited;
    const result = await options.handler.messageSend(agentId, {
      target: t.key,
      content,
      allowCrossTarget: allow_cross_target ?? false,
    });
    if (!result.ok) return fromRefusal(result);
    const structured = {
      status: result.status,
      target_key: result.targetKey,
      seen_up_to_seq: result.seenUpToSeq,
      message_id: result.messageId,
      // issue 28: a repeated identical send answers the first one's result and posted nothing.
      ...(result.status === 'already_sent' ? { already_sent: true } : {}),
    };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  async function reaction(agentId: string, raw: unknown): Promise<CallToolResult> {
    const parsed = ReactionInput.safeParse(raw ?? {});
    if (!parsed.success)
      return refusal(
        'invalid_arguments',
        `reaction needs {message_id: string, emoji: string} (${describeIssues(parsed.error.issues, '(arguments)')}); call it again with those arguments.`,
      );
    const messageId = parsed.data.message_id.trim();
    const emoji = parsed.data.emoji.trim();
    if (messageId.length === 0 || messageId.length > MAX_MESSAGE_ID_LENGTH) {
      return refusal(
        'unknown_message',
        `"${messageId.slice(0, 40)}" is not a message id; use the id of a message you received in this turn.`,
      );
    }
    if (emoji.length === 0 || emoji.length > MAX_EMOJI_LENGTH || /\s/.test(emoji)) {
      return refusal(
        'invalid_emoji',
        'emoji must be one emoji such as "👍", without spaces; call reaction again with a single emoji.',
      );
    }
    const limited = rateLimited(agentId, TOOL_REACTION);
    if (limited !== null) return limited;
    const result = await options.handler.reaction(agentId, { messageId, emoji });
    if (!result.ok) return fromRefusal(result);
    return {
      content: [{ type: 'text', text: JSON.stringify({ status: 'sent', message_id: messageId }) }],
      structuredContent: { status: 'sent', message_id: messageId },
    };
  }

  async function callTool(agentId: string, name: string, args: unknown): Promise<CallToolResult> {
    const turn = gate.admit();
    if (turn !== undefined) await turn;
    const started = now();
    let result: CallToolResult;
    try {
      if (name === TOOL_MESSAGE_SEND) result = await messageSend(agentId, args);
      else if (name === TOOL_REACTION) result = await reaction(agentId, args);
      else {
        // MCP 2025-06-18 and 2025-11-25 server/tools "Error Handling": an unknown tool is a protocol
        // error (-32602), not a tool result.
        toolCalls.next({ agentId, tool: name, outcome: 'unknown_tool', durationMs: now() - started });
        refusedLimiter.take(agentId, now());
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool: ${name.slice(0, MAX_ECHOED_TOOL_NAME)}; the tools are ${TOOL_MESSAGE_SEND} and ${TOOL_REACTION}.`,
        );
      }
    } catch (err) {
      if (err instanceof McpError) throw err;
      // A throwing handler is a bug on our side; the model can only retry later.
      log?.error('mcp tool handler threw', {
        agentId,
        tool: name,
        error: err instanceof Error ? err.message : String(err),
      });
      result = refusal(
        'internal_error',
        'AgentTeam could not process this call; nothing was posted. Try the same call once more.',
      );
    }
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    const outcome = result.isError === true ? text.slice(0, Math.max(0, text.indexOf(':'))) || 'error' : 'ok';
    toolCalls.next({ agentId, tool: name, outcome, durationMs: now() - started });
    return result;
  }

  function buildServer(agentId: string): Server {
    const server = new Server({ name: MCP_SERVER_NAME, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      toolsListedBy.set(agentId, (toolsListedBy.get(agentId) ?? 0) + 1);
      return listedTools();
    });
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      callTool(agentId, request.params.name, request.params.arguments),
    );
    return server;
  }

  function listedTools() {
    return {
      tools: [
        {
          name: TOOL_MESSAGE_SEND,
          description:
            'Post a message to an AgentTeam conversation. This is the only way participants see anything from you: plain or final text you print stays local and is never delivered. Use the exact target of the input you are answering.',
          inputSchema: messageSendSchema as CallToolResultSchemaInput,
        },
        {
          name: TOOL_REACTION,
          description: 'React to a message you received with one emoji (counts as a visible acknowledgement).',
          inputSchema: reactionSchema as CallToolResultSchemaInput,
        },
      ],
    };
  }

  function closeSession(id: string): void {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    void session.server.close().catch(() => undefined);
  }

  function closeSessionsOf(agentId: string): void {
    for (const [id, s] of sessions) if (s.agentId === agentId) closeSession(id);
  }

  /**
   * issue 41: malformed `tools/call` / `tools/list` params are answered -32602 here, between the
   * transport and the SDK's Server (which would answer -32603 with the zod dump); the answer goes
   * through the transport, so it reaches the right response in a batch too.
   */
  function checkToolParams(agentId: string, transport: StreamableHTTPServerTransport): void {
    const deliver = transport.onmessage;
    if (deliver === undefined) throw new Error('internal: connect the MCP Server before checking params');
    transport.onmessage = (message, extra) => {
      const invalid = invalidToolParams(message);
      if (invalid === null || !isJSONRPCRequest(message)) return deliver(message, extra);
      refusedLimiter.take(agentId, now());
      void transport
        .send({ jsonrpc: '2.0', id: message.id, error: { code: INVALID_PARAMS, message: invalid } })
        .catch(() => undefined);
    };
  }

  async function openSession(
    agentId: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: JSONRPCMessage | JSONRPCMessage[],
  ): Promise<void> {
    const version = negotiatedVersion(body);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Tool results are single responses: plain JSON avoids an SSE stream per call (bench/mcp.bench.ts).
      enableJsonResponse: true,
      maxRequestBodySize,
      onsessioninitialized: (id) => {
        const own = [...sessions.entries()].filter(([, s]) => s.agentId === agentId);
        for (const [oldId] of own.slice(0, Math.max(0, own.length - MAX_SESSIONS_PER_AGENT + 1))) closeSession(oldId);
        sessions.set(id, { agentId, version, transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = buildServer(agentId);
    await server.connect(transport);
    checkToolParams(agentId, transport);
    await transport.handleRequest(req, res, body);
    releaseAnsweredJsonStreams(transport);
    // Not an initialize request: the transport answered 400; nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // DNS rebinding: a page on another origin that resolves to 127.0.0.1 still sends its own Host/Origin.
    // issue 43: a loopback literal on another port is a client that dialed a loopback forward to this
    // server (an agent on another host, through its SSH reverse forward): never a rebinding page.
    if (!isLoopbackHost(req.headers.host ?? '')) return writeJsonError(res, 403, 'Forbidden: unexpected Host header.');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase()))
      return writeJsonError(res, 403, 'Forbidden: unexpected Origin.');
    if (url.pathname !== MCP_PATH) return writeJsonError(res, 404, `Not found; the MCP endpoint is ${MCP_PATH}.`);
    const agentId = authenticate(req);
    if (agentId === null) {
      return writeJsonError(res, 401, 'Unauthorized: send the agent bearer token the daemon gave this runtime.', {
        'www-authenticate': 'Bearer realm="agentteam"',
      });
    }
    const refused = refusedLimiter.peek(agentId, now());
    if (!refused.allowed) {
      req.resume();
      const seconds = Math.max(1, Math.ceil(refused.retryAfterMs / 1000));
      return writeJsonError(
        res,
        429,
        `Too many refused requests from this token (${REFUSED_REQUESTS_PER_MINUTE} per minute); retry in ${seconds} s.`,
        { 'retry-after': String(seconds) },
      );
    }
    // Streamable HTTP (2025-03-26 and later) lets a server refuse the GET stream with 405: this
    // server sends nothing unprompted (no list_changed, no server requests), so it offers none.
    if (req.method === 'GET')
      return writeJsonError(res, 405, 'Method not allowed: this server offers no SSE stream; use POST.', {
        allow: 'POST, DELETE',
      });
    const sessionHeader = req.headers['mcp-session-id'];
    const session = typeof sessionHeader === 'string' ? sessions.get(sessionHeader) : undefined;
    // Another agent's session looks exactly like an unknown one: no oracle for session ids.
    if (typeof sessionHeader === 'string' && (session === undefined || session.agentId !== agentId))
      return writeJsonError(res, 404, 'Session not found; initialize a new MCP session.');
    if (req.method !== 'POST') {
      if (session === undefined)
        return writeJsonError(res, 400, 'Bad request: initialize an MCP session with POST first.');
      return session.transport.handleRequest(req, res);
    }
    const read = await readBoundedBody(req, maxRequestBodySize);
    if (!read.ok) {
      refusedLimiter.take(agentId, now());
      return writeJsonError(res, 413, `Payload too large: at most ${maxRequestBodySize} bytes per request.`);
    }
    const gated = gateBody(read.text, session?.version);
    if (!gated.ok) {
      refusedLimiter.take(agentId, now());
      return writeJsonError(res, gated.status, gated.message, {}, gated.code);
    }
    if (session === undefined) return openSession(agentId, req, res, gated.body);
    // SDK 1.32.2 keeps every answered JSON response otherwise (sdk-json-stream-leak.ts).
    await session.transport.handleRequest(req, res, gated.body);
    releaseAnsweredJsonStreams(session.transport);
  }

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log?.error('mcp request failed', { error: err instanceof Error ? err.message : String(err) });
      writeJsonError(res, 500, 'Internal error.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const url = `http://127.0.0.1:${port}${MCP_PATH}`;
  log?.info('mcp server listening', { url });

  function revokeToken(agentId: string): void {
    const old = tokenOfAgent.get(agentId);
    if (old !== undefined) tokens.delete(digest(old));
    tokenOfAgent.delete(agentId);
    closeSessionsOf(agentId);
  }

  return {
    url,
    port,
    toolCalls$: toolCalls.asObservable(),
    issueToken(agentId) {
      // The rate bucket survives a new token: a restarted runtime does not get a fresh burst.
      revokeToken(agentId);
      const token = randomBytes(32).toString('base64url');
      tokens.set(digest(token), { agentId, token: Buffer.from(token) });
      tokenOfAgent.set(agentId, token);
      toolsListedBy.set(agentId, 0);
      return {
        url,
        token,
        headers: { Authorization: `Bearer ${token}` },
        toolsListed: () => (tokenOfAgent.get(agentId) === token ? (toolsListedBy.get(agentId) ?? 0) : 0),
      };
    },
    revokeToken,
    async close() {
      if (closed) return;
      closed = true;
      for (const id of [...sessions.keys()]) closeSession(id);
      tokens.clear();
      toolCalls.complete();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** The SDK's Tool.inputSchema type (an object JSON Schema). */
type CallToolResultSchemaInput = { type: 'object'; properties?: Record<string, object>; required?: string[] };

/** A Host header naming the loopback by its literal (`127.0.0.1:<port>` or `localhost:<port>`), never a name a page chose. */
function isLoopbackHost(host: string): boolean {
  return /^(?:127\.0\.0\.1|localhost):\d{1,5}$/i.test(host);
}
