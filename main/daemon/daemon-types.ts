/**
 * The daemon's public face, shared by its two composition roots (`agentteam serve` and the
 * Electron main process). Both build it with the same factory, `createDaemon`.
 */
import type { UsageBudgetPort } from './usage/usage-pause-service.js';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Registry } from 'prom-client';
import type { ApiEvent, ApiHandlers } from '../../shared/api/contract.js';
import type { AgentConfig } from '../../shared/config.js';
import type { AgentCliLauncher } from './runtime/agent-cli-shim.js';
import type { PersonProfile } from './runtime/auth/person-profile.js';
import type { DaemonLog } from './daemon-log.js';
import type { SshOptions } from './hosts/ssh-hosts.js';
import type { RuntimeFactory } from './services/agent-runtime.js';
import type { WalSync } from './store/group-commit.js';
import type { SettingsPort } from './settings/daemon-settings.js';
import type { ChannelTuning } from './channels/channel-plugin.js';
import type { ProcFs } from './resources/process-sample.js';
import type { ReadinessProbe } from './runtime/cli-probe.js';

export interface DaemonOptions {
  /** Holds agentteam.json, the SQLite store, the writer lock and per-agent runtime homes. */
  readonly dataDir: string;
  /** Diagnostics sink; never receives message content or runtime text at info level. */
  readonly log?: DaemonLog;
  /**
   * issue 14: how to run this installation's `agentteam` CLI (serve: Node + the CLI entry; the app:
   * its own binary with `--agentteam-cli`). The daemon puts a shim for it on every runtime's PATH.
   */
  readonly agentCli?: AgentCliLauncher;
  /**
   * issue 29: folders besides the data dir no agent workspace may overlap (the desktop app's
   * user-data folder, which holds the data dir, its settings and logs).
   */
  readonly privateDirs?: readonly string[];
  /** issue 43: how agents with `host` are reached — an ssh config file of its own (tests); the person's `~/.ssh/config` by default. */
  readonly ssh?: SshOptions;
}

export interface CreateDaemonOptions extends DaemonOptions {
  /** Where the UI's settings are kept (electron-store in the app, settings.json in serve); in memory when absent. */
  readonly settings?: SettingsPort;
  /** Replaces `createRuntimeAdapter` (tests of the assembly only). */
  readonly createRuntime?: RuntimeFactory;
  /**
   * Replaces the CLI's readiness probe (tests of the assembly only): a CLI agent is built only once
   * its probe finds it ready (issue 40 item 6), so a test that injects its own runtime says it is.
   */
  readonly probe?: (agent: AgentConfig) => Promise<ReadinessProbe>;
  /** issue 15: whose CLI sign-in agents with `auth: "cli-login"` reuse (default: this process's user). */
  readonly person?: PersonProfile;
  /**
   * issue 39: each channel's timing knobs under its name (tests make them small, e.g.
   * `{ telegram: { pollTimeoutSeconds: 1 } }`: channels/telegram/telegram-health.ts); the defaults
   * suit the real services.
   */
  readonly channelTuning?: Readonly<Record<string, ChannelTuning>>;
  /** Where `botTokenEnv` is read; `process.env` when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * issue 39: the daemon's one clock — the turns' `turnTimeoutMinutes` deadlines (issue 29), the
   * usage pauses' resets and the usage rows' days (issue 27). Tests: virtual time; async by default.
   */
  readonly clock?: SchedulerLike;
  /** issue 27: the usage service's daily-budget port (wired at integration); never reached by default. */
  readonly usageBudget?: UsageBudgetPort;
  /** issue 30: how the store's group commit syncs its WAL (tests: a held or failing fdatasync); fdatasync by default. */
  readonly walSync?: WalSync;
  /** issue 42: where process costs and free memory are read (tests: their own /proc); the host's by default. */
  readonly procFs?: ProcFs;
}

export interface Daemon {
  /** One handler per call of the shared API contract; expected failures throw `ApiError`. */
  readonly api: ApiHandlers;
  /** Every event of the shared API contract, for IPC or the WebSocket bridge. */
  readonly events$: Observable<ApiEvent>;
  /** Prometheus registry (`GET /metrics` in serve, same registry in the app). */
  readonly metrics: Registry;
  /** The configured limits a transport names in its refusals (issue 16: the real limit, in bytes). */
  readonly limits?: { readonly maxMessageBytes: number };
  /** Drains in-flight writes, stops runtimes (no orphan processes), closes the store. Idempotent. */
  stop(): Promise<void>;
}
