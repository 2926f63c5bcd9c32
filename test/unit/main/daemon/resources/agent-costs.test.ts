/**
 * issue 42 "What each agent costs": the process groups of each agent summed from /proc/<pid>/stat
 * (a fake /proc here), the CPU share between two samples on the injected clock, and samples taken
 * only when read and stale — or after a process tree started or ended.
 */
import { describe, expect, it } from 'vitest';
import { AgentCosts } from '../../../../../main/daemon/resources/agent-costs.js';
import { ProcessSampler, type ProcFs } from '../../../../../main/daemon/resources/process-sample.js';
import type { RuntimePidRecorder } from '../../../../../main/daemon/runtime/runtime-pids.js';

/** proc(5) stat: pid (comm) state ppid pgrp … utime(14) stime(15) … rss(24). */
function stat(pid: number, pgrp: number, ticks: number, pages: number, state = 'S'): string {
  const f = Array.from({ length: 50 }, () => '0');
  f[0] = state;
  f[1] = '1';
  f[2] = String(pgrp);
  f[11] = String(ticks);
  f[12] = '0';
  f[21] = String(pages);
  return `${pid} (odd) name) ${f.join(' ')}`;
}

class FakeProc implements ProcFs {
  platform: NodeJS.Platform = 'linux';
  procs = new Map<number, string>();
  reads = 0;
  readFile(path: string): string {
    const pid = Number(/^\/proc\/(\d+)\/stat$/.exec(path)?.[1]);
    const s = this.procs.get(pid);
    if (s === undefined) throw new Error('ENOENT');
    return s;
  }
  readDir(): string[] {
    this.reads += 1;
    return [...this.procs.keys()].map(String).concat(['self', 'meminfo']);
  }
  conf(name: 'PAGESIZE' | 'CLK_TCK'): number {
    return name === 'PAGESIZE' ? 4096 : 100;
  }
}

const recorded: number[] = [];
const registry: RuntimePidRecorder = { record: (pid) => recorded.push(pid), forget: () => undefined };

function costs(fs: FakeProc, clock: { t: number }) {
  return new AgentCosts({ pids: registry, sampler: new ProcessSampler(fs), now: () => clock.t, minIntervalMs: 2000 });
}

describe('AgentCosts', () => {
  it("sums the resident memory of the agent's whole process group, not zombies or other groups", () => {
    const fs = new FakeProc();
    fs.procs.set(100, stat(100, 100, 0, 1000)); // the CLI, group leader
    fs.procs.set(101, stat(101, 100, 0, 500)); // its MCP child
    fs.procs.set(102, stat(102, 100, 0, 999, 'Z')); // an exited child not reaped yet
    fs.procs.set(200, stat(200, 200, 0, 7000)); // someone else's
    const c = costs(fs, { t: 0 });
    c.record(100, { agentId: 'a', command: 'claude' });
    expect(c.of('a').rssBytes).toBe(1500 * 4096);
    // The record reached the daemon's pid registry too (issue 16: no orphans).
    expect(recorded).toContain(100);
    // An agent with no process of its own costs nothing of its own.
    expect(c.of('b')).toEqual({ rssBytes: 0, cpuPercent: 0 });
  });

  it('CPU % is the CPU time between two samples over the wall time between them (100 = one core)', () => {
    const fs = new FakeProc();
    const clock = { t: 0 };
    fs.procs.set(100, stat(100, 100, 1000, 10));
    const c = costs(fs, clock);
    c.record(100, { agentId: 'a', command: 'codex' });
    expect(c.of('a').cpuPercent).toBeNull(); // one sample: no share yet
    clock.t = 10_000;
    fs.procs.set(100, stat(100, 100, 1250, 10)); // 2.5 s of CPU in 10 s
    expect(c.of('a').cpuPercent).toBe(25);
  });

  it('reads /proc only when the last sample is stale, or after a process tree started or ended', () => {
    const fs = new FakeProc();
    const clock = { t: 0 };
    fs.procs.set(100, stat(100, 100, 0, 10));
    fs.procs.set(200, stat(200, 200, 0, 10));
    const c = costs(fs, clock);
    c.record(100, { agentId: 'a', command: 'opencode' });
    c.record(200, { agentId: 'b', command: 'codex' });
    c.of('a');
    c.of('a');
    clock.t = 1999;
    c.of('a');
    expect(fs.reads).toBe(1);
    // The process is gone (the agent slept): the next read is a new sample, never the old figure.
    fs.procs.delete(100);
    c.forget(100);
    expect(c.of('a').rssBytes).toBe(0);
    expect(fs.reads).toBe(2);
  });

  it('where /proc does not exist nothing is read and the figures are unknown (null)', () => {
    const fs = new FakeProc();
    fs.platform = 'darwin';
    const c = costs(fs, { t: 0 });
    c.record(100, { agentId: 'a', command: 'claude' });
    expect(c.of('a')).toEqual({ rssBytes: null, cpuPercent: null });
    expect(fs.reads).toBe(0);
  });
});
