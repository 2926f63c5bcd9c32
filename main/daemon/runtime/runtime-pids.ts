/**
 * The runtime processes this data dir's daemon started, recorded on disk so that the next
 * daemon can end them (issue 16 "No orphans"): a daemon killed with SIGKILL cannot stop its
 * runtimes, and `opencode serve` does not exit when its stdin closes (Claude Code's stream-json
 * and Codex's app-server do). The writer lock of the store guarantees the daemon that reaps is
 * the only one using the data dir, so every record it finds belongs to a dead daemon.
 *
 * One file per process in `<data-dir>/runtime-pids/` (`<pid>.json`, 0600): recording and
 * forgetting never rewrite a shared file. A record holds the pid with its start time
 * (process-tree.ts): a pid reused by another process has another start time and is never
 * signalled.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { DaemonLog } from '../daemon-log.js';
import {
  hostPlatform,
  processStartTime,
  processTreeAlive,
  signalProcessTree,
  type ProcessPlatform,
} from './process-tree.js';

export const RUNTIME_PIDS_DIR = 'runtime-pids';

const RecordSchema = z.object({
  pid: z.number().int().positive(),
  startTime: z.string().nullable(),
  agentId: z.string(),
  command: z.string(),
  daemonPid: z.number().int(),
  recordedAt: z.string(),
});
export type RuntimePidRecord = z.infer<typeof RecordSchema>;

/** What the runtime skeleton needs: record a spawned process, forget it once it is gone. */
export interface RuntimePidRecorder {
  record(pid: number, info: { readonly agentId: string; readonly command: string }): void;
  forget(pid: number): void;
}

export interface ReapedProcess {
  readonly pid: number;
  readonly agentId: string;
  readonly command: string;
  /** `killed`: it still ran and was ended; `gone`: nothing of it ran; `reused`: the pid is another process now. */
  readonly outcome: 'killed' | 'gone' | 'reused';
}

export interface RuntimePidRegistryOptions {
  readonly platform?: ProcessPlatform;
  readonly daemonPid?: number;
  readonly now?: () => Date;
  /** How long `reap` waits for a killed tree to be gone. */
  readonly reapWaitMs?: number;
}

export class RuntimePidRegistry implements RuntimePidRecorder {
  readonly dir: string;
  readonly #p: ProcessPlatform;
  readonly #daemonPid: number;
  readonly #now: () => Date;
  readonly #reapWaitMs: number;

  constructor(dataDir: string, options: RuntimePidRegistryOptions = {}) {
    this.dir = join(dataDir, RUNTIME_PIDS_DIR);
    this.#p = options.platform ?? hostPlatform;
    this.#daemonPid = options.daemonPid ?? process.pid;
    this.#now = options.now ?? (() => new Date());
    this.#reapWaitMs = options.reapWaitMs ?? 5000;
  }

  record(pid: number, info: { readonly agentId: string; readonly command: string }): void {
    const record: RuntimePidRecord = {
      pid,
      startTime: processStartTime(pid, this.#p),
      agentId: info.agentId,
      command: info.command,
      daemonPid: this.#daemonPid,
      recordedAt: this.#now().toISOString(),
    };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(this.#file(pid), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  forget(pid: number): void {
    rmSync(this.#file(pid), { force: true });
  }

  /** The records on disk (an unreadable file is dropped: it names nothing we could safely signal). */
  records(): RuntimePidRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: RuntimePidRecord[] = [];
    for (const name of names) {
      if (!/^\d+\.json$/.test(name)) continue;
      try {
        const parsed = RecordSchema.safeParse(JSON.parse(readFileSync(join(this.dir, name), 'utf8')));
        if (parsed.success) out.push(parsed.data);
        else rmSync(join(this.dir, name), { force: true });
      } catch {
        rmSync(join(this.dir, name), { force: true });
      }
    }
    return out;
  }

  /**
   * Ends every recorded runtime process tree of a previous daemon that still runs (SIGKILL: its
   * daemon is gone, nobody waits for a graceful exit), waits until each is gone, and clears the
   * records. A pid that now names another process (another start time) is left alone.
   */
  async reap(log?: DaemonLog): Promise<ReapedProcess[]> {
    const reaped: ReapedProcess[] = [];
    for (const r of this.records()) {
      if (r.daemonPid === this.#daemonPid) continue; // ours: recorded by this daemon's own runtimes
      const now = processStartTime(r.pid, this.#p);
      let outcome: ReapedProcess['outcome'];
      if (now !== null && (r.startTime === null || now !== r.startTime)) outcome = 'reused';
      else if (now === null && !processTreeAlive(r.pid, this.#p)) outcome = 'gone';
      else {
        // The leader runs (same start time), or only its group's children outlived it (no process
        // holds the pid, so the group can only be that runtime's): end the tree.
        await signalProcessTree(r.pid, 'SIGKILL', this.#p);
        await this.#gone(r.pid);
        outcome = 'killed';
      }
      if (outcome === 'killed')
        log?.warn('ended a runtime process left by a previous daemon', {
          pid: r.pid,
          agentId: r.agentId,
          command: r.command,
          daemonPid: r.daemonPid,
        });
      reaped.push({ pid: r.pid, agentId: r.agentId, command: r.command, outcome });
      this.forget(r.pid);
    }
    return reaped;
  }

  async #gone(pid: number): Promise<void> {
    const deadline = Date.now() + this.#reapWaitMs;
    while (processTreeAlive(pid, this.#p) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  #file(pid: number): string {
    return join(this.dir, `${pid}.json`);
  }
}
