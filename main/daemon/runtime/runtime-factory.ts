/**
 * Builds the runtime adapter an agent's config asks for: the shared skeleton around the Claude
 * Code (stream-json), Codex (app-server) or OpenCode (serve) driver, or the demo (in its own thread, issue 30).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AcpPreset, AgentConfig } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import { agentToolsEnv } from '../mcp/agent-tools-env.js';
import { agentCliTrusted, type InstalledAgentCli } from './agent-cli-shim.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import { agentProviderFromEnv } from './agent-provider.js';
import { prepareCodexSignIn } from './auth/codex-auth.js';
import { prepareOpencodeSignIn } from './auth/opencode-auth.js';
import { currentPersonProfile, type PersonProfile } from './auth/person-profile.js';
import { ClaudeDriver } from './claude-code/claude-driver.js';
import { CodexDriver } from './codex/codex-driver.js';
import { DemoThreadRuntime } from './demo/demo-thread.js';
import { OPENCODE_PERSON_LOGIN_PROVIDER } from './opencode/opencode-config.js';
import { OpencodeDriver } from './opencode/opencode-driver.js';
import type { RuntimeAdapter, TurnBoundaryHost } from './runtime-adapter.js';
import type { RuntimeDriver } from './runtime-driver.js';
import type { RuntimePidRecorder } from './runtime-pids.js';
import { fileSessionStore, type RuntimeSessionStore } from './runtime-session-store.js';
import { RuntimeSkeleton } from './runtime-skeleton.js';
import { AcpDriver } from './acp/acp-driver.js';
import { prepareAcpSignIn } from './auth/acp-auth.js';
import { prepareWorkspace, realDataDir, shellDeniedPaths, toolDeniedPaths, workspaceOf } from './workspace.js';

export interface RuntimeDeps {
  /** From `AgentteamMcpServer.issueToken(agent.id)`. */
  readonly mcp: McpEndpoint;
  readonly host: TurnBoundaryHost;
  /** `<data-dir>`: relative agent `cwd`s resolve against it; runtime homes live under `<data-dir>/runtimes/<agent id>`. */
  readonly dataDir: string;
  /** Where this project is installed (node_modules/.bin of the runtime CLIs). */
  readonly projectRoot: string;
  /** issue 29: folders besides the data dir no workspace may overlap (the app's user-data folder). */
  readonly privateDirs?: readonly string[];
  /** Thread-contract fingerprint of this agent's start (from the prompt compiler). */
  readonly threadContractFingerprint: string;
  /** The thread contract itself, where the runtime has a carrier for it (Claude's system prompt, Codex's developer instructions). */
  readonly threadContractText?: string;
  /** Where every runtime remembers its session for resume; defaults to `<runtime dir>/session.json`. */
  readonly sessionStore?: RuntimeSessionStore;
  readonly log?: DaemonLog;
  /** Where spawned runtime processes are recorded for the next daemon to reap (issue 16 "No orphans"). */
  readonly pids?: RuntimePidRecorder;
  /** issue 15: whose CLI sign-in `auth: "cli-login"` reuses; default this process's user. */
  readonly person?: PersonProfile;
  /** issue 14: the `agentteam` shim the daemon wrote (agent-cli-shim.ts), first on the runtime's PATH. */
  readonly agentCli?: InstalledAgentCli;
}

export type RuntimeAdapterResult =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: 'runtime_unsupported' | 'workspace_invalid'; readonly message: string };

/** Per-agent runtime directory (HOME, config dirs, stored session). */
export function runtimeDirOf(dataDir: string, agentId: string): string {
  return join(dataDir, 'runtimes', agentId);
}

/** Where an agent's runtime remembers its session for resume: `<runtime dir>/session.json`. */
export function sessionStoreOf(dataDir: string, agentId: string) {
  return fileSessionStore(join(runtimeDirOf(dataDir, agentId), 'session.json'));
}

export function createRuntimeAdapter(agent: AgentConfig, deps: RuntimeDeps): RuntimeAdapterResult {
  const log = deps.log !== undefined ? { log: deps.log } : {};
  // issue 14: the workspace is checked (the default one made) before anything starts: a clear
  // error, nothing spawned. The demo has one too (`/approve` writes there).
  const invalid = prepareWorkspace(agent.id, agent.cwd, deps.dataDir, deps.privateDirs);
  if (invalid !== null) return { ok: false, code: 'workspace_invalid', message: invalid };
  const workspace = workspaceOf(agent.cwd, deps.dataDir, agent.id);
  if (agent.runtime === 'demo')
    return {
      ok: true,
      adapter: new DemoThreadRuntime({
        agentId: agent.id,
        mcp: deps.mcp,
        host: deps.host,
        env: agent.env,
        workspace,
        ...log,
      }),
    };
  const runtimeDir = runtimeDirOf(deps.dataDir, agent.id);
  return {
    ok: true,
    adapter: new RuntimeSkeleton({
      agentId: agent.id,
      driver: driverFor(agent, agent.runtime, runtimeDir, deps),
      host: deps.host,
      threadContractFingerprint: deps.threadContractFingerprint,
      sessionStore: deps.sessionStore ?? sessionStoreOf(deps.dataDir, agent.id),
      ...log,
      ...(deps.pids === undefined ? {} : { pids: deps.pids }),
      agentEnv: agentToolsEnv(deps.mcp),
      ...(deps.agentCli === undefined ? {} : { agentCli: agentCliFor(deps.agentCli, workspace) }),
    }),
  };
}

/** The shim for one agent: trusted for its own command only while nothing it runs lies in the agent's workspace. */
function agentCliFor(cli: InstalledAgentCli, workspace: string): { readonly dir: string; trusted(): boolean } {
  return { dir: cli.dir, trusted: () => agentCliTrusted(cli, workspace) };
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
  kind: Exclude<AgentConfig['runtime'], 'demo'>,
  runtimeDir: string,
  deps: RuntimeDeps,
): RuntimeDriver {
  const cwd = workspaceOf(agent.cwd, deps.dataDir, agent.id);
  const { args, env, model } = agent;
  // issue 28: any ACP agent; a preset knows its CLI, env, home and modes (acp/acp-presets.ts).
  if (kind === 'acp')
    return new AcpDriver({
      agentId: agent.id,
      preset: agent.preset ?? null,
      command: agent.command,
      args,
      env,
      model,
      cwd,
      home: join(runtimeDir, 'home'),
      // One package unpack (Copilot: 235 MB) for every agent of the data dir.
      sharedCache: join(deps.dataDir, 'runtimes', '.acp-cache'),
      projectRoot: deps.projectRoot,
      mcp: deps.mcp,
      permissions: agent.permissions,
      // issue 15: the person's login file linked in (cli-login), never copied (auth/acp-auth.ts).
      ...(agent.preset === undefined
        ? {}
        : {
            signIn: (home: string) =>
              prepareAcpSignIn(home, agent.preset as AcpPreset, agent.auth, deps.person ?? currentPersonProfile()),
          }),
    });
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
      auth: agent.auth,
      ...(deps.person === undefined ? {} : { person: deps.person }),
      permissions: agent.permissions,
      // issue 29: its file tools are denied the daemon's state in the data dir (read at each launch).
      deniedPaths: () => toolDeniedPaths(deps.dataDir, agent.id),
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
  // issue 15: the person's login file is linked in (cli-login), never copied (auth/*.ts).
  const person = deps.person ?? currentPersonProfile();
  if (kind === 'codex') {
    const provider = agentProviderFromEnv(agent.env);
    return new CodexDriver({
      ...common,
      provider:
        provider !== null && provider.apiKeyEnv === null && agent.auth === 'cli-login'
          ? { ...provider, requiresOpenaiAuth: true }
          : provider,
      developerInstructions: deps.threadContractText ?? null,
      signIn: (codexHome) => prepareCodexSignIn(codexHome, agent.auth, person),
      // issue 41: its sandboxed commands are denied the daemon's state in the data dir (read at each launch).
      deniedPaths: () => shellDeniedPaths(deps.dataDir, agent.id),
    });
  }
  // issue 15: an endpoint with no key of the agent's own under cli-login is served by OpenCode's
  // built-in `openai` provider, the one the person's `opencode auth login` key is stored for.
  const ocProvider = agentProviderFromEnv(agent.env);
  return new OpencodeDriver({
    ...common,
    // issue 29: the data dir (real path) is an external directory its tools may never enter.
    deniedDirs: [realDataDir(deps.dataDir)],
    provider:
      ocProvider !== null && ocProvider.apiKeyEnv === null && agent.auth === 'cli-login'
        ? { ...ocProvider, id: OPENCODE_PERSON_LOGIN_PROVIDER }
        : ocProvider,
    signIn: (dataDir) => prepareOpencodeSignIn(dataDir, agent.auth, person),
  });
}
