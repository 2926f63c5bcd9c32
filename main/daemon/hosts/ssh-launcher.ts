/**
 * issue 43: the process launcher (runtime/process-launcher.ts) of an agent with `host`. Each start:
 * the host's master connection (ssh-master.ts), the agent's runtime dir shipped to the host (the
 * files its driver just wrote: MCP config with its own bearer token, config dirs, session), then
 * `ssh` running the CLI under the wrapper (ssh-command.ts) with a reverse forward from a loopback
 * port on the host to the daemon's MCP server here. The skeleton treats that `ssh` as the CLI:
 * its stdio is the CLI's, its exit the CLI's — except ssh's own status 255, which is the
 * connection's (`host_unreachable`).
 */
import { spawn } from 'node:child_process';
import { isAbsolute, relative } from 'node:path';
import { sshHostLabel, type SshHost } from '../../../shared/agent-host.js';
import type { ProcessLauncher } from '../runtime/process-launcher.js';
import { RuntimeProcess, type ProcessExit, type RuntimeProcessOptions } from '../runtime/runtime-process.js';
import { clientArgs, NO_CWD_STATUS, receiveRuntimeDirCommand, remoteCommand, type SshSetup } from './ssh-command.js';
import { classifySshFailure, sshFailureSentence, SSH_OWN_FAILURE } from './ssh-failure.js';
import type { SshMaster } from './ssh-master.js';

export interface SshLaunchTarget {
  readonly agentId: string;
  readonly host: SshHost;
  /** The agent's `cwd` on the host; null: the remote runtime dir's workspace. */
  readonly cwd: string | null;
  /** This machine's runtime dir of the agent (shipped to the host before each start). */
  readonly localRuntimeDir: string;
  /** The agent's own `env` names: values on the host by definition, passed as they are. */
  readonly ownEnv: readonly string[];
  /** The loopback port on the host that forwards to `localMcpPort` here. */
  readonly remoteMcpPort: number;
  readonly localMcpPort: number;
}

/** A command whose status 127 means "not found" by the remote `env`. */
const NOT_FOUND = 127;

export class SshLauncher implements ProcessLauncher {
  readonly #t: SshLaunchTarget;
  readonly #setup: SshSetup;
  readonly #master: SshMaster;
  #command = '';

  constructor(target: SshLaunchTarget, setup: SshSetup, master: SshMaster) {
    this.#t = target;
    this.#setup = setup;
    this.#master = master;
  }

  async spawn(o: RuntimeProcessOptions): Promise<RuntimeProcess | { refused: string; reason: 'host_unreachable' }> {
    const t = this.#t;
    const up = await this.#master.ensure();
    if (!up.ok) return { refused: sshFailureSentence(up.kind, t.host, up.stderr), reason: 'host_unreachable' };
    const shipped = await this.#ship();
    if (shipped !== null) return { refused: shipped, reason: 'host_unreachable' };
    this.#command = o.command;
    const forward = [
      '-o',
      'ExitOnForwardFailure=yes',
      '-R',
      `127.0.0.1:${t.remoteMcpPort}:127.0.0.1:${t.localMcpPort}`,
    ];
    const command = remoteCommand({
      agentId: t.agentId,
      command: o.command,
      args: o.args,
      env: this.#remoteEnv(o.env),
      cwd: t.cwd,
      localRuntimeDir: t.localRuntimeDir,
    });
    return RuntimeProcess.spawn({
      ...o,
      command: this.#setup.ssh ?? 'ssh',
      args: clientArgs(t.host, this.#setup, forward, command),
      // The person's own ssh: their agent socket and config, never the CLI's isolated environment.
      env: sshEnv(),
      cwd: t.localRuntimeDir,
    });
  }

  exitFailure(
    exit: ProcessExit,
    stderrTail: string,
  ): { reason: 'host_unreachable' | 'cli_missing' | 'runtime_error'; detail: string } | null {
    const { host } = this.#t;
    if (exit.code === SSH_OWN_FAILURE)
      return {
        reason: 'host_unreachable',
        detail: sshFailureSentence(classifySshFailure(stderrTail), host, stderrTail),
      };
    if (exit.code === NOT_FOUND && /No such file or directory|not found/i.test(stderrTail))
      return {
        reason: 'cli_missing',
        detail: `"${this.#command}" was not found on ${sshHostLabel(host)}: install it there or set this agent's "command" to its path on that host.`,
      };
    if (exit.code === NO_CWD_STATUS)
      return {
        reason: 'runtime_error',
        detail: `The folder "${this.#t.cwd ?? 'workspace'}" does not exist on ${sshHostLabel(host)}: set this agent's "cwd" to a folder there.`,
      };
    return null;
  }

  /**
   * The CLI's environment as it must read on the host: PATH is the remote login's; a value that
   * is a path on this machine outside the runtime dir means nothing there and is left out (the
   * runtime dir's paths are mapped by the remote command); the agent's own `env` passes as it is.
   */
  #remoteEnv(env: Readonly<Record<string, string>>): Record<string, string> {
    const t = this.#t;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) {
      if (t.ownEnv.includes(k)) out[k] = v;
      else if (k === 'PATH') continue;
      else if (isAbsolute(v) && relative(t.localRuntimeDir, v).startsWith('..')) continue;
      else out[k] = v;
    }
    return out;
  }

  /** The runtime dir to the host as a tar stream over the master; null when it arrived, else why not. */
  #ship(): Promise<string | null> {
    const t = this.#t;
    return new Promise((resolve) => {
      const tar = spawn('tar', ['-C', t.localRuntimeDir, '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
      const ssh = spawn(
        this.#setup.ssh ?? 'ssh',
        clientArgs(t.host, this.#setup, [], receiveRuntimeDirCommand(t.agentId)),
        {
          stdio: ['pipe', 'ignore', 'pipe'],
          env: sshEnv(),
        },
      );
      let stderr = '';
      ssh.stderr.setEncoding('utf8');
      ssh.stderr.on('data', (c: string) => (stderr = (stderr + c).slice(-4096)));
      ssh.stdin.on('error', () => undefined);
      tar.stdout.pipe(ssh.stdin);
      tar.once('error', (err) => resolve(`Could not pack the agent's runtime folder (${err.message}).`));
      ssh.once('error', (err) => resolve(`Could not run ssh (${err.message}).`));
      ssh.once('close', (code) => {
        if (code === 0) return resolve(null);
        if (code === SSH_OWN_FAILURE) return resolve(sshFailureSentence(classifySshFailure(stderr), t.host, stderr));
        resolve(
          `Could not copy the agent's runtime folder to ${sshHostLabel(t.host)} (tar: ${stderr.trim().slice(-200)}).`,
        );
      });
    });
  }
}

/** ssh runs with the daemon's own environment (SSH_AUTH_SOCK, HOME, PATH): the person's setup. */
export function sshEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}
