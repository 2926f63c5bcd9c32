import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { jsonStreamEntries, releaseAnsweredJsonStreams } from '../../../../../main/daemon/mcp/sdk-json-stream-leak.js';

/** One real SDK session in JSON response mode, as mcp-server.ts runs it; `sweep` toggles the workaround. */
async function session(sweep: boolean, gate?: Promise<void>) {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, enableJsonResponse: true });
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async () => {
    await gate;
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  await server.connect(transport);
  const http: HttpServer = createServer((req, res) => {
    void transport.handleRequest(req, res).then(() => {
      if (sweep) releaseAnsweredJsonStreams(transport);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = new Client({ name: 'c', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)),
  );
  const close = async () => {
    await client.close();
    await server.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  };
  closers.push(close);
  return { transport, client };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

describe('MCP SDK JSON-response stream leak workaround (typescript-sdk#2559)', () => {
  it('the SDK alone keeps one entry per answered call (drop the workaround once this fails after an upgrade)', async () => {
    const { transport, client } = await session(false);
    for (let i = 0; i < 10; i++) await client.callTool({ name: 'x', arguments: {} });
    // initialize + 10 calls (+ the tools/list the client may not send): at least the 10 calls stay.
    expect(jsonStreamEntries(transport)).toBeGreaterThanOrEqual(10);
  });

  it('after each answered request the sweep leaves no entry behind', async () => {
    const { transport, client } = await session(true);
    for (let i = 0; i < 10; i++) {
      const result = await client.callTool({ name: 'x', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    }
    // The sweep runs after the response is written; the client may see it a tick earlier.
    await new Promise((resolve) => setImmediate(resolve));
    expect(jsonStreamEntries(transport)).toBe(0);
  });

  it('never releases a stream still waiting for its response (concurrent calls on one session)', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { transport, client } = await session(true, gate);
    const calls = Array.from({ length: 4 }, () => client.callTool({ name: 'x', arguments: {} }));
    // Wait until all four POSTs are registered and waiting on the gate.
    while ((jsonStreamEntries(transport) ?? 0) < 4) await new Promise((resolve) => setImmediate(resolve));
    expect(releaseAnsweredJsonStreams(transport)).toBe(0);
    expect(jsonStreamEntries(transport)).toBe(4);
    open();
    const results = await Promise.all(calls);
    expect(results.every((r) => JSON.stringify(r.content) === '[{"type":"text","text":"ok"}]')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(jsonStreamEntries(transport)).toBe(0);
  });
});
