/**
 * issue 43: the hosts room's one entry, composed by the daemon root in one call. It places an
 * agent with `host` (shared/agent-host.ts) on that host — a launcher over the host's one master
 * connection, the agent's MCP endpoint as the agent reaches it there (a loopback port on the host
 * forwarded back to the daemon's MCP server, the bearer token unchanged) — and ends every master
 * connection when the daemon stops.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSshHost, sshHostLabel, type SshHost } from '../../../shared/agent-host.js';
import { DEFAULT_AGENT_CWD, type AgentConfig } from '../../../shared/config.js';
import type { RemoteGit } from '../git/git-host.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import type { AgentHosts, AgentPlacement } from '../runtime/process-launcher.js';
import type { ReadinessProbe } from '../runtime/cli-probe.js';
import { hostCommandOf } from '../runtime/readiness.js';
import { clientArgs, remoteRuntimeDir, shellQuote, type SshSetup } from './ssh-command.js';
import { classifySshFailure, sshFailureSentence, SSH_OWN_FAILURE, type SshFailure } from './ssh-failure.js';
import { sshGitHost } from './ssh-git.js';
import { SshLauncher } from './ssh-launcher.js';
import { SshMaster } from './ssh-master.js';

/** Tests: an ssh config file of their own (`-F`), another `ssh`. Default: the person's `~/.ssh/config`. */
export type SshOptions = Omit<SshSetup, 'controlDir'>;

/** The first port of the range a host agent's MCP forward listens on (on the host's loopback). */
const FORWARD_PORTS = { from: 20_000, count: 40_000 } as const;

export class SshHosts implements AgentHosts {
  readonly #setup: SshSetup;
  readonly #masters = new Map<string, SshMaster>();
  /** Each host's remote home (`$HOME` there), learnt by its readiness probe: an agent's default folder there is absolute. */
  readonly #homes = new Map<string, string>();
  /** Each host's git (made at first use), over its master connection. */
  readonly #gits = new Map<string, RemoteGit>();

  constructor(dataDir: string, ssh: SshOptions = {}) {
    // Short (a socket path has ~100 bytes) and this daemon's own: a hash of its data dir, under the temp dir.
    const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    this.#setup = { ...ssh, controlDir: join(tmpdir(), `agentteam-ssh-${uid}`, tag) };
  }

  /** The host's one master connection (made at first use). */
  #hostOf(host: SshHost): { readonly host: SshHost; readonly master: SshMaster } {
    const key = sshHostLabel(host);
    let master = this.#masters.get(key);
    if (master === undefined) {
      master = new SshMaster(host, this.#setup);
      this.#masters.set(key, master);
    }
    return { host, master };
  }

  /**
   * Readiness on the host (issue 15's probe, issue 43's reasons): the connection first — host key
   * unknown, sign-in refused, no answer, each its own state — then the CLI there (`--version`: found
   * or `cli_missing`). Its sign-in on the host is not asked here: a key in the agent's `env` says so.
   */
  probe(agent: AgentConfig): Promise<ReadinessProbe> | null {
    if (agent.host === undefined) return null;
    const parsed = parseSshHost(agent.host);
    if (!parsed.ok) return Promise.resolve(probeResult('host_unreachable', null, parsed.message));
    return this.#probe(agent, this.#hostOf(parsed.host));
  }

  async #probe(agent: AgentConfig, { host, master }: { host: SshHost; master: SshMaster }): Promise<ReadinessProbe> {
    const up = await master.ensure();
    if (!up.ok) return probeResult(OUTCOME[up.kind], null, sshFailureSentence(up.kind, host, up.stderr));
    const command = hostCommandOf(agent);
    // The remote home first (one round trip): a Codex thread or an ACP session names its folder
    // in the protocol, so the default workspace there must be an absolute path, not `~`.
    const run = await runSsh(
      this.#setup.ssh ?? 'ssh',
      clientArgs(host, this.#setup, [], `printf '%s\\n' "$HOME"; ${shellQuote(command)} --version`),
    );
    const [home = '', ...rest] = run.stdout.split('\n');
    if (run.code !== SSH_OWN_FAILURE && home.startsWith('/')) this.#homes.set(sshHostLabel(host), home);
    if (run.code === SSH_OWN_FAILURE) {
      const kind = classifySshFailure(run.stderr);
      return probeResult(OUTCOME[kind], null, sshFailureSentence(kind, host, run.stderr));
    }
    if (run.code === 127)
      return probeResult('cli_missing', null, `"${command}" was not found on ${sshHostLabel(host)}`);
    const keyed = Object.keys(agent.env).some((k) => /API_KEY|TOKEN/.test(k));
    const version = rest.join('\n').trim().split('\n')[0]?.trim() || null;
    return probeResult(
      'ready',
      version,
      `on ${sshHostLabel(host)}${keyed ? '; API key in env' : '; sign-in on the host not checked'}`,
    );
  }

  placementOf(agent: Pick<AgentConfig, 'id' | 'host' | 'cwd' | 'env'>, runtimeDir: string, mcp: McpEndpoint) {
    if (agent.host === undefined) return null;
    const parsed = parseSshHost(agent.host);
    // The config was validated at load: an address that does not parse here is a bug, said plainly.
    if (!parsed.ok) throw new Error(`internal: agent "${agent.id}" host: ${parsed.message}`);
    const { host, master } = this.#hostOf(parsed.host);
    const url = new URL(mcp.url);
    // A port per placement: a replaced runtime listens anew; one taken on the host fails its start (ExitOnForwardFailure).
    const remoteMcpPort = FORWARD_PORTS.from + Math.floor(Math.random() * FORWARD_PORTS.count);
    const localMcpPort = Number(url.port);
    url.port = String(remoteMcpPort);
    // No `cwd` (the default "."): the agent's own workspace in its runtime dir on the host, as an
    // absolute path once the host's home is known (its probe runs before every build).
    const home = this.#homes.get(sshHostLabel(host));
    const cwd =
      agent.cwd !== DEFAULT_AGENT_CWD
        ? agent.cwd
        : home === undefined
          ? null
          : `${home.replace(/\/+$/, '')}/${remoteRuntimeDir(agent.id)}/workspace`;
    const ownEnv = Object.keys(agent.env);
    const placement: AgentPlacement = {
      cwd,
      mcp: { ...mcp, url: url.toString() },
      launcher: new SshLauncher(
        { agentId: agent.id, host, cwd, localRuntimeDir: runtimeDir, ownEnv, remoteMcpPort, localMcpPort },
        this.#setup,
        master,
      ),
    };
    return placement;
  }

  /**
   * issue 43 "worktrees on the remote repository": git on the agent's host, over the host's one
   * master connection, with the hardened runner (ssh-git.ts); null for an agent on this machine.
   */
  gitOf(agent: Pick<AgentConfig, 'id' | 'host'>): RemoteGit | null {
    if (agent.host === undefined) return null;
    const parsed = parseSshHost(agent.host);
    if (!parsed.ok) throw new Error(`internal: agent "${agent.id}" host: ${parsed.message}`);
    const key = sshHostLabel(parsed.host);
    let remote = this.#gits.get(key);
    if (remote === undefined) {
      const { host, master } = this.#hostOf(parsed.host);
      remote = sshGitHost(host, this.#setup, master, () => this.#homes.get(key));
      this.#gits.set(key, remote);
    }
    return remote;
  }

  /** Tests ("a dropped connection"): the pid of the master connection to `host`, while it runs. */
  masterPid(host: string): number | null {
    const parsed = parseSshHost(host);
    return parsed.ok ? (this.#masters.get(sshHostLabel(parsed.host))?.pid ?? null) : null;
  }

  /** Ends every master connection (the daemon stops after its runtimes). */
  close(): void {
    for (const m of this.#masters.values()) m.close();
    this.#masters.clear();
  }
}

const OUTCOME: Readonly<Record<SshFailure, ReadinessProbe['outcome']>> = {
  host_key_unknown: 'host_key_unknown',
  auth_failed: 'host_auth_failed',
  host_unreachable: 'host_unreachable',
};

function probeResult(outcome: ReadinessProbe['outcome'], cliVersion: string | null, detail: string): ReadinessProbe {
  return { outcome, cliVersion, detail, checkedAt: new Date().toISOString() };
}

/** One ssh command to its end (over the master), bounded like every readiness probe. */
function runSsh(
  ssh: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(ssh, [...args], { timeout: 20_000, maxBuffer: 256 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : SSH_OWN_FAILURE;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}
