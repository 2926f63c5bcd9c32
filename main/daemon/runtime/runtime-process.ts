/**
 * One runtime CLI process, started in its own process group so `stop()` ends the CLI and
 * every child it started (Codex's MCP helpers and sandbox, OpenCode's plugins): the daemon
 * must leave no orphan processes on shutdown. stderr is kept as a bounded tail for
 * diagnostics only (never a message, never a status detail beyond a bounded line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { asyncScheduler, firstValueFrom, map, race, timer, from, type SchedulerLike } from 'rxjs';
import { processTreeAlive, signalProcessTree } from './process-tree.js';

export const STDERR_TAIL_BYTES = 16_384;

export interface RuntimeProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Grace period between SIGTERM and SIGKILL on stop. */
  readonly killGraceMs?: number;
  /** On stop, how long the process may take to exit by itself after stdin closed, before SIGTERM. */
  readonly stdinGraceMs?: number;
  /** Runs the grace periods (TestScheduler in tests). */
  readonly scheduler?: SchedulerLike;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: string | null;
}

export class RuntimeProcess {
  readonly #child: ChildProcess;
  readonly #grace: number;
  readonly #stdinGrace: number;
  readonly #scheduler: SchedulerLike;
  #stderr = '';
  #exit: ProcessExit | null = null;
  #spawnError: Error | null = null;
  readonly exited: Promise<ProcessExit>;
  /** Resolves when stderr has ended (after exit, once children holding it are gone too). */
  readonly stderrEnded: Promise<void>;

  private constructor(child: ChildProcess, options: RuntimeProcessOptions) {
    this.#child = child;
    this.#grace = options.killGraceMs ?? 3000;
    this.#stdinGrace = options.stdinGraceMs ?? 0;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    // EPIPE after exit: a write reports it through its callback, the exit through `exited`.
    child.stdin?.on('error', () => undefined);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    this.stderrEnded = new Promise<void>((resolve) => {
      if (child.stderr === null) return resolve();
      child.stderr.once('close', () => resolve());
    });
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('error', (err) => {
        this.#spawnError = err;
        // 'exit' does not follow a spawn failure.
        if (child.pid === undefined) {
          this.#exit = { code: null, signal: null };
          resolve(this.#exit);
        }
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
    });
  }

  /** Spawns the process (stdio piped). A spawn failure shows as `spawnError` and an immediate exit. */
  static spawn(options: RuntimeProcessOptions): RuntimeProcess {
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: stop() signals the whole group (no orphans).
      detached: true,
      windowsHide: true,
    });
    return new RuntimeProcess(child, options);
  }

  get pid(): number | null {
    return this.#child.pid ?? null;
  }
  get stdin(): Writable {
    return this.#child.stdin as Writable;
  }
  get stdout(): Readable {
    return this.#child.stdout as Readable;
  }
  get stderrTail(): string {
    return this.#stderr;
  }
  get exit(): ProcessExit | null {
    return this.#exit;
  }
  get spawnError(): Error | null {
    return this.#spawnError;
  }

  /** The process group on POSIX, the process tree on Windows (process-tree.ts). */
  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid !== undefined) void signalProcessTree(pid, signal);
  }

  /**
   * Closes stdin (and waits `stdinGraceMs` for a clean exit), then SIGTERM to the process group,
   * SIGKILL after the grace period, and a final SIGKILL to the group even when the leader exited
   * first (children may outlive it); resolves once the group is gone. Idempotent.
   */
  async stop(): Promise<ProcessExit> {
    this.#child.stdin?.end();
    if (this.#exit === null && this.#stdinGrace > 0) await this.#exitWithin(this.#stdinGrace);
    if (this.#exit === null) {
      this.#signalGroup('SIGTERM');
      if (!(await this.#exitWithin(this.#grace))) this.#signalGroup('SIGKILL');
    }
    this.#signalGroup('SIGKILL');
    await this.#groupGone();
    return this.exited;
  }

  /** Signals arrive asynchronously: resolves once no process of the group runs (or after the grace period). */
  async #groupGone(): Promise<void> {
    const deadline = this.#scheduler.now() + this.#grace;
    while (this.groupAlive() && this.#scheduler.now() < deadline) await firstValueFrom(timer(10, this.#scheduler));
  }

  /** Sends `signal` to the process group (a start that failed is abandoned with SIGKILL). */
  kill(signal: NodeJS.Signals): void {
    if (this.#exit === null) this.#signalGroup(signal);
  }

  /** Whether the process exited within `ms` (on the injected scheduler). */
  #exitWithin(ms: number): Promise<boolean> {
    return firstValueFrom(
      race(from(this.exited).pipe(map(() => true)), timer(ms, this.#scheduler).pipe(map(() => false))),
    );
  }

  /**
   * Whether any process of this process group is still running (tests: "no orphans"). On
   * Linux a zombie waiting to be reaped by init does not count: it runs nothing.
   */
  groupAlive(): boolean {
    const pid = this.#child.pid;
    return pid !== undefined && processTreeAlive(pid);
  }
}
