/**
 * issue 43: the hosts room's one entry, composed by the daemon root in one call. It places an
 * agent with `host` (shared/agent-host.ts) on that host — a launcher over the host's one master
 * connection, the agent's MCP endpoint as the agent reaches it there (a loopback port on the host
 * forwarded back to the daemon's MCP server, the bearer token unchanged) — and ends every master
 * connection when the daemon stops.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSshHost, sshHostLabel } from '../../../shared/agent-host.js';
import { DEFAULT_AGENT_CWD, type AgentConfig } from '../../../shared/config.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import type { AgentHosts, AgentPlacement } from '../runtime/process-launcher.js';
import type { SshSetup } from './ssh-command.js';
import { SshLauncher } from './ssh-launcher.js';
import { SshMaster } from './ssh-master.js';

/** Tests: an ssh config file of their own (`-F`), another `ssh`. Default: the person's `~/.ssh/config`. */
export type SshOptions = Omit<SshSetup, 'controlDir'>;

/** The first port of the range a host agent's MCP forward listens on (on the host's loopback). */
const FORWARD_PORTS = { from: 20_000, count: 40_000 } as const;

export class SshHosts implements AgentHosts {
  readonly #setup: SshSetup;
  readonly #masters = new Map<string, SshMaster>();

  constructor(dataDir: string, ssh: SshOptions = {}) {
    // Short (a socket path has ~100 bytes) and this daemon's own: a hash of its data dir, under the temp dir.
    const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    this.#setup = { ...ssh, controlDir: join(tmpdir(), `agentteam-ssh-${uid}`, tag) };
  }

  placementOf(agent: Pick<AgentConfig, 'id' | 'host' | 'cwd' | 'env'>, runtimeDir: string, mcp: McpEndpoint) {
    if (agent.host === undefined) return null;
    const parsed = parseSshHost(agent.host);
    // The config was validated at load: an address that does not parse here is a bug, said plainly.
    if (!parsed.ok) throw new Error(`internal: agent "${agent.id}" host: ${parsed.message}`);
    const host = parsed.host;
    const key = sshHostLabel(host);
    let master = this.#masters.get(key);
    if (master === undefined) {
      master = new SshMaster(host, this.#setup);
      this.#masters.set(key, master);
    }
    const url = new URL(mcp.url);
    // A port per placement: a replaced runtime listens anew; one taken on the host fails its start (ExitOnForwardFailure).
    const remoteMcpPort = FORWARD_PORTS.from + Math.floor(Math.random() * FORWARD_PORTS.count);
    const localMcpPort = Number(url.port);
    url.port = String(remoteMcpPort);
    // No `cwd` (the default "."): the agent's own workspace in its runtime dir on the host.
    const cwd = agent.cwd === DEFAULT_AGENT_CWD ? null : agent.cwd;
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
