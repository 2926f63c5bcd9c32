/**
 * `npm run bench -- memory [--quick] [--wakes 50000] [--no-cli]` (issue 19): the daemon's memory
 * over time, in the real `agentteam serve` process.
 *
 * Heap figures are taken after a full GC forced through the daemon's own inspector
 * (`--inspect=127.0.0.1:0`, CDP `HeapProfiler.collectGarbage` then `Runtime.getHeapUsage`);
 * RSS is the daemon process's own (prom-client's process_resident_memory_bytes), children not
 * included (they are reported separately).
 * - idle: the demo agent only, nothing happening;
 * - with 3 CLI agents: Claude Code, Codex and OpenCode started against the fake model servers
 *   (test/fixtures), once they are idle; per-agent cost = (that − idle) / 3, daemon side;
 * - after `--wakes` wakes (default 50,000) through 10 demo agents: heap after GC at five
 *   checkpoints; flat within 5 % from the first checkpoint (after warm-up) to the last = no leak.
 *
 * Headline: value = heap after GC at the last checkpoint, baseline = at the first, ratio =
 * first / last (1 = flat; goal ≥ 0.95).
 */
import { readFileSync } from 'node:fs';
import { startFakeAnthropic } from '../test/fixtures/fake-anthropic.js';
import { startFakeOpenAi } from '../test/fixtures/fake-openai.js';
import {
  heapAfterGc,
  isQuick,
  machine,
  numArg,
  r2,
  startServe,
  wsClient,
  type Figure,
  type Serve,
} from './bench-kit.js';

const MB = 1024 * 1024;
const INSPECT = ['--inspect=127.0.0.1:0'];

const rss = async (serve: Serve): Promise<number> => (await serve.metrics()).get('process_resident_memory_bytes') ?? 0;

/** RSS of the daemon's descendants (the runtime CLIs), from /proc (Linux). */
function childrenRss(pid: number): number {
  const kids = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let total = 0;
  const stack = kids(pid);
  while (stack.length > 0) {
    const p = stack.pop() as number;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      // exited meanwhile
    }
    stack.push(...kids(p));
  }
  return total;
}

/**
 * What stays: the smallest of `count` heap-after-GC readings a second apart (three; one in quick mode). One reading swung
 * ±2–5 MB between checkpoints (work finishing after the last wake ended: delivery confirmations,
 * timers); a leak raises every reading.
 */
async function retainedHeap(serve: Serve, count: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1000)); // a bench letting the daemon go quiet, not a test
    readings.push(await heapAfterGc(serve));
  }
  return Math.min(...readings);
}

async function settleIdle(
  serve: Serve,
  agents: number,
  timeoutMs: number,
): Promise<Array<{ id: string; state: string }>> {
  const client = await wsClient(serve.origin, serve.token, serve.operatorKey);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = (await client.call('agents.list', {})) as Array<{ id: string; state: string }>;
      if (list.length >= agents && list.every((a) => a.state === 'idle')) return list;
      if (Date.now() > deadline) return list;
      await new Promise((r) => setTimeout(r, 500)); // a bench waiting on child processes, not a test
    }
  } finally {
    client.close();
  }
}

export default async function memory(args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  // --quick is the smoke run of `npm test` (issue 44: its figures are not quoted): 60 wakes, three
  // checkpoints (the fewest the slope needs) of one heap reading each.
  const wakes = numArg(args, 'wakes', quick ? 60 : 50_000);
  const checkpointCount = quick ? 3 : 5;
  const readingsPerCheckpoint = quick ? 1 : 3;
  const withCli = !args.includes('--no-cli') && !quick;
  const demo = { id: 'demo', name: 'Demo', runtime: 'demo' };

  // Idle.
  const idle = await startServe({ agents: [demo], channels: { local: {} } }, { nodeArgs: INSPECT });
  await settleIdle(idle, 1, 30_000);
  const idleHeap = await heapAfterGc(idle);
  const idleRss = await rss(idle);
  await idle.stop();

  // With the three CLI agents (daemon side; the CLIs' own RSS separately).
  let cli: Record<string, number | string> = { skipped: quick ? 'quick mode' : '--no-cli' };
  if (withCli) {
    const anthropic = await startFakeAnthropic();
    const openai = await startFakeOpenAi();
    const openaiEnv = { OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'fake-key' };
    const serve = await startServe(
      {
        agents: [
          demo,
          {
            id: 'claude',
            name: 'Claude',
            runtime: 'claude-code',
            env: { ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: 'fake-key', CLAUDE_CODE_MAX_RETRIES: '0' },
          },
          { id: 'codex', name: 'Codex', runtime: 'codex', env: openaiEnv },
          { id: 'opencode', name: 'OpenCode', runtime: 'opencode', env: openaiEnv },
        ],
        channels: { local: {} },
      },
      { nodeArgs: INSPECT },
    );
    try {
      const states = await settleIdle(serve, 4, 180_000);
      const heap = await heapAfterGc(serve);
      const r = await rss(serve);
      cli = {
        states: states.map((a) => `${a.id}:${a.state}`).join(' '),
        heapMB: r2(heap / MB),
        rssMB: r2(r / MB),
        perAgentHeapMB: r2((heap - idleHeap) / 3 / MB),
        perAgentRssMB: r2((r - idleRss) / 3 / MB),
        childrenRssMB: r2(childrenRss(serve.child.pid as number) / MB),
      };
    } finally {
      await serve.stop();
      await anthropic.close();
      await openai.close();
    }
  }

  // 10 demo agents, `wakes` wakes in closed loops; heap after GC at five checkpoints (three in quick mode).
  const agents = 10;
  const serve = await startServe(
    {
      agents: Array.from({ length: agents }, (_, a) => ({ id: `demo${a}`, name: `Demo ${a}`, runtime: 'demo' })),
      channels: { local: {} },
      limits: { sendsPerMinute: 10_000 },
    },
    { nodeArgs: INSPECT },
  );
  const client = await wsClient(serve.origin, serve.token, serve.operatorKey);
  const checkpoints: Array<{ wakes: number; heapMB: number; rssMB: number }> = [];
  const t0 = performance.now();
  try {
    for (let a = 0; a < agents; a++) await client.call('conversations.create', { target: `#m${a}` });
    const ended = new Map<string, () => void>();
    const done = new Set<string>();
    client.events.on('event', (f: { event: string; payload: { messageId: string; endedAt: string | null } }) => {
      if (f.event !== 'wake.status' || f.payload.endedAt === null) return;
      done.add(f.payload.messageId);
      ended.get(f.payload.messageId)?.();
    });
    const step = Math.ceil(wakes / checkpointCount / agents);
    let sent = 0;
    for (let c = 0; c < checkpointCount; c++) {
      await Promise.all(
        Array.from({ length: agents }, async (_, a) => {
          for (let i = 0; i < step; i++) {
            const r = (await client.call('messages.send', { target: `#m${a}`, content: `@demo${a} m ${c}.${i}` })) as {
              messageId: string;
            };
            if (!done.has(r.messageId)) await new Promise<void>((res) => ended.set(r.messageId, res));
            ended.delete(r.messageId);
            done.delete(r.messageId);
          }
        }),
      );
      sent += step * agents;
      // Every wake of this step is terminal; the agents' turns may still be closing (boundary
      // hook, turn end): measure once all are idle, so a checkpoint never counts in-flight turns.
      await settleIdle(serve, agents, 30_000);
      checkpoints.push({
        wakes: sent,
        heapMB: r2((await retainedHeap(serve, readingsPerCheckpoint)) / MB),
        rssMB: r2((await rss(serve)) / MB),
      });
      console.error(`memory: ${JSON.stringify(checkpoints.at(-1))}`);
    }
  } finally {
    client.close();
    await serve.stop();
  }
  const first = checkpoints[0]?.heapMB as number;
  const last = checkpoints.at(-1)?.heapMB as number;
  const growth = (last - first) / first;
  // The leak slope: bytes per wake from the middle checkpoint to the last (a bounded cache that
  // fills during the first checkpoints shows in `growth`, a leak in both).
  const mid = checkpoints[Math.floor(checkpoints.length / 2)];
  const slope =
    mid === undefined || checkpoints.length < 3
      ? Number.NaN
      : ((last - mid.heapMB) * MB) / ((checkpoints.at(-1)?.wakes as number) - mid.wakes);
  const figures: Figure[] = [
    {
      name: 'daemon idle (demo agent only): heap after GC',
      value: r2(idleHeap / MB),
      unit: 'MB',
      note: `RSS ${r2(idleRss / MB)} MB`,
    },
    {
      name: 'daemon with 3 CLI agents: per-agent cost (daemon side)',
      value: typeof cli.perAgentRssMB === 'number' ? cli.perAgentRssMB : Number.NaN,
      unit: 'MB RSS',
      note: JSON.stringify(cli),
    },
    {
      name: `heap after GC after ${checkpoints.at(-1)?.wakes ?? 0} wakes vs after ${checkpoints[0]?.wakes ?? 0}`,
      value: last,
      unit: 'MB',
      baseline: first,
      ratio: r2(first / last),
      goal: 'growth ≤ 5 %',
      met: growth <= 0.05,
      note: `growth ${r2(growth * 100)} %; checkpoints ${checkpoints.map((c) => `${c.wakes}:${c.heapMB}MB/${c.rssMB}MB rss`).join(', ')}`,
    },
    {
      name: 'heap growth per wake, middle checkpoint → last (leak slope)',
      value: r2(slope),
      unit: 'B/wake',
      note: `from ${mid?.wakes ?? '?'} to ${checkpoints.at(-1)?.wakes ?? '?'} wakes; a leak of one small object per wake would show as ≥ 100 B/wake`,
    },
  ];
  return {
    value: last,
    baseline: first,
    ratio: r2(first / last),
    unit: 'MB heap after GC (last checkpoint; baseline = first checkpoint)',
    goal: 'heap growth ≤ 5 % (ratio ≥ 0.95)',
    idleHeapMB: r2(idleHeap / MB),
    idleRssMB: r2(idleRss / MB),
    cli,
    wakes: checkpoints.at(-1)?.wakes ?? 0,
    heapGrowthPercent: r2(growth * 100),
    heapBytesPerWakeSecondHalf: r2(slope),
    checkpoints,
    wakesPerSecond: r2(((checkpoints.at(-1)?.wakes ?? 0) / (performance.now() - t0)) * 1000),
    figures,
    machine: machine(),
  };
}
