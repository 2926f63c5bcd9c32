/**
 * issue 43 "Connection reuse": one master connection per host (`ssh -M -N`), held by the daemon
 * in a process group of its own (so a runtime's stop never ends another agent's connection) and
 * ended when the daemon stops. Every launch, file transfer and probe to that host rides on it: a
 * wake pays no SSH handshake. A master that died (the connection dropped) is made again at the
 * next use; one that cannot come up says why (ssh-failure.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { SshHost } from '../../../shared/agent-host.js';
import { classifySshFailure, type SshFailure } from './ssh-failure.js';
import { controlPathOf, masterArgs, type SshSetup } from './ssh-command.js';

export type MasterResult =
  { readonly ok: true } | { readonly ok: false; readonly kind: SshFailure; readonly stderr: string };

export class SshMaster {
  readonly #host: SshHost;
  readonly #setup: SshSetup;
  #proc: ChildProcess | null = null;
  #up: Promise<MasterResult> | null = null;

  constructor(host: SshHost, setup: SshSetup) {
    this.#host = host;
    this.#setup = setup;
  }

  /** The master's pid while it runs (tests: dropping the connection). */
  get pid(): number | null {
    const p = this.#proc;
    return p !== null && p.exitCode === null && p.signalCode === null ? (p.pid ?? null) : null;
  }

  /** Resolves once the master's socket answers, or with why the connection could not be made. */
  ensure(): Promise<MasterResult> {
    if (this.#up !== null && this.pid !== null) return this.#up;
    this.#up = this.#start();
    return this.#up;
  }

  #start(): Promise<MasterResult> {
    const socket = controlPathOf(this.#host, this.#setup);
    mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
    // A socket left by a master that died with an earlier daemon would make ssh skip multiplexing.
    rmSync(socket, { force: true });
    const proc = spawn(this.#setup.ssh ?? 'ssh', masterArgs(this.#host, this.#setup), {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    this.#proc = proc;
    let stderr = '';
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    return new Promise<MasterResult>((resolve) => {
      // The socket appears once the connection is authenticated: watched, never polled.
      const watcher = watch(dirname(socket), (_event, name) => {
        if (name === basename(socket) && existsSync(socket)) done({ ok: true });
      });
      const done = (result: MasterResult) => {
        watcher.close();
        resolve(result);
      };
      proc.once('error', (err) => done({ ok: false, kind: 'host_unreachable', stderr: err.message }));
      // 'close': exited, and its stderr has ended (every word ssh said is read).
      proc.once('close', () => done({ ok: false, kind: classifySshFailure(stderr), stderr }));
    });
  }

  /** Ends the master connection (and with it every session on it). */
  close(): void {
    const pid = this.pid;
    if (pid !== null) process.kill(pid, 'SIGTERM');
    this.#up = null;
  }
}
