/**
 * issue 30 "the operator's traffic first", on the assembled daemon behind `agentteam serve`'s
 * WebSocket: N agents' `message_send` calls (real MCP over HTTP, each agent's own token) and one
 * operator request (`messages.send` over the UI's WebSocket) are all ready in the same event-loop
 * turn — the calls are written first, then the operator's frame, while the loop is held, so one
 * poll finds them all. The daemon handles at most a few agent calls per turn
 * (mcp/agent-call-gate.ts): the operator's message is stored before the Nth agent's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distinct, filter, firstValueFrom, Subject, take, toArray } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { WS_API_PATH, WS_OPERATOR_PARAM } from '../../../shared/api/ws-protocol.js';
import { createDaemon } from '../../../main/daemon/index.js';
import type { McpEndpoint } from '../../../main/daemon/mcp/mcp-server.js';
import { AGENT_CALLS_PER_TURN } from '../../../main/daemon/mcp/agent-call-gate.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEventEnvelope,
  StartResult,
} from '../../../main/daemon/runtime/runtime-adapter.js';
import { startServeServer } from '../../../main/serve/serve-server.js';
import { readyProbe } from '../../fixtures/ready-probe.js';

const TOKEN = 'T'.repeat(43);
const OPERATOR_KEY = 'O'.repeat(43);
const AGENTS = 12;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A runtime that is ready and does nothing: the test makes its agent's MCP calls itself. */
class IdleRuntime implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#events.asObservable();
  async start(): Promise<StartResult> {
    this.#events.next({ type: 'ready', sessionId: 's', resumed: false, generation: 1 });
    return { ok: true, sessionId: 's', resumed: false };
  }
  async deliver(): Promise<DeliverResult> {
    return { ok: true };
  }
  async interrupt(): Promise<void> {}
  async stop(): Promise<void> {
    this.#events.complete();
  }
}

/** Opens an MCP session for the agent (initialize + initialized); its session id. */
async function mcpSession(endpoint: McpEndpoint): Promise<string> {
  const headers = {
    ...endpoint.headers,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const init = await fetch(endpoint.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'operator-first', version: '0' } },
    }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id');
  if (session === null) throw new Error(`no MCP session: ${init.status}`);
  const done = await fetch(endpoint.url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return session;
}

/** A raw HTTP/1.1 tools/call request for `message_send`, to be written on an open socket. */
function toolCallBytes(endpoint: McpEndpoint, session: string, agentId: string): string {
  const url = new URL(endpoint.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'message_send',
      arguments: { target: '#general', content: `from ${agentId}`, allow_cross_target: true },
    },
  });
  return [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: ${endpoint.headers.Authorization}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `mcp-session-id: ${session}`,
    'mcp-protocol-version: 2025-06-18',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

it('with N agent calls and one operator request ready at once, the operator is served before the Nth agent call', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-operator-first-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
  const ids = Array.from({ length: AGENTS }, (_, i) => `a${i}`);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: ids.map((id) => ({ id, name: id.toUpperCase(), runtime: 'claude-code' })),
      limits: { sendsPerMinute: 1000 },
    }),
  );
  const endpoints = new Map<string, McpEndpoint>();
  const daemon = await createDaemon({
    dataDir: dir,
    probe: readyProbe,
    createRuntime: (agent, deps) => {
      endpoints.set(agent.id, deps.mcp);
      return { ok: true, adapter: new IdleRuntime() };
    },
  });
  cleanups.push(() => daemon.stop());
  const server = await startServeServer({
    daemon,
    token: TOKEN,
    operatorKey: OPERATOR_KEY,
    port: 0,
    rendererDir: null,
  });
  cleanups.push(() => server.close());
  await daemon.api['conversations.create']({ target: '#general' });
  await expect.poll(() => endpoints.size).toBe(AGENTS);

  const ws = new WebSocket(
    `ws://127.0.0.1:${server.port}${WS_API_PATH}?token=${TOKEN}&${WS_OPERATOR_PARAM}=${OPERATOR_KEY}`,
  );
  cleanups.push(() => ws.close());
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));

  const sockets: Socket[] = [];
  const requests: string[] = [];
  for (const id of ids) {
    const endpoint = endpoints.get(id) as McpEndpoint;
    requests.push(toolCallBytes(endpoint, await mcpSession(endpoint), id));
    const socket = connect(Number(new URL(endpoint.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    cleanups.push(() => void socket.destroy());
    sockets.push(socket);
  }
  const answered = Promise.all(
    sockets.map((s) => new Promise<string>((resolve) => s.once('data', (d: Buffer) => resolve(d.toString())))),
  );

  // Every message stored from now on, in the order the daemon handled them.
  const stored = firstValueFrom(
    daemon.events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'message.stored' }> => e.name === 'message.stored'),
      // A message may be pushed again (e.g. when it is addressed); its first store is what counts.
      distinct((e) => e.payload.id),
      take(AGENTS + 1),
      toArray(),
    ),
  );
  // All N agent calls first, then the operator's frame; the loop is held until every byte is in.
  sockets.forEach((s, i) => s.write(requests[i] as string));
  ws.send(JSON.stringify({ id: 1, call: 'messages.send', request: { target: '#general', content: 'operator first' } }));
  const until = Date.now() + 200;
  while (Date.now() < until);

  const order = (await stored).map((e) => e.payload.authorId);
  expect(order.filter((a) => a !== 'operator').sort()).toEqual([...ids].sort());
  const operatorAt = order.indexOf('operator');
  // Served before the Nth agent call, and after at most one turn's worth of agent calls.
  expect(operatorAt).toBeGreaterThanOrEqual(0);
  expect(operatorAt).toBeLessThan(AGENTS);
  expect(operatorAt).toBeLessThanOrEqual(AGENT_CALLS_PER_TURN);
  // Deferred calls are handled, not dropped: every agent got its answer.
  for (const answer of await answered) expect(answer).toMatch(/^HTTP\/1\.1 200/);
});
