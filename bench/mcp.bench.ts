/**
 * `npm run bench -- mcp [--n 400] [--rounds 3]`: `message_send` round trips per second over
 * loopback through the agentteam MCP server (streamable HTTP session → auth, validation,
 * rate limit → a handler doing a durable node:sqlite insert, WAL + synchronous=FULL), against
 * a baseline in the same run: a bare node:http JSON echo doing the same raw insert.
 *
 * Both sides use the same keep-alive node:http client posting JSON-RPC, as a runtime CLI
 * does with its own HTTP client, so the ratio is the cost of our server. The MCP SDK client
 * (what the demo runtime uses: undici fetch + zod on every message) is reported separately
 * as `sdkClientPerSecond`. Calls are sequential (an agent waits for each tool result).
 * Rounds interleave; medians are reported. Goal (issue 7): ratio ≥ 0.5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CommunicationHandler } from '../main/daemon/mcp/communication-handler.js';
import { startMcpServer } from '../main/daemon/mcp/mcp-server.js';
import type { Figure } from './bench-kit.js';

function openDb(path: string): {
  insert: (agent: string, target: string, content: string) => number;
  close: () => void;
} {
  const db = new DatabaseSync(path);
  db.exec(
    `PRAGMA journal_mode=WAL; PRAGMA synchronous=${process.env.BENCH_SYNC ?? 'FULL'}; CREATE TABLE messages (id INTEGER PRIMARY KEY, agent TEXT, target TEXT, content TEXT)`,
  );
  const stmt = db.prepare('INSERT INTO messages (agent, target, content) VALUES (?, ?, ?)');
  return { insert: (a, t, c) => Number(stmt.run(a, t, c).lastInsertRowid), close: () => db.close() };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

interface RoundResult {
  perSecond: number;
  p50Ms: number;
}

async function timed(n: number, once: (i: number) => Promise<void>): Promise<RoundResult> {
  const latencies: number[] = [];
  for (let i = 0; i < 20; i += 1) await once(-1 - i); // warm-up
  const started = performance.now();
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await once(i);
    latencies.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: n / seconds, p50Ms: median(latencies) };
}

/** A keep-alive JSON POST client (one socket), shared by the MCP and baseline rounds. */
function jsonClient(url: URL, headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (payload: unknown, extra: Record<string, string> = {}) =>
    new Promise<{ body: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
            ...extra,
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(payload));
    });
  return { post, close: () => agent.destroy() };
}

function messageSendHandler(db: ReturnType<typeof openDb>): CommunicationHandler {
  return {
    async messageSend(agentId, args) {
      const id = db.insert(agentId, args.target, args.content);
      return { ok: true, status: 'sent', targetKey: args.target, seenUpToSeq: id, messageId: `m_${id}` };
    },
    async reaction() {
      return { ok: true };
    },
  };
}

async function mcpRound(dir: string, n: number): Promise<RoundResult> {
  const db = openDb(join(dir, `mcp-${Date.now()}.db`));
  const server = await startMcpServer({
    handler: messageSendHandler(db),
    limits: { sendsPerMinute: 10_000_000, maxMessageBytes: 32_768 },
  });
  const endpoint = server.issueToken('bench');
  const client = jsonClient(new URL(endpoint.url), endpoint.headers);
  try {
    const init = await client.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    });
    const session = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
    await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    return await timed(n, async (i) => {
      const r = await client.post(
        {
          jsonrpc: '2.0',
          id: i + 100,
          method: 'tools/call',
          params: { name: 'message_send', arguments: { target: '#general', content: `bench message ${i}` } },
        },
        session,
      );
      if (!r.body.includes('seen_up_to_seq')) throw new Error(`message_send failed: ${r.body.slice(0, 200)}`);
    });
  } finally {
    client.close();
    await server.close();
    db.close();
  }
}

async function sdkClientRound(dir: string, n: number): Promise<RoundResult> {
  const db = openDb(join(dir, `sdk-${Date.now()}.db`));
  const server = await startMcpServer({
    handler: messageSendHandler(db),
    limits: { sendsPerMinute: 10_000_000, maxMessageBytes: 32_768 },
  });
  const endpoint = server.issueToken('bench');
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
  );
  try {
    return await timed(n, async (i) => {
      const r = await client.callTool({
        name: 'message_send',
        arguments: { target: '#general', content: `bench message ${i}` },
      });
      if (r.isError === true) throw new Error(`message_send failed: ${JSON.stringify(r.content)}`);
    });
  } finally {
    await client.close();
    await server.close();
    db.close();
  }
}

async function baselineRound(dir: string, n: number): Promise<RoundResult> {
  const db = openDb(join(dir, `raw-${Date.now()}.db`));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { target: string; content: string };
      const id = db.insert('bench', body.target, body.content);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'sent', target_key: body.target, seen_up_to_seq: id, message_id: `m_${id}` }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const client = jsonClient(new URL(`http://127.0.0.1:${port}/`), {});
  try {
    return await timed(n, async (i) => {
      const r = await client.post({ target: '#general', content: `bench message ${i}` });
      if (!r.body.includes('seen_up_to_seq')) throw new Error('baseline echo failed');
    });
  } finally {
    client.close();
    await new Promise<void>((r) => server.close(() => r()));
    db.close();
  }
}

export default async function (args: string[]): Promise<Record<string, unknown>> {
  const arg = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  // --quick (or BENCH_QUICK=1): small sizes, the CI smoke run (issue 19).
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const n = arg('n', quick ? 60 : 400);
  const rounds = arg('rounds', quick ? 1 : 3);
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-bench-mcp-'));
  const mcp: RoundResult[] = [];
  const raw: RoundResult[] = [];
  const sdk: RoundResult[] = [];
  try {
    for (let r = 0; r < rounds; r += 1) {
      raw.push(await baselineRound(dir, n));
      mcp.push(await mcpRound(dir, n));
      sdk.push(await sdkClientRound(dir, n));
      const f = (x: RoundResult | undefined) => `${x?.perSecond.toFixed(0)}/s p50 ${x?.p50Ms.toFixed(2)} ms`;
      console.log(`round ${r + 1}: mcp ${f(mcp[r])}; baseline ${f(raw[r])}; mcp via SDK client ${f(sdk[r])}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const value = median(mcp.map((x) => x.perSecond));
  const baseline = median(raw.map((x) => x.perSecond));
  return {
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Number((value / baseline).toFixed(3)),
    unit: 'message_send round trips/s (sequential, durable insert)',
    p50Ms: Number(median(mcp.map((x) => x.p50Ms)).toFixed(3)),
    baselineP50Ms: Number(median(raw.map((x) => x.p50Ms)).toFixed(3)),
    sdkClientPerSecond: Math.round(median(sdk.map((x) => x.perSecond))),
    sdkClientP50Ms: Number(median(sdk.map((x) => x.p50Ms)).toFixed(3)),
    sync: process.env.BENCH_SYNC ?? 'FULL',
    n,
    rounds,
    figures: [
      {
        name: 'message_send round trips/s (sequential, durable insert) vs bare HTTP echo + insert',
        value: Math.round(value),
        unit: 'calls/s',
        baseline: Math.round(baseline),
        ratio: Number((value / baseline).toFixed(3)),
        goal: 'ratio ≥ 0.5',
        met: value / baseline >= 0.5,
        note: `p50 ${median(mcp.map((x) => x.p50Ms)).toFixed(3)} ms vs ${median(raw.map((x) => x.p50Ms)).toFixed(3)} ms; through the SDK client ${Math.round(median(sdk.map((x) => x.perSecond)))}/s`,
      },
    ] satisfies Figure[],
  };
}
