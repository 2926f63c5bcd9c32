/**
 * Builds the runtime adapter an agent's config asks for: the shared skeleton around the Claude
 * Code (stream-json), Codex (app-server) or OpenCode (serve) driver, or the in-process demo.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-types.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import { ClaudeDriver } from './claude-code/claude-driver.js';
import { codexProviderFromAgentEnv } from './codex/codex-config.js';
import { CodexDriver } from './codex/codex-driver.js';
import { DemoRuntime } from './demo/demo-runtime.js';
import { opencodeProviderFromAgentEnv } from './opencode/opencode-config.js';
import { OpencodeDriver } from './opencode/opencode-driver.js';
import type { RuntimeAdapter, TurnBoundaryHost } from './runtime-adapter.js';
import type { RuntimeDriver } from './runtime-driver.js';
import { fileSessionStore, type RuntimeSessionStore } from './runtime-session-store.js';
import { RuntimeSkeleton } from './runtime-skeleton.js';
import { checkWorkspace, workspaceOf } from './workspace.js';

export interface RuntimeDeps {
  /** From `AgentteamMcpServer.issueToken(agent.id)`. */
  readonly mcp: McpEndpoint;
  readonly host: TurnBoundaryHost;
  /** `<data-dir>`: relative agent `cwd`s resolve against it; runtime homes live under `<data-dir>/runtimes/<agent id>`. */
  readonly dataDir: string;
  /** Where this project is installed (node_modules/.bin of the runtime CLIs). */
  readonly projectRoot: string;
  /** Thread-contract fingerprint of this agent's start (from the prompt compiler). */
  readonly threadContractFingerprint: string;
  /** The thread contract itself, where the runtime has a carrier for it (Claude's system prompt, Codex's developer instructions). */
  readonly threadContractText?: string;
  /** Where every runtime remembers its session for resume; defaults to `<runtime dir>/session.json`. */
  readonly sessionStore?: RuntimeSessionStore;
  readonly log?: DaemonLog;
}

export type RuntimeAdapterResult =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: 'runtime_unsupported' | 'workspace_invalid'; readonly message: string };

/** Per-agent runtime directory (HOME, config dirs, stored session). */
export function runtimeDirOf(dataDir: string, agentId: string): string {
  return join(dataDir, 'runtimes', agentId);
}

export function createRuntimeAdapter(agent: AgentConfig, deps: RuntimeDeps): RuntimeAdapterResult {
  const log = deps.log !== undefined ? { log: deps.log } : {};
  if (agent.runtime === 'demo')
    return {
      ok: true,
      adapter: new DemoRuntime({ agentId: agent.id, mcp: deps.mcp, host: deps.host, env: agent.env, ...log }),
    };
  const runtimeDir = runtimeDirOf(deps.dataDir, agent.id);
  // issue 14: the workspace is checked before anything starts (a clear error, nothing spawned).
  const invalid = checkWorkspace(agent.id, workspaceOf(agent.cwd, deps.dataDir));
  if (invalid !== null) return { ok: false, code: 'workspace_invalid', message: invalid };
  return {
    ok: true,
    adapter: new RuntimeSkeleton({
      agentId: agent.id,
      driver: driverFor(agent, agent.runtime, runtimeDir, deps),
      host: deps.host,
      threadContractFingerprint: deps.threadContractFingerprint,
      sessionStore: deps.sessionStore ?? fileSessionStore(join(runtimeDir, 'session.json')),
      ...log,
    }),
  };
}

/** `command` from config; null → this project's node_modules/.bin/<name>, else `<name>` on PATH. */
export function resolveRuntimeCommand(command: string | null, name: 'codex' | 'opencode', projectRoot: string): string {
  if (command !== null) return command;
  const local = join(projectRoot, 'node_modules', '.bin', name);
  return existsSync(local) ? local : name;
}

/** The one per-runtime part: where the wire differs (runtime-driver.ts). */
function driverFor(
  agent: AgentConfig,
  kind: 'claude-code' | 'codex' | 'opencode',
  runtimeDir: string,
  deps: RuntimeDeps,
): RuntimeDriver {
  const cwd = isAbsolute(agent.cwd) ? agent.cwd : resolve(deps.dataDir, agent.cwd);
  const { args, env, model } = agent;
  if (kind === 'claude-code')
    return new ClaudeDriver({
      agentId: agent.id,
      command: agent.command,
      args,
      env,
      model,
      cwd,
      mcp: deps.mcp,
      runtimeDir,
      projectRoot: deps.projectRoot,
      threadContract: deps.threadContractText ?? null,
      permissions: agent.permissions,
    });
  const common = {
    agentId: agent.id,
    command: resolveRuntimeCommand(agent.command, kind, deps.projectRoot),
    args,
    env,
    cwd,
    home: join(runtimeDir, 'home'),
    mcp: { url: deps.mcp.url, token: deps.mcp.token },
    model,
    permissions: agent.permissions,
  };
  return kind === 'codex'
    ? new CodexDriver({
        ...common,
        provider: codexProviderFromAgentEnv(agent.env),
        developerInstructions: deps.threadContractText ?? null,
      })
    : new OpencodeDriver({ ...common, provider: opencodeProviderFromAgentEnv(agent.env) });
}
