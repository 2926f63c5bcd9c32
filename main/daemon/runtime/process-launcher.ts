/**
 * issue 43: the one way a runtime's CLI process is started. The skeleton (runtime-skeleton.ts)
 * hands every driver's launch spec to a launcher: on this machine that is `RuntimeProcess.spawn`;
 * for an agent with `host` it is the system `ssh` (main/daemon/hosts/), whose process the skeleton
 * then treats exactly as a local CLI (stdio, exit, stop) — the contract, final-check, watchdog,
 * approvals and Stop hold unchanged because nothing above this seam knows where the CLI runs.
 */
import type { AgentConfig } from '../../../shared/config.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import type { ReadinessProbe } from './cli-probe.js';
import { RuntimeProcess, type ProcessExit, type RuntimeProcessOptions } from './runtime-process.js';

/** A start that failed before any process ran (e.g. its host did not answer), with its reason. */
export interface LaunchRefused {
  readonly refused: string;
  readonly reason: FailureReason;
}

export interface ProcessLauncher {
  /** Starts one runtime process from the driver's launch spec (paths in it are on the launcher's machine). */
  spawn(options: RuntimeProcessOptions): Promise<RuntimeProcess | LaunchRefused>;
  /**
   * Why a process ended, when the launcher knows better than the CLI (ssh's own exit status 255
   * is the connection's, never the CLI's); null: the CLI's exit as it is.
   */
  exitFailure(
    exit: ProcessExit,
    stderrTail: string,
  ): { readonly reason: FailureReason; readonly detail: string } | null;
}

/** This machine: the driver's spec as it is. */
export const LOCAL_LAUNCHER: ProcessLauncher = {
  spawn: (options) => Promise.resolve(RuntimeProcess.spawn(options)),
  exitFailure: () => null,
};

/**
 * Where an agent's runtime runs (RuntimeDeps.hosts): the launcher, the runtime dir and workspace
 * as paths on that machine, and the MCP endpoint its CLI dials there. Null for an agent on this
 * machine (no `host`).
 */
export interface AgentPlacement {
  readonly launcher: ProcessLauncher;
  /** The agent's `cwd` on its host (absolute), or null: the remote user's home. */
  readonly cwd: string | null;
  /** The daemon's MCP endpoint as the agent reaches it from its host (through a reverse forward). */
  readonly mcp: McpEndpoint;
}

export interface AgentHosts {
  /** issue 43: the readiness of an agent with `host`, asked on that host; null for one on this machine. */
  probe(agent: AgentConfig): Promise<ReadinessProbe> | null;
  /** The placement of an agent with `host`; null for one on this machine. */
  placementOf(
    agent: Pick<AgentConfig, 'id' | 'host' | 'cwd' | 'env'>,
    runtimeDir: string,
    mcp: McpEndpoint,
  ): AgentPlacement | null;
}
