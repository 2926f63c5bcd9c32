import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  startMcpServer,
  type AgentteamMcpServer,
  type McpEndpoint,
} from '../../../../../main/daemon/mcp/mcp-server.js';
import { RecordingCommunicationHandler } from '../../../../fixtures/recording-communication-handler.js';

let server: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let clock = 0;
const clients: Client[] = [];

async function connect(endpoint: McpEndpoint | { url: string; headers: Record<string, string> }): Promise<Client> {
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** Raw HTTP POST, for header-level checks the SDK client cannot express. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeEach(async () => {
  clock = 1_000_000;
  handler = new RecordingCommunicationHandler();
  server = await startMcpServer({ handler, limits: { sendsPerMinute: 3, maxMessageBytes: 64 }, now: () => clock });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await server.close();
});

describe('agentteam MCP server', () => {
  it('binds 127.0.0.1 on a free port and lists message_send and reaction under the server name agentteam', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.issueToken('alice'));
    expect(client.getServerVersion()?.name).toBe('agentteam');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['message_send', 'reaction']);
    const send = tools.find((t) => t.name === 'message_send');
    expect(send?.inputSchema.required).toEqual(['target', 'content']);
    expect(Object.keys(send?.inputSchema.properties ?? {})).toEqual(['target', 'content', 'allow_cross_target']);
  });

  it('sends as the agent the token identifies and returns {status, target_key, seen_up_to_seq, message_id}', async () => {
    const alice = await connect(server.issueToken('alice'));
    const bob = await connect(server.issueToken('bob'));
    handler.seenUpToSeq = 7;
    const result = await call(alice, 'message_send', { target: ' #General:AB12 ', content: 'hello' });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({
      status: 'sent',
      target_key: '#general:ab12',
      seen_up_to_seq: 7,
      message_id: 'm_1',
    });
    expect(result.structuredContent).toEqual({
      status: 'sent',
      target_key: '#general:ab12',
      seen_up_to_seq: 7,
      message_id: 'm_1',
    });
    await call(bob, 'message_send', { target: 'dm:@alice', content: 'hi', allow_cross_target: true });
    expect(handler.sends.map((s) => [s.agentId, s.target, s.allowCrossTarget])).toEqual([
      ['alice', '#general:ab12', false],
      ['bob', 'dm:@alice', true],
    ]);
  });

  it('refuses a request without a token, with a wrong token and with a revoked token (401)', async () => {
    const endpoint = server.issueToken('alice');
    await expect(connect({ url: server.url, headers: {} })).rejects.toThrow(/401|Unauthorized/);
    await expect(connect({ url: server.url, headers: { Authorization: `Bearer ${endpoint.token}x` } })).rejects.toThrow(
      /401|Unauthorized/,
    );
    expect(await rawPost(server.url, { authorization: 'Basic abc' })).toBe(401);
    server.revokeToken('alice');
    await expect(connect(endpoint)).rejects.toThrow(/401|Unauthorized/);
    expect(handler.calls).toBe(0);
  });

  it('a new token replaces the old one and closes its sessions', async () => {
    const first = server.issueToken('alice');
    const old = await connect(first);
    server.issueToken('alice');
    await expect(call(old, 'message_send', { target: '#general', content: 'x' })).rejects.toThrow();
    expect(await rawPost(server.url, { authorization: `Bearer ${first.token}` })).toBe(401);
    expect(handler.sends).toHaveLength(0);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) even with a valid token', async () => {
    const { token } = server.issueToken('alice');
    const auth = { authorization: `Bearer ${token}` };
    expect(await rawPost(server.url, { ...auth, host: `evil.example:${server.port}` })).toBe(403);
    expect(await rawPost(server.url, { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await rawPost(server.url, { ...auth, origin: `http://127.0.0.1:${server.port}` })).toBe(200);
    expect(await rawPost(server.url.replace('/mcp', '/other'), auth)).toBe(404);
  });

  it('issue 43: accepts a loopback Host on another port (an SSH reverse forward), still never a name or without the token', async () => {
    const { token } = server.issueToken('alice');
    const auth = { authorization: `Bearer ${token}` };
    const other = server.port === 65_000 ? 65_001 : 65_000;
    expect(await rawPost(server.url, { ...auth, host: `127.0.0.1:${other}` })).toBe(200);
    expect(await rawPost(server.url, { ...auth, host: `localhost:${other}` })).toBe(200);
    expect(await rawPost(server.url, { host: `127.0.0.1:${other}` })).toBe(401);
    expect(await rawPost(server.url, { ...auth, host: `127.0.0.1.evil.example:${other}` })).toBe(403);
    expect(await rawPost(server.url, { ...auth, host: '127.0.0.1' })).toBe(403);
  });

  it('a session opened by one agent cannot be used with another agent token', async () => {
    const alice = server.issueToken('alice');
    const bob = server.issueToken('bob');
    const client = await connect(alice);
    const transport = (client as unknown as { _transport: StreamableHTTPClientTransport })._transport;
    const sessionId = transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        server.url,
        {
          method: 'POST',
          headers: {
            ...bob.headers,
            'mcp-session-id': sessionId,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'message_send', arguments: { target: '#general', content: 'as alice?' } },
        }),
      );
    });
    expect(status).toBe(404);
    expect(handler.calls).toBe(0);
  });

  describe('refusals are tool errors with a stable code and nothing is written', () => {
    const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
      ['invalid_target', 'message_send', { target: 'general', content: 'x' }, /^invalid_target: .*exact target/],
      ['invalid_target (bad thread)', 'message_send', { target: '#general:!!', content: 'x' }, /^invalid_target: /],
      ['invalid_arguments (missing content)', 'message_send', { target: '#general' }, /^invalid_arguments: .*content/],
      [
        'invalid_arguments (wrong type)',
        'message_send',
        { target: '#general', content: 'x', allow_cross_target: 'yes' },
        /^invalid_arguments: .*allow_cross_target/,
      ],
      ['empty_content', 'message_send', { target: '#general', content: '   ' }, /^empty_content: /],
      [
        'content_too_large',
        'message_send',
        { target: '#general', content: 'é'.repeat(33) },
        /^content_too_large: The content is 66 bytes; at most 64/,
      ],
      ['invalid_emoji', 'reaction', { message_id: 'm1', emoji: 'thumbs up' }, /^invalid_emoji: /],
      ['unknown_message (handler)', 'reaction', { message_id: 'nope', emoji: '👍' }, /^unknown_message: /],
    ];
    for (const [name, tool, args, pattern] of cases) {
      it(name, async () => {
        const client = await connect(server.issueToken('alice'));
        const result = await call(client, tool, args);
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(pattern);
        expect(handler.sends).toHaveLength(0);
        expect(handler.reactions).toHaveLength(0);
      });
    }

    it('an unknown tool is the protocol error -32602 (MCP server/tools "Error Handling"), recorded as unknown_tool', async () => {
      const seen: string[] = [];
      server.toolCalls$.subscribe((c) => seen.push(c.outcome));
      const client = await connect(server.issueToken('alice'));
      await expect(call(client, 'delete_everything', {})).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown tool: delete_everything/) as string,
      });
      expect(seen).toEqual(['unknown_tool']);
      expect(handler.sends).toHaveLength(0);
    });

    it('out_of_scope from the handler reaches the model verbatim', async () => {
      handler.refuseTarget.set('#build', {
        ok: false,
        code: 'out_of_scope',
        message:
          '"#build" is not a conversation you received in this turn; to send there on purpose, call message_send again with allow_cross_target: true.',
      });
      const client = await connect(server.issueToken('alice'));
      const result = await call(client, 'message_send', { target: '#build', content: 'x' });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'out_of_scope: "#build" is not a conversation you received in this turn; to send there on purpose, call message_send again with allow_cross_target: true.',
      );
      expect(handler.sends).toHaveLength(0);
    });

    it('a handler that throws becomes internal_error, not a transport failure', async () => {
      handler.messageSend = () => Promise.reject(new Error('bug'));
      const client = await connect(server.issueToken('alice'));
      const result = await call(client, 'message_send', { target: '#general', content: 'x' });
      expect(text(result)).toMatch(/^internal_error: .*nothing was posted/);
    });
  });

  it('rate-limits per agent (token bucket from sendsPerMinute) and refills with time', async () => {
    const alice = await connect(server.issueToken('alice'));
    const bob = await connect(server.issueToken('bob'));
    for (let i = 0; i < 3; i += 1)
      expect((await call(alice, 'message_send', { target: '#general', content: `m${i}` })).isError).toBeFalsy();
    const limited = await call(alice, 'message_send', { target: '#general', content: 'one too many' });
    expect(text(limited)).toMatch(/^rate_limited: .*wait 20 s/);
    expect(
      (await call(bob, 'message_send', { target: '#general', content: 'bob is not limited' })).isError,
    ).toBeFalsy();
    clock += 20_000;
    expect((await call(alice, 'message_send', { target: '#general', content: 'after refill' })).isError).toBeFalsy();
    expect(handler.sends.map((s) => s.content)).toEqual(['m0', 'm1', 'm2', 'bob is not limited', 'after refill']);
  });

  it('reports every tool call on toolCalls$ with its outcome code, never its content', async () => {
    const seen: unknown[] = [];
    server.toolCalls$.subscribe((c) => seen.push({ agentId: c.agentId, tool: c.tool, outcome: c.outcome }));
    const client = await connect(server.issueToken('alice'));
    await call(client, 'message_send', { target: '#general', content: 'secret words' });
    await call(client, 'message_send', { target: 'nowhere', content: 'x' });
    expect(seen).toEqual([
      { agentId: 'alice', tool: 'message_send', outcome: 'ok' },
      { agentId: 'alice', tool: 'message_send', outcome: 'invalid_target' },
    ]);
    expect(JSON.stringify(seen)).not.toContain('secret words');
  });
});
