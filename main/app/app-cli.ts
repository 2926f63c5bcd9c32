/**
 * The desktop app's binary as the agents' `agentteam` command (issue 14), the way `code` is a
 * CLI of VS Code — but without `ELECTRON_RUN_AS_NODE`, which the fuses switch off
 * (electron-builder.yml `runAsNode: false`, research/electron-style.md (c) 19): the app binary
 * itself recognises `--agentteam-cli` in its argv and then runs `agentteam agent send|react`
 * (the CLI agent-tools surface, contract §8.2/§11) and exits — before any window, the single-
 * instance lock (a running app would otherwise take the call as a second instance), the crash
 * reporter or the app scheme.
 *
 * Only the agent commands run this way: they are what the runtimes' shim needs, and the operator's
 * commands (`serve`, `approve`…) stay with the Node CLI. This file imports no Electron, so the
 * parsing, the launcher and the dispatch are unit-tested under Node; main/index.ts supplies
 * `app.exit`.
 */
import {
  AGENT_ONLY_SWITCH,
  END_OF_SWITCHES,
  agentOnlyCommand,
  type AgentCommandIo,
} from '../daemon/mcp/agent-tools-command.js';
import type { AgentCliLauncher } from '../daemon/runtime/agent-cli-shim.js';

/** The switch that turns the app binary into the agents' CLI for one invocation. */
export const APP_CLI_SWITCH = AGENT_ONLY_SWITCH;

/**
 * Chromium switches the shim puts before ours on Linux: the CLI path never opens a window, but
 * Chromium initialises its display platform before our code runs, and a runtime's environment
 * has no DISPLAY (runtime-env.ts) — Ozone's headless platform skips that ("Missing X server").
 */
const LINUX_HEADLESS = ['--ozone-platform=headless', '--disable-gpu'];

// What the shim puts between our switch and the agent's arguments (issue 29), END_OF_SWITCHES:
// Chromium stops reading switches at `--`, so an agent's `--renderer-cmd-prefix=…` or
// `--inspect-brk` is never acted on by the launcher.

/** The CLI arguments after `--agentteam-cli` (and its `--`, stripped), or null for a normal app start. */
export function appCliArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(APP_CLI_SWITCH);
  // argv[0] is the binary; the switch is never a value of an earlier option we define.
  if (at < 1) return null;
  return argv.slice(argv[at + 1] === END_OF_SWITCHES ? at + 2 : at + 1);
}

export interface AppBinary {
  /** `process.execPath`: the packaged app, or the Electron binary when unpackaged. */
  readonly execPath: string;
  readonly isPackaged: boolean;
  /** `app.getAppPath()`: what an unpackaged Electron must be given to load this app. */
  readonly appPath: string;
  readonly platform: NodeJS.Platform;
  /** A Linux AppImage runs from a mount that changes per start; `$APPIMAGE` is its stable path. */
  readonly appImage?: string | undefined;
}

/** How the daemon's shim runs this app as the agents' CLI. */
export function appAgentCli(bin: AppBinary): AgentCliLauncher {
  const command = bin.platform === 'linux' && bin.appImage ? bin.appImage : bin.execPath;
  const chromium = bin.platform === 'linux' ? LINUX_HEADLESS : [];
  return { command, args: [...chromium, ...(bin.isPackaged ? [] : [bin.appPath]), APP_CLI_SWITCH, END_OF_SWITCHES] };
}

/** Runs one agent command; the exit code. Anything but `agent …` is a usage error naming the Node CLI. */
export async function runAppCli(
  args: readonly string[],
  io: AgentCommandIo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  return agentOnlyCommand(args, { io, env }, 'the agentteam CLI of a source install ("node bin/agentteam.mjs")');
}
