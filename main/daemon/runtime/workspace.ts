/**
 * issue 14: the agent's `cwd` is its workspace (a project folder). Checked before the runtime
 * starts, so a typo gives one clear error naming the agent and the path instead of a CLI that
 * dies with ENOENT (or, worse, runs somewhere else).
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DEFAULT_AGENT_CWD } from '../../../shared/config.js';

/**
 * The absolute workspace of an agent: `cwd` relative to the data dir; an agent that names none
 * works in its own `<data-dir>/workspaces/<agent id>`, never in the data dir itself, which holds
 * agentteam.json (its own `allow` rules), the store and every agent's token: an `auto-edit` agent
 * working there could rewrite what it is allowed to do without asking.
 */
export function workspaceOf(cwd: string, dataDir: string, agentId: string): string {
  if (cwd === DEFAULT_AGENT_CWD) return join(dataDir, 'workspaces', agentId);
  return isAbsolute(cwd) ? cwd : resolve(dataDir, cwd);
}

/**
 * issue 29: the folders no workspace may overlap — the data dir (agentteam.json, the store with the
 * grants, the tokens, the agents' shim) and, in the desktop app, its user-data folder. Only the
 * agent's own `<data-dir>/workspaces/<agent id>` (the default workspace, holding none of those)
 * lies inside the data dir and is allowed.
 */
export interface PrivateDirs {
  readonly dataDir: string;
  /** The desktop app's user-data folder (it holds the data dir by default), or none. */
  readonly others?: readonly string[];
}

/** `path` with every symlink resolved; a path that does not exist yet keeps its missing tail on its nearest real ancestor. */
function realOf(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realOf(parent), basename(abs));
  }
}

/** The data dir with its symlinks resolved (what a CLI compares its tools' paths with). */
export function realDataDir(dataDir: string): string {
  return realOf(dataDir);
}

/** Whether `inner` is `outer` or lies below it (both real paths). */
function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * null when the workspace overlaps none of the private folders (compared after `realpath`, so a
 * symlink into the data dir is caught); else the message a person can act on, naming the agent
 * and both paths. The everyday case is `cwd` = the home folder, which contains the default data dir.
 */
export function workspaceOverlap(agentId: string, path: string, dirs: PrivateDirs): string | null {
  const workspace = realOf(path);
  const own = realOf(join(dirs.dataDir, 'workspaces', agentId));
  const fix = `Choose a project folder for agent "${agentId}" (its "cwd" in agentteam.json, or Workspace in the agent's detail) that neither contains nor lies inside it.`;
  for (const [i, dir] of [dirs.dataDir, ...(dirs.others ?? [])].entries()) {
    const privateDir = realOf(dir);
    const what =
      i === 0
        ? `AgentTeam's data folder ${privateDir}, which holds agentteam.json, the approvals and grants and the tokens`
        : `AgentTeam's app folder ${privateDir}, which holds the data folder, settings and logs`;
    if (i === 0 && within(own, workspace)) continue;
    const why = `an agent working there could change what it is allowed to do. ${fix}`;
    if (workspace === privateDir) return `The workspace of agent "${agentId}" is ${what}: ${why}`;
    if (within(workspace, privateDir))
      return `The workspace of agent "${agentId}" (${workspace}) contains ${what}: ${why}`;
    if (within(privateDir, workspace))
      return `The workspace of agent "${agentId}" (${workspace}) lies inside ${what}: ${why}`;
  }
  return null;
}

/**
 * issue 40: why a workspace cannot be used, as the readiness reason a person sees and a wake that
 * cannot be delivered fails with (shared/wake-status.ts), with the message naming agent and paths.
 */
export interface WorkspaceProblem {
  readonly reason: 'workspace_missing' | 'workspace_unreadable' | 'workspace_overlap';
  readonly message: string;
}

/**
 * The workspace a runtime starts in, checked (null = usable); the default one is made on demand
 * (owner-only, like the rest of the data dir). issue 29: one that overlaps the data dir (or the
 * app's folder) is refused — a relative `cwd` too, which resolves against the data dir.
 */
export function workspaceProblem(
  agentId: string,
  cwd: string,
  dataDir: string,
  others: readonly string[] = [],
): WorkspaceProblem | null {
  const path = workspaceOf(cwd, dataDir, agentId);
  if (cwd === DEFAULT_AGENT_CWD)
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (err) {
      return {
        reason: 'workspace_unreadable',
        message: `The workspace of agent "${agentId}" could not be made: ${path} (${err instanceof Error ? err.message : String(err)}).`,
      };
    }
  const overlap = (): WorkspaceProblem | null => {
    const message = workspaceOverlap(agentId, path, { dataDir, others });
    return message === null ? null : { reason: 'workspace_overlap', message };
  };
  return folderProblem(agentId, path) ?? overlap();
}

/** `workspaceProblem`'s message alone (null = usable). */
export function prepareWorkspace(
  agentId: string,
  cwd: string,
  dataDir: string,
  others: readonly string[] = [],
): string | null {
  return workspaceProblem(agentId, cwd, dataDir, others)?.message ?? null;
}

/** null when the workspace exists, is a folder and can be read; else what is wrong with it. */
function folderProblem(agentId: string, path: string): WorkspaceProblem | null {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EACCES')
      return {
        reason: 'workspace_unreadable',
        message: `The workspace of agent "${agentId}" cannot be read: ${path}. Give your user access to the folder or set "cwd" of agent "${agentId}" in agentteam.json.`,
      };
    return {
      reason: 'workspace_missing',
      message: `The workspace of agent "${agentId}" does not exist: ${path}. Create the folder or set "cwd" of agent "${agentId}" in agentteam.json.`,
    };
  }
  if (!isDir)
    return {
      reason: 'workspace_missing',
      message: `The workspace of agent "${agentId}" is not a folder: ${path}. Set "cwd" of agent "${agentId}" in agentteam.json to a project folder.`,
    };
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
  } catch {
    return {
      reason: 'workspace_unreadable',
      message: `The workspace of agent "${agentId}" cannot be read: ${path}. Give your user access to the folder or set "cwd" of agent "${agentId}" in agentteam.json.`,
    };
  }
  return null;
}

/** null when the workspace exists, is a folder and can be read; else the message a person can act on. */
export function checkWorkspace(agentId: string, path: string): string | null {
  return folderProblem(agentId, path)?.message ?? null;
}

/**
 * A workspace chosen in the UI or over the API (issue 14): it must be absolute (a relative path
 * would silently resolve against the data dir), then pass the same checks as at start (issue 29:
 * never overlapping the data dir). Returns the
 * normalized path, or the message a person can act on.
 */
export function checkChosenWorkspace(
  agentId: string,
  path: string,
  dirs: PrivateDirs,
): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string } {
  const trimmed = path.trim();
  if (!isAbsolute(trimmed))
    return {
      ok: false,
      message: `The workspace of agent "${agentId}" must be a full (absolute) path to a folder: "${trimmed}" is not.`,
    };
  const normalized = resolve(trimmed);
  const invalid = checkWorkspace(agentId, normalized) ?? workspaceOverlap(agentId, normalized, dirs);
  return invalid === null ? { ok: true, path: normalized } : { ok: false, message: invalid };
}

/** What the daemon keeps at the top of the data dir, denied to tools even before it exists (serve writes serve-token after start). */
const DAEMON_STATE = [
  'agentteam.json',
  'agentteam.db',
  'serve-token',
  // issue 41: this start's operator key (main/serve/token.ts)
  'operator-key',
  // issue 40 item 1: digests of the pages' hand-over secrets (main/serve/operator-handover.ts)
  'operator-handover',
  'serve.json',
  'settings.json',
  'bin',
  'runtimes',
  'runtime-pids',
];

/**
 * issue 29: the paths under the data dir an agent's tools are denied where its CLI can deny paths
 * (Claude Code's Read/Edit deny rules) — everything but its own workspace folder: agentteam.json,
 * the store, the tokens, the shim, every agent's runtime home (the CLI's own state there is the
 * CLI's, not its tools') and the other agents' workspaces. Real paths, directories marked by a
 * trailing `/`. A CLI's deny rule cannot carve an exception, so the data dir is listed by entry.
 */
export function toolDeniedPaths(dataDir: string, agentId: string): string[] {
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const data = realOf(dataDir);
  const top = [...new Set([...DAEMON_STATE, ...list(data)])].filter((n) => n !== 'workspaces');
  const others = list(join(data, 'workspaces')).filter((n) => n !== agentId);
  const mark = (path: string, dirByDefault: boolean): string => {
    let dir = dirByDefault;
    try {
      dir = statSync(path).isDirectory();
    } catch {
      // Not there yet: named as the daemon will make it.
    }
    return dir ? `${path}/` : path;
  };
  return [
    ...top.sort().map((n) => mark(join(data, n), ['bin', 'runtimes', 'runtime-pids'].includes(n))),
    ...others.sort().map((n) => mark(join(data, 'workspaces', n), true)),
  ];
}

/**
 * issue 41: the paths under the data dir a runtime's shell commands are denied where its sandbox
 * can deny reads (Codex's permission profile, codex/codex-config.ts): `toolDeniedPaths` but the
 * `bin` folder — the `agentteam` shim there is on the shell's PATH and must stay readable to run;
 * it holds no secret (agent-cli-shim.ts).
 */
export function shellDeniedPaths(dataDir: string, agentId: string): string[] {
  const shimDir = `${join(realOf(dataDir), 'bin')}/`;
  return toolDeniedPaths(dataDir, agentId).filter((p) => p !== shimDir);
}

/**
 * issue 41: the git metadata of the repository `cwd` lies in — its `.git` (a folder, or in a
 * linked worktree a file naming the worktree's git dir), that git dir and the repository's common
 * dir — which a CLI's file tools are denied writing where the CLI can say so (Claude Code's Edit
 * deny rules). A file tool that writes there can name programs the daemon's git would run or
 * point the worktree at another repository. Real paths, folders marked by a trailing `/`; found
 * by reading files, never by running git in a folder the agent writes.
 */
export function gitMetadataPaths(cwd: string): string[] {
  let top = realOf(cwd);
  while (!existsSync(join(top, '.git'))) {
    const up = dirname(top);
    if (up === top) return [];
    top = up;
  }
  const dotGit = join(top, '.git');
  const paths = new Set<string>();
  try {
    if (statSync(dotGit).isDirectory()) return [`${dotGit}/`];
    paths.add(dotGit);
    const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (named !== undefined) {
      const gitDir = realOf(resolve(top, named));
      paths.add(`${gitDir}/`);
      const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
      paths.add(`${realOf(resolve(gitDir, common))}/`);
    }
  } catch {
    // What could be read is listed; a missing commondir is a repository git itself would refuse.
  }
  return [...paths];
}
