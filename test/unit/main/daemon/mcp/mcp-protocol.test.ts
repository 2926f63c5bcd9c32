/**
 * issue 41 (protocol): the JSON-RPC and Streamable HTTP answers of the agentteam MCP endpoint,
 * probed over raw HTTP as the official conformance suite and a hand probe would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startMcpServer, type AgentteamMcpServer } from '../../../../../main/daemon/mcp/mcp-server.js';
import { RecordingCommunicationHandler } from '../../../../fixtures/recording-communication-handler.js';

let server: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let clock = 0;

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

function raw(method: string, body: string | undefined, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      server.url,
      {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a session with `protocolVersion`; returns the headers later requests on it carry. */
async function session(agentId: string, protocolVersion: string): Promise<Record<string, string>> {
  const auth = server.issueToken(agentId).headers;
  const init = await raw(
    'POST',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
    }),
    auth,
  );
  expect(init.status).toBe(200);
  const id = init.headers['mcp-session-id'];
  if (typeof id !== 'string') throw new Error('no session id');
  const headers = { ...auth, 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion };
  expect(
    (await raw('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers)).status,
  ).toBe(202);
  return headers;
}

function rpcError(answer: RawAnswer): { code: number; message: string } {
  return (answer.body as { error: { code: number; message: string } }).error;
}

beforeEach(async () => {
  clock = 1_000_000;
  handler = new RecordingCommunicationHandler();
  server = await startMcpServer({ handler, limits: { sendsPerMinute: 3, maxMessageBytes: 64 }, now: () => clock });
});

afterEach(async () => {
  await server.close();
});

describe('MCP endpoint: JSON-RPC error codes', () => {
  it('a malformed tools/call answers -32602 with a short message naming the field, not -32603 and a zod dump', async () => {
    const s = await session('alice', '2025-06-18');
    const call = await raw(
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }),
      s,
    );
    const error = rpcError(call);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params for tools\/call: params\.name: /);
    expect(error.message.length).toBeLessThan(200);
    expect((call.body as { id: number }).id).toBe(1);
    expect(handler.calls).toBe(0);
  });

  it('a malformed tools/list answers -32602 naming the field', async () => {
    const s = await session('alice', '2025-06-18');
    const list = await raw(
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 7 } }),
      s,
    );
    expect(rpcError(list)).toEqual({
      code: -32602,
      message: expect.stringMatching(/tools\/list: params\.cursor: /) as string,
    });
  });

  it('an unknown tool is the protocol error -32602 "Unknown tool", not a tool result', async () => {
    const s = await session('alice', '2025-11-25');
    const call = await raw(
      'POST',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'delete_everything', arguments: {} },
      }),
      s,
    );
    expect(rpcError(call).code).toBe(-32602);
    expect(rpcError(call).message).toMatch(/Unknown tool: delete_everything/);
  });

  it('valid JSON that is not a JSON-RPC message is -32600 (invalid request); invalid JSON stays -32700', async () => {
    const s = await session('alice', '2025-06-18');
    for (const body of ['"hello"', '42', '{"foo":1}', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
      const answer = await raw('POST', body, s);
      expect([answer.status, rpcError(answer).code]).toEqual([400, -32600]);
    }
    const broken = await raw('POST', '{"jsonrpc":', s);
    expect([broken.status, rpcError(broken).code]).toEqual([400, -32700]);
  });
});

describe('MCP endpoint: batches follow the negotiated revision', () => {
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  it('2025-06-18 and 2025-11-25 removed batching: a one-element batch and [] are -32600', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const s = await session(`agent-${version}`, version);
      const one = await raw('POST', JSON.stringify([ping(1)]), s);
      expect([one.status, rpcError(one).code]).toEqual([400, -32600]);
      expect(rpcError(one).message).toMatch(/batches were removed in MCP 2025-06-18/);
      const empty = await raw('POST', '[]', s);
      expect([empty.status, rpcError(empty).code]).toEqual([400, -32600]);
    }
  });

  it('a 2025-03-26 session still has batches (answered as an array); [] is still invalid', async () => {
    const s = await session('alice', '2025-03-26');
    const two = await raw('POST', JSON.stringify([ping(1), ping(2)]), s);
    expect(two.status).toBe(200);
    expect((two.body as Array<{ id: number }>).map((r) => r.id).sort()).toEqual([1, 2]);
    const empty = await raw('POST', '[]', s);
    expect(rpcError(empty).code).toBe(-32600);
  });

  it('initialize is never batched', async () => {
    const auth = server.issueToken('alice').headers;
    const answer = await raw(
      'POST',
      JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'p', version: '0' } },
        },
      ]),
      auth,
    );
    expect(rpcError(answer).code).toBe(-32600);
  });
});

describe('MCP endpoint: Streamable HTTP', () => {
  it('GET on a session is 405 with Allow, every time (the server offers no SSE stream), never 409', async () => {
    const s = await session('alice', '2025-06-18');
    for (let i = 0; i < 2; i += 1) {
      const get = await raw('GET', undefined, { ...s, accept: 'text/event-stream' });
      expect(get.status).toBe(405);
      expect(get.headers.allow).toBe('POST, DELETE');
    }
  });
});

describe('MCP endpoint: junk is bounded and rate-limited per token', () => {
  it('a body nested 10 000 levels deep is refused -32600 before parsing', async () => {
    const s = await session('alice', '2025-06-18');
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const answer = await raw('POST', deep, s);
    expect([answer.status, rpcError(answer).code]).toEqual([400, -32600]);
    expect(rpcError(answer).message).toMatch(/nested deeper than 32/);
  });

  it('a body over the size limit is 413 without being parsed', async () => {
    const s = await session('alice', '2025-06-18');
    const answer = await raw('POST', `"${'x'.repeat(64 * 6 + 65_536 + 10)}"`, s);
    expect(answer.status).toBe(413);
  });

  it('after 30 refused requests a token gets 429 with Retry-After; another token and the refill are unaffected', async () => {
    const alice = await session('alice', '2025-06-18');
    const bob = await session('bob', '2025-06-18');
    for (let i = 0; i < 30; i += 1) expect((await raw('POST', '{"not":"rpc"}', alice)).status).toBe(400);
    const limited = await raw('POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), alice);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBe(2);
    expect((await raw('POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), bob)).status).toBe(200);
    clock += 2_000;
    expect((await raw('POST', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), alice)).status).toBe(200);
  });
});
