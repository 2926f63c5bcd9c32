/**
 * What the scale benchmarks (issue 19) share: the real `agentteam serve` (the built CLI, as a
 * person runs it) in a child process, a WebSocket client that also receives pushed events, a
 * `/metrics` reader (the daemon's own `process.cpuUsage()` and heap, via prom-client's default
 * metrics), Chromium with the flags the browser tests use, and small statistics helpers.
 * Not a benchmark itself (no `.bench.ts`), so `npm run bench` does not list it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventsOfFrame, WS_OPERATOR_PARAM } from '../shared/api/ws-protocol.js';
import { readOperatorKey } from '../main/serve/token.js';
import { chromium, type Browser } from '@playwright/test';
import WebSocket from 'ws';
import type { CommunicationHandler } from '../main/daemon/mcp/communication-handler.js';
import { startMcpServer } from '../main/daemon/mcp/mcp-server.js';
import { CHROMIUM_LAUNCH } from '../test/fixtures/chromium.js';

export const ROOT = join(import.meta.dirname, '..');

/** `--quick` or BENCH_QUICK=1: small sizes, so CI runs every benchmark once and none rots. */
export function isQuick(args: readonly string[]): boolean {
  return args.includes('--quick') || process.env.BENCH_QUICK === '1';
}

/** The value after `--name` in args, as a number, else `fallback`. */
export function numArg(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : Number.NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export const r2 = (x: number): number => Math.round(x * 100) / 100;

/** One line of bench/RESULTS.md: a figure against its goal (and its raw baseline when it has one). */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  /** Oriented so higher is better. */
  readonly ratio?: number;
  /** Human-readable goal, e.g. "≤ 300 ms". */
  readonly goal?: string;
  readonly met?: boolean;
  readonly note?: string;
}

/** The machine a figure was measured on; these machines are shared, so the load matters. */
export function machine(): Record<string, unknown> {
  const c = cpus();
  return {
    cpu: c[0]?.model ?? 'unknown',
    cores: c.length,
    loadavg: loadavg().map((x) => r2(x)),
    node: process.version,
  };
}

export interface WsClient {
  call(name: string, request: unknown): Promise<unknown>;
  /** Pushed events: `on('event', ({ event, payload }) => …)`. */
  readonly events: EventEmitter;
  close(): void;
}

/** A WebSocket client of the API bridge (the same envelope as the CLI) that keeps pushed events. */
export async function wsClient(origin: string, token: string, operatorKey?: string): Promise<WsClient> {
  // issue 41: the operator's calls need this start's operator key (the serve token alone reads nothing of the operator's).
  const query = operatorKey === undefined ? '' : `?${WS_OPERATOR_PARAM}=${encodeURIComponent(operatorKey)}`;
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api${query}`, {
    headers: { authorization: `Bearer ${token}` },
    maxPayload: 64 * 1024 * 1024,
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as {
      id?: number;
      ok?: boolean;
      value?: unknown;
      message?: string;
      event?: string;
      payload?: unknown;
    };
    // issue 30: pushed events come one per frame or several in one `{events}` frame.
    const pushed = eventsOfFrame(frame);
    if (pushed.length > 0) return void pushed.forEach((e) => events.emit('event', e));
    const p = frame.id === undefined ? undefined : pending.get(frame.id);
    if (p === undefined) return;
    pending.delete(frame.id as number);
    if (frame.ok === true) p.resolve(frame.value);
    else p.reject(new Error(`daemon refused the call: ${frame.message ?? JSON.stringify(frame)}`));
  });
  return {
    call: (name, request) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, call: name, request }));
      }),
    events,
    close: () => ws.close(),
  };
}

export interface Serve {
  readonly dataDir: string;
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  /** issue 41: this start's operator key, from <data-dir>/operator-key (serve prints it only to a terminal). */
  readonly operatorKey: string;
  readonly child: ChildProcess;
  readonly coldStartMs: number;
  /** prom-client's default and wake metrics of the daemon process, unlabelled samples by name. */
  metrics(): Promise<Map<string, number>>;
  /** The daemon's inspector WebSocket URL, when started with --inspect. */
  inspectorUrl(): string | null;
  /** SIGTERM, wait for exit; removes the data dir when this fixture created it. */
  stop(): Promise<void>;
}

/**
 * Spawns the built `agentteam serve` on a data dir (a fresh temporary one unless given) with
 * `config` as its agentteam.json. `nodeArgs` go to the daemon's Node (e.g. --cpu-prof).
 */
export async function startServe(
  config: unknown,
  options: { dataDir?: string; nodeArgs?: readonly string[]; env?: Record<string, string> } = {},
): Promise<Serve> {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js')))
    throw new Error('bench: the app is not built; run "npx electron-vite build" (or npm run build) first');
  const own = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'agentteam-bench-')));
  await writeFile(join(dataDir, 'agentteam.json'), JSON.stringify(config));
  const t0 = performance.now();
  // out/main/cli.js directly (bin/agentteam.mjs only re-execs it on an old Node), so nodeArgs apply.
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), join(ROOT, 'out', 'main', 'cli.js'), 'serve', '--data-dir', dataDir, '--port', '0'],
    { cwd: ROOT, env: { ...process.env, HOME: dataDir, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let inspector: string | null = null;
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    inspector ??= /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1] ?? null;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const bare = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`agentteam serve exited (${code}): ${stderr.slice(-4000)}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w%-]+)/.exec(line);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
  });
  const parsed = new URL(bare);
  const origin = parsed.origin;
  const token = decodeURIComponent(parsed.searchParams.get('token') ?? '');
  while ((await fetch(`${origin}/healthz`)).status !== 200);
  const operatorKey = (await readOperatorKey(dataDir)) ?? '';
  // The operator's page: the URL with the key in its fragment, as `agentteam url` prints it.
  const url = `${bare}#operator=${encodeURIComponent(operatorKey)}`;
  const coldStartMs = performance.now() - t0;
  return {
    dataDir,
    url,
    origin,
    token,
    operatorKey,
    child,
    coldStartMs,
    inspectorUrl: () => inspector,
    async metrics() {
      const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      const out = new Map<string, number>();
      for (const line of text.split('\n')) {
        const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? ([-\d.e+]+|NaN)$/.exec(line);
        if (m === null) continue;
        const key = m[1] + (m[2] ?? '');
        out.set(key, (out.get(key) ?? 0) + Number(m[3]));
      }
      return out;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (own) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Heap used after a full GC, through the daemon's inspector (started with `--inspect=127.0.0.1:0`). */
export async function heapAfterGc(serve: Serve): Promise<number> {
  const url = serve.inspectorUrl();
  if (url === null) throw new Error('bench: the daemon printed no inspector URL');
  const ws = new WebSocket(url);
  await once(ws, 'open');
  let id = 0;
  const cdp = (method: string): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const mine = ++id;
      const on = (data: WebSocket.RawData) => {
        const f = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
        if (f.id !== mine) return;
        ws.off('message', on);
        resolve(f.result ?? {});
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id: mine, method }));
    });
  try {
    await cdp('HeapProfiler.collectGarbage');
    await cdp('HeapProfiler.collectGarbage');
    return Number((await cdp('Runtime.getHeapUsage')).usedSize);
  } finally {
    ws.close();
  }
}

/** Debian's Chromium, headless, with the browser tests' flags (playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}

/** CPU seconds (user + system) the daemon process has used, from its own process.cpuUsage(). */
export function cpuSeconds(m: Map<string, number>): number {
  return (m.get('process_cpu_user_seconds_total') ?? 0) + (m.get('process_cpu_system_seconds_total') ?? 0);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { functionName?: string; url?: string } };
}

/**
 * The renderer main thread's tasks longer than 50 ms in a Chromium trace (devtools.timeline), by
 * wall time (what PerformanceObserver 'longtask' reports) and by the thread's own CPU time
 * (`tdur`): on a machine shared by many processes a task of 8 ms CPU can take 60 ms of wall
 * time while the thread waits for a core. For the longest, what they spent their time in.
 */
export function traceLongTasks(buffer: Buffer): {
  wall: number;
  cpu: number;
  longestWallMs: number;
  longestCpuMs: number;
  top: Array<{ wallMs: number; cpuMs: number; inside: Record<string, number> }>;
} {
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = traceEvents
    .filter((e) => main !== undefined && e.pid === main.pid && e.tid === main.tid && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000);
  const kinds = new Set([
    'FunctionCall',
    'EventDispatch',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'MinorGC',
    'MajorGC',
    'TimerFire',
    'FireAnimationFrame',
    'ParseHTML',
    'RunMicrotasks',
  ]);
  const top = [...tasks]
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 5)
    .map((t) => {
      const inside: Record<string, number> = {};
      for (const e of mine) {
        if (e.ts < t.ts || e.ts >= t.ts + (t.dur ?? 0) || !kinds.has(e.name)) continue;
        const k =
          e.name === 'FunctionCall' && e.args?.data?.functionName ? `${e.name}:${e.args.data.functionName}` : e.name;
        inside[k] = r2((inside[k] ?? 0) + (e.dur ?? 0) / 1000);
      }
      return { wallMs: r2((t.dur ?? 0) / 1000), cpuMs: r2((t.tdur ?? 0) / 1000), inside };
    });
  return {
    wall: tasks.length,
    cpu: tasks.filter((t) => (t.tdur ?? 0) > 50_000).length,
    longestWallMs: r2(Math.max(0, ...tasks.map((t) => (t.dur ?? 0) / 1000))),
    longestCpuMs: r2(Math.max(0, ...tasks.map((t) => (t.tdur ?? 0) / 1000))),
    top,
  };
}

/** One durable autocommit insert (WAL, synchronous=FULL, as the store) on the same disk: p50 ms of n. */
export function rawCommitMs(n: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-bench-commit-'));
  const db = new DatabaseSync(join(dir, 'raw.db'));
  try {
    db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      insert.run(`row ${i}`);
      ms.push(performance.now() - t0);
    }
    return percentile(ms, 50);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The demo agents' own work, alone (a benchmark's raw baseline): SDK clients → an MCP server with a
 * no-op handler, `calls` `message_send`s each, all agents at once; per-call ms and CPU ms per call.
 * With `paceMs`, each client works that long before each call (a closed loop at the agents' own
 * pace, as in busy-team's chains, where an answer is worked on before its send): the calls then
 * meet the concurrency the measured load has, not a burst of every agent at the same instant.
 */
export async function bareAgentWork(
  agents: number,
  calls: number,
  message: (agent: number, call: number) => { readonly target: string; readonly content: string },
  paceMs = 0,
): Promise<{ latencies: number[]; cpuMsPerCall: number }> {
  const handler: CommunicationHandler = {
    async messageSend(_agentId, args) {
      return { ok: true, status: 'sent', targetKey: args.target, seenUpToSeq: 1, messageId: 'm_bare' };
    },
    async reaction() {
      return { ok: true };
    },
  };
  const server = await startMcpServer({ handler, limits: { sendsPerMinute: 10_000_000, maxMessageBytes: 32_768 } });
  const clients: Client[] = [];
  try {
    for (let a = 0; a < agents; a++) {
      const endpoint = server.issueToken(`demo${a}`);
      const client = new Client({ name: 'bench-bare-agent', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { ...endpoint.headers } } }),
      );
      clients.push(client);
    }
    const latencies: number[] = [];
    const cpu0 = process.cpuUsage();
    await Promise.all(
      clients.map(async (client, a) => {
        for (let i = 0; i < calls; i++) {
          if (paceMs > 0) await delay(paceMs);
          const t0 = performance.now();
          const r = await client.callTool({
            name: 'message_send',
            arguments: message(a, i),
          });
          latencies.push(performance.now() - t0);
          if (r.isError === true) throw new Error(`bare message_send failed: ${JSON.stringify(r.content)}`);
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    return { latencies, cpuMsPerCall: (cpu.user + cpu.system) / 1000 / (agents * calls) };
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    await server.close();
  }
}
