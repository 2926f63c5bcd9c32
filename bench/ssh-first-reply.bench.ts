/**
 * `npm run bench -- ssh-first-reply [--turns N] [--quick]`: issue 43 "the first-reply overhead
 * over a warm local agent measured in a bench". The same real Claude Code, with the same fake model
 * (test/fixtures/fake-anthropic.ts), runs twice: as an agent on this machine, and as an agent on
 * another host — a real `sshd` on 127.0.0.1 with a second local user (test/fixtures/sshd.ts), the
 * CLI started over the host's one master connection, MCP through the reverse forward.
 *
 * Per `[[tool]]` wake: operator send (`messages.send`) → the wake's `reply_sent` (the agent's reply
 * through `message_send`, the tool call crossing the forward). Both agents are warm (their process
 * running, the master connection up) and take their wakes in turn, so the machine's load falls on
 * both alike; the first wake of each is a warm-up. Value: the remote agent's median; baseline: the
 * local agent's median; ratio = baseline/value (higher is better; 1 = no overhead). The start of
 * each agent (daemon start → agent ready: probe, runtime dir shipped, CLI start) is a second figure.
 *
 * Needs Linux, root (it makes the remote user) and /usr/sbin/sshd (.ci/run installs
 * openssh-server): without them the quick mode (CI's smoke run) is skipped, saying why, and a full
 * run fails, saying why.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { DaemonHarness } from '../test/fixtures/daemon-harness.js';
import { sshdUnavailable, startSshd } from '../test/fixtures/sshd.js';
import { isQuick, machine, numArg, percentile, r2, ROOT, type Figure } from './bench-kit.js';

const CLAUDE_BIN = join(ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const READY_MS = 180_000;
const WAKE_MS = 60_000;

interface Agent {
  readonly label: 'local' | 'remote';
  readonly h: DaemonHarness;
  readonly startMs: number;
  readonly samples: number[];
}

async function start(label: Agent['label'], options: Parameters<typeof DaemonHarness.start>[1]): Promise<Agent> {
  const t0 = performance.now();
  const h = await DaemonHarness.start('claude-code', options);
  await h.ready(READY_MS);
  return { label, h, startMs: performance.now() - t0, samples: [] };
}

/** One `[[tool]]` wake: operator send → `reply_sent`, in ms. */
async function firstReply(a: Agent, i: number): Promise<number> {
  await a.h.idle(WAKE_MS);
  const t0 = performance.now();
  const { wakeToken } = await a.h.send(`#bench-${a.label}-${i}`, '[[tool]] What is the build status?');
  const wake = await a.h.terminal(wakeToken, WAKE_MS);
  const ms = performance.now() - t0;
  if (wake.status !== 'reply_sent') throw new Error(`${a.label} wake ${i} ended ${wake.status} (${wake.reason})`);
  return ms;
}

export default async function (args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  const turns = numArg(args, 'turns', quick ? 3 : 15);
  const unavailable = sshdUnavailable();
  if (unavailable !== null) {
    if (!quick) throw new Error(`ssh-first-reply cannot run here: ${unavailable}`);
    console.error(`ssh-first-reply skipped: ${unavailable}`);
    return { value: null, baseline: null, ratio: null, unit: 'ms', skipped: unavailable, figures: [] };
  }
  const sshd = await startSshd();
  const agents: Agent[] = [];
  try {
    agents.push(await start('local', {}));
    agents.push(
      await start('remote', {
        ssh: { configFile: sshd.configFile },
        agentConfig: { host: sshd.address, cwd: '.', command: sshd.reachable(CLAUDE_BIN) },
      }),
    );
    // Warm-up: the first turn of each (MCP connect, lazy loads on both sides).
    for (const a of agents) await firstReply(a, 0);
    for (let i = 1; i <= turns; i += 1) for (const a of agents) a.samples.push(await firstReply(a, i));
  } finally {
    for (const a of agents) await a.h.dispose();
    await sshd.close();
  }
  const [local, remote] = agents as [Agent, Agent];
  const p50 = (a: Agent) => r2(percentile(a.samples, 50));
  const p95 = (a: Agent) => r2(percentile(a.samples, 95));
  const overhead = r2(p50(remote) - p50(local));
  const figures: Figure[] = [
    {
      name: 'first reply of a warm agent over SSH (send → reply_sent, p50) vs the same agent local',
      value: p50(remote),
      unit: 'ms',
      baseline: p50(local),
      ratio: r2(p50(local) / p50(remote)),
      note: `overhead ${overhead} ms at p50; p95 ${p95(remote)} ms over SSH vs ${p95(local)} ms local; ${turns} wakes each, taken in turn after one warm-up each; Claude Code with the fake model on 127.0.0.1, sshd on 127.0.0.1 (no network latency: the figure is what SSH itself adds)`,
    },
    {
      name: 'agent start over SSH (daemon start → agent ready) vs local',
      value: r2(remote.startMs),
      unit: 'ms',
      baseline: r2(local.startMs),
      ratio: r2(local.startMs / remote.startMs),
      note: 'one start each, the local one first (cold caches on its side); remote: the master connection made by its probe, which asks only `claude --version` on the host (local: `claude auth status`), the runtime dir shipped, the CLI started over ssh',
    },
  ];
  return {
    value: p50(remote),
    baseline: p50(local),
    ratio: r2(p50(local) / p50(remote)),
    unit: 'ms',
    overheadMs: overhead,
    samples: { local: local.samples.map(r2), remote: remote.samples.map(r2) },
    figures,
    machine: machine(),
  };
}
