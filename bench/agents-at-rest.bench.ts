/**
 * `npm run bench -- agents-at-rest [--quick] [--per-runtime 3] [--sleep-seconds 5] [--rounds 200]
 * [--leak-minutes 15]` (issue 42 "Many agents on one laptop"): 20 configured agents — 7 Claude
 * Code, 7 Codex, 6 OpenCode, the real CLIs against the fake model servers (test/fixtures) — in the
 * real `agentteam serve`, each agent with its own HOME and config dirs (the adapters put them under
 * `<data-dir>/runtimes/<agent id>`), each in its own conversation.
 *
 * Resident memory is the whole tree's: the daemon, every descendant (by ppid), and any process
 * whose environment or command line names the data dir (a CLI's child that left the tree still
 * counts: a leak must not hide), summed RSS from /proc/<pid>/stat (PSS from smaps_rollup, which
 * counts shared pages once, in the notes; the daemon's heap after a forced GC at each leak checkpoint,
 * through its inspector).
 *
 * - Raw baseline, same run: the same 20 agents with `idleSleepSeconds: 0` (never sleep), once all
 *   are up and idle — what 20 agents cost doing nothing without sleep.
 * - With `resources.idleSleepSeconds` of a few seconds: the peak while the 20 CLIs start; the tree
 *   once all sleep (goal ≤ 400 MB; ratio = the awake baseline / this); a round of wakes (one
 *   message to every agent at once: the peak during it, and the tree when every wake is terminal);
 *   the tree once all sleep again.
 * - Time to the first reply, per runtime (`--per-runtime` agents each, one at a time, so they do
 *   not compete for the two cores): send → the wake's `reply_sent` push, for (a) a cold start: an
 *   agent asleep that never had a conversation (its CLI starts with nothing to resume), (b) a
 *   sleeping agent (its CLI starts and resumes its session), (c) a warm one (the same agent right
 *   after, its process running). Goal: sleeping ≤ cold + 1 s (medians).
 * - Leak check: rounds of one wake per agent (each wake starts the sleeping CLI, resumes its session,
 *   answers; the agent sleeps again) until `--rounds` or `--leak-minutes`; after each round, once all
 *   sleep, the tree's RSS and the runtime processes left. Goal: growth within ± 5 % from the first
 *   round to the last, and no process left.
 *
 * `--quick` (what `npm test` runs, so the bench does not rot): one Claude Code agent (the CLI that
 * starts fastest), no never-sleep baseline, one timed wake of each kind, 2 leak rounds, 1 s idle
 * sleep. With all three runtimes it took 5.7 min on the shared machine (load 15), far over a smoke run.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Agent } from '../shared/api/contract.js';
import { startFakeAnthropic } from '../test/fixtures/fake-anthropic.js';
import { startFakeOpenAi } from '../test/fixtures/fake-openai.js';
import { statFields } from '../main/daemon/runtime/process-tree.js';
import {
  heapAfterGc,
  isQuick,
  machine,
  numArg,
  percentile,
  r2,
  startServe,
  wsClient,
  type Figure,
  type Serve,
} from './bench-kit.js';

const MB = 1024 * 1024;
const PAGE = 4096;
type Runtime = 'claude-code' | 'codex' | 'opencode';
const RUNTIMES: readonly Runtime[] = ['claude-code', 'codex', 'opencode'];
const TERMINAL = new Set(['reply_sent', 'failed', 'completed_without_visible_reply']);

interface Tree {
  readonly rssBytes: number;
  readonly pssBytes: number;
  readonly processes: number;
  /** Processes other than the daemon itself (the CLIs, their children, probes). */
  readonly others: number;
}

const proc = { readFile: (p: string) => readFileSync(p, 'utf8') };

/** The daemon's whole tree now (see the header): RSS summed, PSS when asked (slower: smaps_rollup). */
function treeOf(rootPid: number, dataDir: string, pss = false): Tree {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  const named = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const f = statFields(entry, proc);
    if (f === null || f[0] === 'Z') continue;
    parent.set(pid, Number(f[1]));
    rss.set(pid, Number(f[21]) * PAGE);
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(dataDir)) named.add(pid);
      else if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(dataDir)) named.add(pid);
    } catch {
      // not ours to read, or gone
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === rootPid) return true;
      p = parent.get(p);
    }
    return false;
  };
  let rssBytes = 0;
  let pssBytes = 0;
  let processes = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid) && !named.has(pid)) continue;
    processes += 1;
    rssBytes += rss.get(pid) ?? 0;
    if (pss)
      try {
        pssBytes +=
          Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
      } catch {
        // gone meanwhile
      }
  }
  return { rssBytes, pssBytes, processes, others: Math.max(0, processes - 1) };
}

/** The smallest of three readings a second apart (a Node process's RSS swings with its GC; growth raises all three). */
async function restingTree(serve: Serve): Promise<Tree> {
  const pid = serve.child.pid as number;
  let best = treeOf(pid, serve.dataDir, true);
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 1000)); // a bench letting the daemon go quiet, not a test
    const t = treeOf(pid, serve.dataDir, true);
    if (t.rssBytes < best.rssBytes) best = t;
  }
  return best;
}

/** Samples the tree every second until `stop`; the peak RSS seen. */
function peakSampler(serve: Serve): { stop: () => Tree } {
  let peak: Tree = treeOf(serve.child.pid as number, serve.dataDir);
  const timer = setInterval(() => {
    const t = treeOf(serve.child.pid as number, serve.dataDir);
    if (t.rssBytes > peak.rssBytes) peak = t;
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

interface AgentSpec {
  readonly id: string;
  readonly runtime: Runtime;
}

function agentsOf(perRuntime: Readonly<Record<Runtime, number>>): AgentSpec[] {
  const ids: Record<Runtime, string> = { 'claude-code': 'claude', codex: 'codex', opencode: 'opencode' };
  return RUNTIMES.flatMap((runtime) =>
    Array.from({ length: perRuntime[runtime] }, (_, i) => ({ id: `${ids[runtime]}${i + 1}`, runtime })),
  );
}

interface End {
  readonly status: string;
  readonly at: number;
  readonly why: string;
}

/** One daemon's agents as the bench follows them: states and wake terminals from the pushed events. */
class Team {
  readonly states = new Map<string, string>();
  /** Agents whose first start failed, with what their readiness said. */
  readonly failedStarts = new Map<string, string[]>();
  readonly #waiters: Array<() => void> = [];
  readonly #ended = new Map<string, End>();
  readonly #onEnd = new Map<string, (e: End) => void>();
  /** Wakes that did not end `reply_sent` (a figure, with why), instead of ending the run. */
  readonly failedWakes: string[] = [];

  private constructor(
    readonly serve: Serve,
    readonly client: Awaited<ReturnType<typeof wsClient>>,
  ) {
    client.events.on('event', (f: { event: string; payload: Record<string, unknown> }) => {
      if (f.event === 'agent.updated') {
        this.states.set(f.payload.id as string, f.payload.state as string);
        for (const w of this.#waiters.splice(0)) w();
      }
      if (f.event === 'wake.status' && TERMINAL.has(f.payload.status as string)) {
        const end = {
          status: f.payload.status as string,
          at: performance.now(),
          why: `${String(f.payload.reason)}: ${String(f.payload.detail ?? '')}`.slice(0, 240),
        };
        const id = f.payload.messageId as string;
        this.#ended.set(id, end);
        this.#onEnd.get(id)?.(end);
      }
    });
  }

  static async open(serve: Serve): Promise<Team> {
    const team = new Team(serve, await wsClient(serve.origin, serve.token, serve.operatorKey));
    for (const a of (await team.client.call('agents.list', {})) as Array<{ id: string; state: string }>)
      if (!team.states.has(a.id)) team.states.set(a.id, a.state);
    return team;
  }

  /** Resolves once every agent of `ids` is in one of `states` (or throws after `ms`, naming the others). */
  async all(ids: readonly string[], states: readonly string[], ms: number): Promise<void> {
    const deadline = performance.now() + ms;
    const pending = () => ids.filter((id) => !states.includes(this.states.get(id) ?? ''));
    while (pending().length > 0) {
      await this.#retryCrashed(ids);
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(
          `bench: not ${states.join('/')} within ${ms} ms: ${pending()
            .map((id) => `${id}:${this.states.get(id) ?? '?'}`)
            .join(' ')}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 5000));
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /**
   * An agent that could not start (its readiness check failed, e.g. timed out while 20 CLIs start
   * at once): what it said is kept (a figure), and it is started again as the operator would, with
   * Retry (`agents.check`), each time.
   */
  async #retryCrashed(ids: readonly string[]): Promise<void> {
    for (const id of ids.filter((i) => this.states.get(i) === 'crashed')) {
      const agent = ((await this.client.call('agents.list', {})) as Agent[]).find((a) => a.id === id);
      const why = `${agent?.readiness?.reason ?? '?'}: ${agent?.readiness?.detail ?? '?'}`;
      this.failedStarts.set(id, [...(this.failedStarts.get(id) ?? []), why]);
      console.error(`agents-at-rest: ${id} could not start (${why}); Retry`);
      this.states.set(id, 'starting');
      await this.client.call('agents.check', { agentId: id });
    }
  }

  /** Sends `@id …` in the agent's conversation; resolves with send → terminal ms once its wake ended (reply_sent). */
  async wake(id: string, text: string, ms: number): Promise<number> {
    const t0 = performance.now();
    const sent = (await this.client.call('messages.send', { target: `#rest-${id}`, content: `@${id} ${text}` })) as {
      messageId: string;
    };
    const end =
      this.#ended.get(sent.messageId) ??
      (await new Promise<End>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`bench: ${id}'s wake not terminal within ${ms} ms`)), ms);
        this.#onEnd.set(sent.messageId, (e) => {
          clearTimeout(t);
          resolve(e);
        });
      }));
    this.#onEnd.delete(sent.messageId);
    this.#ended.delete(sent.messageId);
    if (end.status === 'reply_sent') return end.at - t0;
    this.failedWakes.push(`${id}: ${end.status} (${end.why})`);
    console.error(`agents-at-rest: ${id}'s wake ended ${end.status} (${end.why})`);
    return Number.NaN;
  }

  close(): void {
    this.client.close();
  }
}

async function startTeam(
  agents: readonly AgentSpec[],
  idleSleepSeconds: number,
  models: { anthropic: string; openai: string },
): Promise<Team> {
  const serve = await startServe(
    {
      agents: agents.map((a) => ({
        id: a.id,
        name: a.id,
        runtime: a.runtime,
        model: 'fake-model',
        env:
          a.runtime === 'claude-code'
            ? { ANTHROPIC_BASE_URL: models.anthropic, ANTHROPIC_API_KEY: 'fake-key', CLAUDE_CODE_MAX_RETRIES: '0' }
            : { OPENAI_BASE_URL: models.openai, OPENAI_API_KEY: 'fake-key' },
      })),
      channels: { local: {} },
      // The product's defaults but the idle time (minFreeMemoryMB 1024 stands: this machine has far more free).
      resources: { idleSleepSeconds },
    },
    { nodeArgs: ['--inspect=127.0.0.1:0'] },
  );
  try {
    const team = await Team.open(serve);
    for (const a of agents) await team.client.call('conversations.create', { target: `#rest-${a.id}` });
    return team;
  } catch (err) {
    await serve.stop();
    throw err;
  }
}

/** The machine's 1-minute load average through the run (a shared machine: figures are read against it). */
function loadSampler(): { stop: () => { start: number; end: number; min: number; max: number; mean: number } } {
  const seen: number[] = [loadavg()[0] ?? 0];
  const timer = setInterval(() => seen.push(loadavg()[0] ?? 0), 5000);
  timer.unref(); // a run that throws does not stay up for it
  return {
    stop: () => {
      clearInterval(timer);
      seen.push(loadavg()[0] ?? 0);
      return {
        start: r2(seen[0] ?? 0),
        end: r2(seen.at(-1) ?? 0),
        min: r2(Math.min(...seen)),
        max: r2(Math.max(...seen)),
        mean: r2(seen.reduce((a, b) => a + b, 0) / seen.length),
      };
    },
  };
}

/** The median of the wakes that ended reply_sent (a failed one is counted apart). */
const median = (xs: readonly number[]): number => percentile(xs.filter(Number.isFinite), 50);
const mb = (bytes: number): number => r2(bytes / MB);
const treeNote = (t: Tree): string =>
  `RSS ${mb(t.rssBytes)} MB${t.pssBytes > 0 ? `, PSS ${mb(t.pssBytes)} MB` : ''}, ${t.processes} processes (${t.others} besides the daemon)`;

export default async function agentsAtRest(args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  const counts: Record<Runtime, number> = quick
    ? { 'claude-code': 1, codex: 0, opencode: 0 }
    : { 'claude-code': 7, codex: 7, opencode: 6 };
  const agents = agentsOf(counts);
  const runtimes = RUNTIMES.filter((r) => counts[r] > 0);
  const ids = agents.map((a) => a.id);
  const sleepSeconds = numArg(args, 'sleep-seconds', quick ? 1 : 5);
  const timed = Math.min(numArg(args, 'per-runtime', quick ? 1 : 3), 6);
  const maxRounds = numArg(args, 'rounds', quick ? 2 : 200);
  const leakMs = numArg(args, 'leak-minutes', quick ? 5 : 15) * 60_000;
  // Generous: 20 CLIs start at once on a shared 2-core machine.
  const slow = quick ? 120_000 : 600_000;
  const anthropic = await startFakeAnthropic();
  const openai = await startFakeOpenAi();
  const models = { anthropic: anthropic.url, openai: openai.baseUrl };
  const t0 = performance.now();
  const load = loadSampler();
  try {
    // Raw baseline: the same agents, never asleep, once all are up and idle.
    const failedStarts: string[] = [];
    let awake: Tree | null = null;
    let awakeStartMs = Number.NaN;
    if (!quick) {
      const never = await startTeam(agents, 0, models);
      try {
        const s0 = performance.now();
        await never.all(ids, ['idle'], slow);
        awakeStartMs = performance.now() - s0;
        awake = await restingTree(never.serve);
        for (const [id, why] of never.failedStarts) failedStarts.push(`never-asleep daemon: ${id} (${why.join('; ')})`);
        console.error(`agents-at-rest: never asleep, all idle: ${treeNote(awake)}`);
      } finally {
        never.close();
        await never.serve.stop();
      }
    }

    const team = await startTeam(agents, sleepSeconds, models);
    const serve = team.serve;
    try {
      // Start: every CLI starts (readiness first), becomes idle, and falls asleep.
      const starting = peakSampler(serve);
      await team.all(ids, ['sleeping'], slow);
      const startPeak = starting.stop();
      const asleepAtStart = await restingTree(serve);
      console.error(`agents-at-rest: start peak ${treeNote(startPeak)}; all asleep ${treeNote(asleepAtStart)}`);

      // Cold starts: agents asleep that never had a conversation, one at a time.
      const chosen = runtimes.map((runtime) => ({
        runtime,
        ids: agents
          .filter((a) => a.runtime === runtime)
          .slice(0, timed)
          .map((a) => a.id),
      }));
      const cold: Record<string, number[]> = {};
      for (const { runtime, ids: some } of chosen)
        for (const id of some) {
          await team.all([id], ['sleeping'], slow);
          (cold[runtime] ??= []).push(await team.wake(id, `[[tool]] remember the word cobalt-${id}.`, slow));
        }

      // One round of wakes: every agent at once.
      await team.all(ids, ['sleeping'], slow);
      const during = peakSampler(serve);
      const roundStart = performance.now();
      await Promise.all(ids.map((id) => team.wake(id, '[[tool]] round one: say hello.', slow)));
      const roundMs = performance.now() - roundStart;
      const roundEnd = treeOf(serve.child.pid as number, serve.dataDir, true);
      const awakeAtRoundEnd = ids.filter((id) => team.states.get(id) !== 'sleeping').length;
      const roundPeak = during.stop();
      await team.all(ids, ['sleeping'], slow);
      const asleepAfterRound = await restingTree(serve);
      console.error(
        `agents-at-rest: round peak ${treeNote(roundPeak)}; at its end ${treeNote(roundEnd)}; asleep ${treeNote(asleepAfterRound)}`,
      );

      // A sleeping agent's first reply (its session resumed), then the same agent warm.
      const sleeping: Record<string, number[]> = {};
      const warm: Record<string, number[]> = {};
      for (const { runtime, ids: some } of chosen)
        for (const id of some) {
          await team.all([id], ['sleeping'], slow);
          (sleeping[runtime] ??= []).push(await team.wake(id, '[[tool]] which word did I ask you to remember?', slow));
          (warm[runtime] ??= []).push(await team.wake(id, '[[tool]] and once more, while you are awake.', slow));
        }

      // Leak check: rounds of one sleep → wake → sleep per agent.
      const checkpoints: Array<{ round: number; rssMB: number; pssMB: number; heapMB: number; others: number }> = [];
      const leakStart = performance.now();
      let rounds = 0;
      while (rounds < maxRounds && (rounds < 2 || performance.now() - leakStart < leakMs)) {
        await team.all(ids, ['sleeping'], slow);
        await Promise.all(ids.map((id) => team.wake(id, `[[tool]] leak round ${rounds}.`, slow)));
        rounds += 1;
        await team.all(ids, ['sleeping'], slow);
        // The GC first: a forced GC shrinks the daemon's RSS, so every checkpoint is read right after one.
        const heapMB = mb(await heapAfterGc(serve));
        const t = await restingTree(serve);
        checkpoints.push({ round: rounds, rssMB: mb(t.rssBytes), pssMB: mb(t.pssBytes), heapMB, others: t.others });
        console.error(`agents-at-rest: leak round ${rounds}: ${treeNote(t)}; daemon heap after GC ${heapMB} MB`);
      }
      const leakMinutes = (performance.now() - leakStart) / 60_000;

      const n = agents.length;
      const first = checkpoints[0] as (typeof checkpoints)[number];
      const last = checkpoints.at(-1) as (typeof checkpoints)[number];
      const growth = (last.rssMB - first.rssMB) / first.rssMB;
      const left = Math.max(asleepAtStart.others, asleepAfterRound.others, ...checkpoints.map((c) => c.others));
      for (const [id, why] of team.failedStarts) failedStarts.push(`${id} (${why.join('; ')})`);
      const mix = runtimes.map((r) => `${counts[r]} ${r}`).join(', ');

      const figures: Figure[] = [
        {
          name: `${n} agents asleep (${mix}): daemon + children resident memory`,
          value: mb(asleepAfterRound.rssBytes),
          unit: 'MB',
          ...(awake === null
            ? {}
            : { baseline: mb(awake.rssBytes), ratio: r2(awake.rssBytes / asleepAfterRound.rssBytes) }),
          goal: '≤ 400 MB',
          met: asleepAfterRound.rssBytes <= 400 * MB,
          note: `after a round of wakes, all asleep again: ${treeNote(asleepAfterRound)}; after start, all asleep: ${treeNote(asleepAtStart)}; baseline: the same agents never asleep, all idle${awake === null ? ' (skipped in quick mode)' : `: ${treeNote(awake)} (up in ${r2(awakeStartMs / 1000)} s)`}`,
        },
        {
          name: `${n} agents after start: peak while the CLIs start and fall asleep`,
          value: mb(startPeak.rssBytes),
          unit: 'MB',
          note: `${treeNote(startPeak)} (sampled each second; an agent falls asleep ${sleepSeconds} s after it is idle, so not all ${n} run at once)`,
        },
        {
          name: `${n} agents, one round of wakes (one message each, all at once): peak during the round`,
          value: mb(roundPeak.rssBytes),
          unit: 'MB',
          note: `${treeNote(roundPeak)}; when every wake had ended (${r2(roundMs / 1000)} s, ${awakeAtRoundEnd} agents not yet asleep): ${treeNote(roundEnd)}`,
        },
        ...runtimes.map((runtime): Figure => {
          const w = median(warm[runtime] ?? []);
          return {
            name: `${runtime}: a warm agent's reply (process running) vs its cold start (send → reply_sent, median of ${(warm[runtime] ?? []).length})`,
            value: Math.round(w),
            unit: 'ms',
            baseline: Math.round(median(cold[runtime] ?? [])),
            ratio: r2(median(cold[runtime] ?? []) / w),
            note: `warm ${(warm[runtime] ?? []).map(Math.round).join(', ')} ms`,
          };
        }),
        ...runtimes.map((runtime): Figure => {
          const c = median(cold[runtime] ?? []);
          const s = median(sleeping[runtime] ?? []);
          const w = median(warm[runtime] ?? []);
          return {
            name: `${runtime}: a sleeping agent's first reply vs its cold start (send → reply_sent, median of ${(sleeping[runtime] ?? []).length})`,
            value: Math.round(s),
            unit: 'ms',
            baseline: Math.round(c),
            ratio: r2(c / s),
            goal: '≤ cold start + 1000 ms',
            met: s <= c + 1000,
            note: `sleeping ${(sleeping[runtime] ?? []).map(Math.round).join(', ')} ms; cold start (asleep, never had a conversation) ${(cold[runtime] ?? []).map(Math.round).join(', ')} ms; warm (process running) ${(warm[runtime] ?? []).map(Math.round).join(', ')} ms, median ${Math.round(w)} ms (the wake-up costs ${Math.round(s - w)} ms over warm)`,
          };
        }),
        {
          name: `resident memory, all asleep, after ${rounds} sleep → wake → sleep rounds (${rounds} wakes per agent, ${rounds * n} in all) vs after the first`,
          value: last.rssMB,
          unit: 'MB',
          baseline: first.rssMB,
          ratio: r2(first.rssMB / last.rssMB),
          goal: 'within ± 5 %',
          met: Math.abs(growth) <= 0.05,
          note: `growth ${r2(growth * 100)} % over ${r2(leakMinutes)} min; checkpoints (round: RSS, PSS, the daemon's heap after GC, processes besides it) ${checkpoints.map((c) => `${c.round}: ${c.rssMB}/${c.pssMB}/${c.heapMB} MB +${c.others}`).join(', ')}`,
        },
        {
          name: 'wakes that did not end reply_sent (all phases)',
          value: team.failedWakes.length,
          unit: 'wakes',
          goal: '0',
          met: team.failedWakes.length === 0,
          ...(team.failedWakes.length === 0 ? {} : { note: team.failedWakes.join('; ') }),
        },
        {
          name: 'agents whose first start failed (readiness), started again with Retry',
          value: failedStarts.length,
          unit: 'agents',
          goal: '0',
          met: failedStarts.length === 0,
          ...(failedStarts.length === 0 ? {} : { note: failedStarts.join('; ') }),
        },
        {
          name: 'processes left besides the daemon while every agent sleeps (any checkpoint)',
          value: left,
          unit: 'processes',
          goal: '0',
          met: left === 0,
        },
      ];
      const loadAverage = load.stop();
      figures.push({
        name: 'load average (1 min) during the run: mean',
        value: loadAverage.mean,
        unit: 'load',
        note: `start ${loadAverage.start}, end ${loadAverage.end}, min ${loadAverage.min}, max ${loadAverage.max} (sampled every 5 s) on ${String(machine().cores)} cores`,
      });
      return {
        value: mb(asleepAfterRound.rssBytes),
        ...(awake === null
          ? {}
          : { baseline: mb(awake.rssBytes), ratio: r2(awake.rssBytes / asleepAfterRound.rssBytes) }),
        unit: `MB resident, daemon + children, ${n} agents asleep (baseline: never asleep, all idle)`,
        goal: '≤ 400 MB asleep; a sleeping agent replies ≤ its cold start + 1 s; no growth beyond ± 5 %',
        agents: n,
        idleSleepSeconds: sleepSeconds,
        cold,
        sleeping,
        warm,
        leakRounds: rounds,
        roundSeconds: r2(roundMs / 1000),
        loadAverage,
        failedStarts,
        failedWakes: team.failedWakes,
        checkpoints,
        minutes: r2((performance.now() - t0) / 60_000),
        figures,
        machine: machine(),
      };
    } finally {
      team.close();
      await serve.stop();
    }
  } finally {
    await anthropic.close();
    await openai.close();
  }
}
