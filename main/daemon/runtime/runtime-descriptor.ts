/**
 * issue 39 "Plug-ins" (STYLE.md habit 20: variation lives in descriptors): what one runtime
 * tells the daemon about itself. Each runtime folder exports its descriptor; registry.ts is the
 * list. A new runtime is its folder plus one registry line and its id in `RUNTIMES`
 * (shared/wake-status.ts); nothing else in the daemon asks which runtime it is.
 *
 * What a person reads about a runtime (its label, sign-in command, key) is the descriptor's
 * `words`, carried to the page and the CLI in the agent view; the sentences around them are
 * shared/agent-readiness.ts. How its model names our MCP tools is the descriptor's
 * `toolNaming` (the prompt room sits below this one: it is handed the naming, registry.ts
 * `toolNamingOf`, never asks which runtime it is).
 */
import type { RuntimeWords } from '../../../shared/agent-readiness.js';
import type { AcpPreset, AgentConfig } from '../../../shared/config.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import type { McpEndpoint } from '../mcp/mcp-server.js';
import type { McpToolNaming } from '../prompt/tool-names.js';
import type { InstalledAgentCli } from './agent-cli-shim.js';
import type { PersonProfile } from './auth/person-profile.js';
import type { ProbeDeps, ReadinessProbe } from './cli-probe.js';
import type { RuntimeAdapter, TurnBoundaryHost } from './runtime-adapter.js';
import type { RuntimeDriver } from './runtime-driver.js';
import type { AgentHosts } from './process-launcher.js';
import type { RuntimePidRecorder } from './runtime-pids.js';
import type { RuntimeSessionStore } from './runtime-session-store.js';

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
  /** issue 43: where an agent with `host` runs (main/daemon/hosts/); absent, no agent may name a host. */
  readonly hosts?: AgentHosts;
}

/** What a descriptor builds its runtime from: the agent, the daemon's deps, and the paths already checked. */
export interface RuntimeStart {
  readonly agent: AgentConfig;
  readonly deps: RuntimeDeps;
  /** The agent's workspace (absolute; checked and made before anything starts, issue 14). */
  readonly workspace: string;
  /** `<data-dir>/runtimes/<agent id>`: its HOME, config dirs and stored session. */
  readonly runtimeDir: string;
}

/**
 * How the runtime runs: a driver inside the shared skeleton (runtime-skeleton.ts: process, queue,
 * restarts, session store), or an adapter of its own (the demo, in its own thread, issue 30).
 */
export type RuntimeLaunch =
  | { readonly driver: (start: RuntimeStart) => RuntimeDriver }
  | { readonly adapter: (start: RuntimeStart) => RuntimeAdapter };

/** An agent a first run writes into agentteam.json (issue 8), exactly as it is written. */
export interface SeededAgent {
  readonly id: string;
  readonly name: string;
  readonly runtime: RuntimeKind;
  readonly command?: string;
  /** issue 28: an ACP agent's preset (it launches its CLI itself: no "command"). */
  readonly preset?: AcpPreset;
}

/** issue 8: a runtime a first run offers, seeded as `agent` when `command` is on PATH. */
export interface FirstRunOffer {
  /** The program looked for on PATH. */
  readonly command: string;
  readonly agent: SeededAgent;
}

export interface RuntimeDescriptor<K extends RuntimeKind = RuntimeKind> {
  readonly kind: K;
  readonly launch: RuntimeLaunch;
  /** issue 15: can the agent take work — CLI found, signed in or keyed — without a model call. */
  probe(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe>;
  /**
   * How the runtime presents our MCP tools to its model (research/runtimes.md §2): the name every
   * prompt gives the send tool (contract §8.2, §8.3). An ACP agent's preset names them its own way.
   */
  toolNaming(agent: Pick<AgentConfig, 'preset'>): McpToolNaming;
  /**
   * issue 43: how the runtime runs on another host through the SSH launcher (main/daemon/hosts/),
   * or null where it cannot (a server on a port, or no CLI). Its CLI must speak over stdio — the
   * SSH channel — and reach MCP over HTTP (the reverse forward). `program`: the CLI on that
   * host's PATH when the agent names no `command` (a path on this machine means nothing there).
   */
  readonly overSsh: { program(agent: Pick<AgentConfig, 'preset'>): string } | null;
  /** issue 39: what a person reads about it — its name, CLI, sign-in and key (an ACP agent: its preset's). */
  words(agent: Pick<AgentConfig, 'preset'>): RuntimeWords;
  /** issue 8 (issue 25: the demo's two agents): what a first run seeds always, and what it offers. */
  readonly firstRun: { readonly always: readonly SeededAgent[]; readonly offered: readonly FirstRunOffer[] };
}
