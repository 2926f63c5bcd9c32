/**
 * Builds the runtime adapter an agent's config asks for: Claude Code (stream-json), Codex
 * (app-server) and OpenCode (serve) real CLIs, or the in-process demo.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-types.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import { ClaudeCodeAdapter } from './claude-code/claude-code-adapter.js';
import { CodexRuntime } from './codex/codex-runtime.js';
import { codexProviderFromAgentEnv } from './codex/codex-config.js';
import { DemoRuntime } from './demo/demo-runtime.js';
import { OpencodeRuntime } from './opencode/opencode-runtime.js';
import { opencodeProviderFromAgentEnv } from './opencode/opencode-config.js';
import { TurnRuntimeAdapter } from './turn-runtime-adapter.js';
import type { RuntimeAdapter, TurnBoundaryHost } from './runtime-adapter.js';
import { fileSessionStore, type RuntimeSessionStore } from './runtime-session-store.js';

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
  /** Defaults to `<runtime dir>/session.json`. */
  readonly sessionStore?: RuntimeSessionStore;
  readonly log?: DaemonLog;
}

export type RuntimeAdapterResult =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: 'runtime_unsupported'; readonly message: string };

/** Per-agent runtime directory (HOME, config dirs, stored session). */
export function runtimeDirOf(dataDir: string, agentId: string): string {
  return join(dataDir, 'runtimes', agentId);
}

export function createRuntimeAdapter(agent: AgentConfig, deps: RuntimeDeps): RuntimeAdapterResult {
  const runtimeDir = runtimeDirOf(deps.dataDir, agent.id);
  switch (agent.runtime) {
    case 'claude-code':
      return {
        ok: true,
        adapter: new ClaudeCodeAdapter({
          agentId: agent.id,
          command: agent.command,
          args: agent.args,
          env: agent.env,
          model: agent.model,
          cwd: isAbsolute(agent.cwd) ? agent.cwd : resolve(deps.dataDir, agent.cwd),
          mcp: deps.mcp,
          runtimeDir,
          projectRoot: deps.projectRoot,
          threadContractFingerprint: deps.threadContractFingerprint,
          threadContract: deps.threadContractText ?? null,
          sessionStore: deps.sessionStore ?? fileSessionStore(join(runtimeDir, 'session.json')),
          host: deps.host,
          ...(deps.log !== undefined ? { log: deps.log } : {}),
        }),
      };
    case 'demo':
      return {
        ok: true,
        adapter: new DemoRuntime({
          agentId: agent.id,
          mcp: deps.mcp,
          host: deps.host,
          env: agent.env,
          ...(deps.log !== undefined ? { log: deps.log } : {}),
        }),
      };
    case 'codex':
    case 'opencode':
      return { ok: true, adapter: createTurnRuntimeAdapter(agent, agent.runtime, runtimeDir, deps) };
  }
}

/** `command` from config; null → this project's node_modules/.bin/<name>, else `<name>` on PATH. */
export function resolveRuntimeCommand(command: string | null, name: 'codex' | 'opencode', projectRoot: string): string {
  if (command !== null) return command;
  const local = join(projectRoot, 'node_modules', '.bin', name);
  return existsSync(local) ? local : name;
}

function createTurnRuntimeAdapter(
  agent: AgentConfig,
  kind: 'codex' | 'opencode',
  runtimeDir: string,
  deps: RuntimeDeps,
): RuntimeAdapter {
  const common = {
    agentId: agent.id,
    command: resolveRuntimeCommand(agent.command, kind, deps.projectRoot),
    args: agent.args,
    env: agent.env,
    cwd: isAbsolute(agent.cwd) ? agent.cwd : resolve(deps.dataDir, agent.cwd),
    home: join(runtimeDir, 'home'),
    mcp: { url: deps.mcp.url, token: deps.mcp.token },
    model: agent.model,
    ...(deps.log !== undefined ? { log: deps.log } : {}),
  };
  const runtime =
    kind === 'codex'
      ? new CodexRuntime({
          ...common,
          provider: codexProviderFromAgentEnv(agent.env),
          threadContract: {
            fingerprint: deps.threadContractFingerprint,
            developerInstructions: deps.threadContractText ?? null,
          },
        })
      : new OpencodeRuntime({
          ...common,
          provider: opencodeProviderFromAgentEnv(agent.env),
          threadContract: { fingerprint: deps.threadContractFingerprint },
        });
  return new TurnRuntimeAdapter({ runtime, host: deps.host, ...(deps.log !== undefined ? { log: deps.log } : {}) });
}
