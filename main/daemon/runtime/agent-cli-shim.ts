/**
 * `agentteam` on every runtime's PATH (issue 14 "The CLI agent-tools surface made real"): the
 * daemon writes a tiny shim `<data-dir>/bin/agentteam` that runs this very installation's CLI, and
 * the runtime skeleton puts that folder first on the runtime process's PATH. An agent's shell then
 * finds `agentteam agent send|react` (contract §8.2/§11 CLI agent-tools), authenticated by the
 * agent's own token from its environment (mcp/agent-tools-env.ts).
 *
 * How the CLI is launched is the composition root's knowledge, handed in as an `AgentCliLauncher`:
 * - `agentteam serve` (Node): this Node and the CLI entry it runs (serve/cli.ts);
 * - the packaged Electron app: the app binary itself with `--agentteam-cli` (main/app/app-cli.ts),
 *   because `ELECTRON_RUN_AS_NODE` is switched off by the fuses (electron-builder.yml `runAsNode: false`).
 *
 * The shim is rewritten at each daemon start when its text differs (a moved or updated install
 * leaves no stale path behind), atomically (temp file + rename) and owner-executable (the data
 * dir is the owner's alone: data-dir-perms.ts).
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

/** How to run this installation's `agentteam` CLI: `command args… <the agent's arguments>`. */
export interface AgentCliLauncher {
  readonly command: string;
  readonly args: readonly string[];
}

/** The folder under the data dir that goes first on every runtime's PATH. */
const AGENT_CLI_DIR = 'bin';
const SHIM_MODE = 0o700;

/** The shim's file name on this platform (`agentteam.cmd` on Windows: cmd and PowerShell find it by PATHEXT). */
function agentCliShimName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'agentteam.cmd' : 'agentteam';
}

/** POSIX sh single quoting: every byte literal, a `'` closed, escaped and reopened. */
function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * cmd.exe double quoting. Inside quotes only `%` still expands (doubled to stay literal in a batch
 * file); a `"` cannot be written safely at all — and no Windows path can contain one.
 */
function cmdQuote(s: string): string {
  if (s.includes('"') || /[\r\n]/.test(s)) throw new Error(`cannot put ${JSON.stringify(s)} in a .cmd shim`);
  return `"${s.replaceAll('%', '%%')}"`;
}

/** The shim's text for `platform`. Throws only for a launcher no shim can express (a bug in the caller). */
export function renderAgentCliShim(launcher: AgentCliLauncher, platform: NodeJS.Platform = process.platform): string {
  const words = [launcher.command, ...launcher.args];
  if (platform === 'win32')
    return [
      '@echo off',
      'rem Written by AgentTeam at each start: the agentteam CLI for agents (agentteam agent send|react).',
      `${words.map(cmdQuote).join(' ')} %*`,
      '',
    ].join('\r\n');
  return [
    '#!/bin/sh',
    '# Written by AgentTeam at each start: the agentteam CLI for agents (agentteam agent send|react).',
    `exec ${words.map(shQuote).join(' ')} "$@"`,
    '',
  ].join('\n');
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The shim as written: what the runtimes run, and what it must still be for the agent's own command to go unasked. */
export interface InstalledAgentCli {
  readonly dir: string;
  readonly file: string;
  readonly text: string;
  readonly launcher: AgentCliLauncher;
}

/**
 * Writes (or refreshes) the shim and returns the folder to put on PATH. A shim whose text is
 * already right is left alone (only its mode is mended); anything else is replaced atomically.
 */
export function installAgentCliShim(
  dataDir: string,
  launcher: AgentCliLauncher,
  platform: NodeJS.Platform = process.platform,
): string {
  return installAgentCli(dataDir, launcher, platform).dir;
}

function installAgentCli(
  dataDir: string,
  launcher: AgentCliLauncher,
  platform: NodeJS.Platform = process.platform,
): InstalledAgentCli {
  const dir = join(dataDir, AGENT_CLI_DIR);
  const file = join(dir, agentCliShimName(platform));
  const text = renderAgentCliShim(launcher, platform);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (readOr(file) !== text) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: SHIM_MODE });
    renameSync(tmp, file);
  }
  if (platform !== 'win32' && (statSync(file).mode & 0o777) !== SHIM_MODE) chmodSync(file, SHIM_MODE);
  return { dir, file, text, launcher };
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

function inside(folder: string, path: string): boolean {
  const rel = relative(real(folder), real(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Whether the agent's own `agentteam agent …` may run unasked (runtime/agent-cli-command.ts): only
 * when what it runs is what the daemon wrote — the shim unchanged (a real file in a real folder,
 * same text) and no file it executes inside the agent's workspace. An agent allowed to edit its
 * workspace unasked (`auto-edit`) could otherwise rewrite what an unasked command runs, e.g.
 * when the workspace is this project's own checkout. Then the command asks like any other.
 */
export function agentCliTrusted(cli: InstalledAgentCli, workspace: string): boolean {
  try {
    if (!lstatSync(cli.dir).isDirectory() || !lstatSync(cli.file).isFile()) return false;
    if (readFileSync(cli.file, 'utf8') !== cli.text) return false;
  } catch {
    return false;
  }
  // The shim itself may lie in the workspace (the default workspace is the data dir): its text was just checked.
  const executed = [cli.launcher.command, ...cli.launcher.args].filter((p) => isAbsolute(p));
  return !executed.some((p) => inside(workspace, p));
}

/**
 * `env` with `dir` first on its PATH (the key spelled as `env` spells it: `Path` on Windows).
 * An empty or missing PATH becomes just `dir`.
 */
export function withDirOnPath(
  env: Readonly<Record<string, string>>,
  dir: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const key = (platform === 'win32' ? Object.keys(env).find((k) => k.toUpperCase() === 'PATH') : undefined) ?? 'PATH';
  const current = env[key] ?? '';
  const sep = platform === 'win32' ? ';' : ':';
  const rest = current === '' ? [] : current.split(sep).filter((p) => p !== dir);
  return { ...env, [key]: [dir, ...rest].join(sep) };
}

/**
 * At daemon start: the shim folder for every runtime's PATH, or undefined where no launcher was
 * given (an embedding without a CLI: tests of the assembly) or the shim could not be written —
 * then agents keep their MCP tools, and an agent set to `agentTools: "cli"` is named in the log.
 */
export function prepareAgentCli(
  dataDir: string,
  launcher: AgentCliLauncher | undefined,
  agents: readonly { readonly id: string; readonly agentTools: string }[],
  log: { warn(message: string, fields?: Record<string, unknown>): void },
): InstalledAgentCli | undefined {
  const cliAgents = agents.filter((a) => a.agentTools === 'cli').map((a) => a.id);
  let problem: string;
  if (launcher === undefined) problem = 'this daemon was started without the agentteam CLI';
  else
    try {
      return installAgentCli(dataDir, launcher);
    } catch (err) {
      problem = `the agentteam shim could not be written in ${join(dataDir, AGENT_CLI_DIR)} (${err instanceof Error ? err.message : String(err)})`;
    }
  if (cliAgents.length > 0)
    log.warn(`agentteam is not on the agents' PATH: ${problem}; "agentTools": "cli" agents cannot reply`, {
      agents: cliAgents,
    });
  return undefined;
}
