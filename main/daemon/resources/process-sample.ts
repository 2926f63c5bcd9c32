/**
 * issue 42 "What each agent costs": the resident memory and CPU time of whole process trees,
 * read cheaply from /proc. Every runtime leads its own process group (runtime-process.ts spawns
 * it detached, process-tree.ts), so a group is the tree of one agent's CLI: one pass over
 * /proc/<pid>/stat per sample gives each process's group, CPU ticks (utime + stime) and resident
 * pages — no smaps walk, no child process. Other platforms read nothing (null: unknown).
 *
 * Every platform dependency is injected so the arithmetic is unit-tested on any machine.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { statFields } from '../runtime/process-tree.js';

export interface ProcFs {
  readonly platform: NodeJS.Platform;
  readFile(path: string): string;
  readDir(path: string): string[];
  /** The system's page size and clock ticks per second (`getconf`), asked once. */
  conf(name: 'PAGESIZE' | 'CLK_TCK'): number | null;
}

export const hostProcFs: ProcFs = {
  platform: process.platform,
  readFile: (path) => readFileSync(path, 'utf8'),
  readDir: (path) => readdirSync(path),
  conf: (name) => {
    try {
      const n = Number(execFileSync('getconf', [name], { encoding: 'utf8', timeout: 5000, stdio: 'pipe' }).trim());
      return Number.isSafeInteger(n) && n > 0 ? n : null;
    } catch {
      return null;
    }
  },
};

/** One process group's totals at one moment. */
export interface GroupSample {
  readonly rssBytes: number;
  /** CPU time of the group's live processes, in seconds (user + system). */
  readonly cpuSeconds: number;
  readonly processes: number;
}

/** Reads the groups of `pgids` in one pass over /proc; null where the platform cannot tell. */
export class ProcessSampler {
  readonly #fs: ProcFs;
  #units: { readonly pageSize: number; readonly ticks: number } | null = null;

  constructor(fs: ProcFs = hostProcFs) {
    this.#fs = fs;
  }

  /** Whether samples are real here (Linux with /proc). */
  get supported(): boolean {
    return this.#fs.platform === 'linux';
  }

  sample(pgids: ReadonlySet<number>): Map<number, GroupSample> | null {
    if (!this.supported) return null;
    const units = (this.#units ??= {
      pageSize: this.#fs.conf('PAGESIZE') ?? 4096,
      ticks: this.#fs.conf('CLK_TCK') ?? 100,
    });
    const out = new Map<number, { rssBytes: number; cpuSeconds: number; processes: number }>();
    if (pgids.size === 0) return out;
    let entries: string[];
    try {
      entries = this.#fs.readDir('/proc');
    } catch {
      return null;
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      const f = statFields(entry, this.#fs);
      if (f === null) continue; // exited between the listing and the read
      const pgid = Number(f[2]);
      // A zombie holds no memory and runs nothing.
      if (!pgids.has(pgid) || f[0] === 'Z') continue;
      // Fields 14 (utime), 15 (stime) and 24 (rss, pages) of proc(5): f[0] is field 3.
      const ticks = Number(f[11]) + Number(f[12]);
      const pages = Number(f[21]);
      const group = out.get(pgid) ?? { rssBytes: 0, cpuSeconds: 0, processes: 0 };
      group.rssBytes += Number.isFinite(pages) ? pages * units.pageSize : 0;
      group.cpuSeconds += Number.isFinite(ticks) ? ticks / units.ticks : 0;
      group.processes += 1;
      out.set(pgid, group);
    }
    return out;
  }
}
/** MemAvailable of /proc/meminfo in bytes (issue 42 "memory-aware admission"); null where unknown. */
export function memAvailableBytes(fs: ProcFs = hostProcFs): number | null {
  if (fs.platform !== 'linux') return null;
  try {
    const m = /^MemAvailable:\s+(\d+)\s+kB$/m.exec(fs.readFile('/proc/meminfo'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}
