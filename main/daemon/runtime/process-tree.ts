/**
 * Signalling a runtime's whole process tree, and identifying a process across daemon lives, per
 * platform (issue 16 "No orphans"). On POSIX every runtime is the leader of its own process
 * group (runtime-process.ts spawns it detached), so the group is the tree. Windows has no
 * process groups or signals: `tree-kill` runs `taskkill /T /F` on the tree.
 *
 * Every platform dependency is injected so each branch is unit-tested on any machine.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import treeKill from 'tree-kill';

export interface ProcessPlatform {
  readonly platform: NodeJS.Platform;
  /** `process.kill`: a negative pid signals the process group. */
  kill(pid: number, signal: NodeJS.Signals | 0): void;
  /** `tree-kill` (Windows: `taskkill /pid N /T /F`). */
  treeKill(pid: number, signal: string, callback: (error?: Error) => void): void;
  readFile(path: string): string;
  readDir(path: string): string[];
  /** Runs a command, returns its stdout (throws when it fails). */
  exec(command: string, args: readonly string[]): string;
}

export const hostPlatform: ProcessPlatform = {
  platform: process.platform,
  kill: (pid, signal) => process.kill(pid, signal),
  treeKill: (pid, signal, callback) => treeKill(pid, signal, callback),
  readFile: (path) => readFileSync(path, 'utf8'),
  readDir: (path) => readdirSync(path),
  exec: (command, args) =>
    execFileSync(command, [...args], { encoding: 'utf8', timeout: 10_000, windowsHide: true, stdio: 'pipe' }),
};

/**
 * Sends `signal` to the tree of `pid` (a group leader on POSIX). Resolves once sent; a tree that
 * is already gone is not an error. On Windows every signal is a forced tree kill.
 */
export function signalProcessTree(
  pid: number,
  signal: NodeJS.Signals,
  p: ProcessPlatform = hostPlatform,
): Promise<void> {
  if (p.platform === 'win32') return new Promise((resolve) => p.treeKill(pid, 'SIGKILL', () => resolve()));
  try {
    p.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
  return Promise.resolve();
}

/**
 * Whether any process of the tree rooted at `pid` still runs. Linux: a non-zombie process of
 * group `pid` (from /proc; a zombie waiting for init runs nothing); other POSIX: the group
 * answers signal 0; Windows: the process itself answers signal 0.
 */
export function processTreeAlive(pid: number, p: ProcessPlatform = hostPlatform): boolean {
  if (p.platform === 'linux') {
    const running = runningInGroup(pid, p);
    if (running !== null) return running;
  }
  try {
    p.kill(p.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux: the fields of /proc/<pid>/stat after "(comm)": [state, ppid, pgrp, ...]; null when absent. */
export function statFields(pid: number | string, p: Pick<ProcessPlatform, 'readFile'>): string[] | null {
  let stat: string;
  try {
    stat = p.readFile(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp ...": comm may contain spaces and ')', so split after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function runningInGroup(pgid: number, p: ProcessPlatform): boolean | null {
  let entries: string[];
  try {
    entries = p.readDir('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry, p);
    if (fields !== null && Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

/**
 * An opaque start time of process `pid`, or null when no such process runs (or the platform
 * cannot tell). With the pid it identifies one process: a pid reused by another process has
 * another start time, so a recorded runtime is never confused with a stranger.
 * Linux: field 22 of /proc/<pid>/stat (clock ticks since boot); macOS and other POSIX:
 * `ps -o lstart=`; Windows: the process's StartTime as a FILETIME, from PowerShell.
 */
export function processStartTime(pid: number, p: ProcessPlatform = hostPlatform): string | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (p.platform === 'linux') {
    const fields = statFields(pid, p);
    // fields[0] is stat field 3 (state): starttime, field 22, is fields[19].
    const start = fields?.[19];
    return fields === null || fields[0] === 'Z' || start === undefined ? null : `linux:${start}`;
  }
  try {
    if (p.platform === 'win32') {
      const out = p
        .exec('powershell.exe', [
          '-NoProfile',
          '-NonInteractive',
          '-Command',
          `(Get-Process -Id ${pid} -ErrorAction Stop).StartTime.ToFileTimeUtc()`,
        ])
        .trim();
      return /^\d+$/.test(out) ? `win32:${out}` : null;
    }
    const out = p.exec('ps', ['-o', 'lstart=', '-p', String(pid)]).trim();
    return out === '' ? null : `ps:${out}`;
  } catch {
    return null; // no such process (ps and Get-Process fail), or no tool to ask
  }
}
