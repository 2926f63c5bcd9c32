/**
 * issue 14: the agent's `cwd` is its workspace (a project folder). Checked before the runtime
 * starts, so a typo gives one clear error naming the agent and the path instead of a CLI that
 * dies with ENOENT (or, worse, runs somewhere else).
 */
import { mkdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
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
 * The workspace a runtime starts in, checked (null = usable); the default one is made on demand
 * (owner-only, like the rest of the data dir).
 */
export function prepareWorkspace(agentId: string, cwd: string, dataDir: string): string | null {
  const path = workspaceOf(cwd, dataDir, agentId);
  if (cwd === DEFAULT_AGENT_CWD)
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (err) {
      return `The workspace of agent "${agentId}" could not be made: ${path} (${err instanceof Error ? err.message : String(err)}).`;
    }
  return checkWorkspace(agentId, path);
}

/** null when the workspace exists and is a directory; else the message a person can act on. */
export function checkWorkspace(agentId: string, path: string): string | null {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return `The workspace of agent "${agentId}" does not exist: ${path}. Create the folder or set "cwd" of agent "${agentId}" in agentteam.json.`;
  }
  return isDir
    ? null
    : `The workspace of agent "${agentId}" is not a folder: ${path}. Set "cwd" of agent "${agentId}" in agentteam.json to a project folder.`;
}

/**
 * A workspace chosen in the UI or over the API (issue 14): it must be absolute (a relative path
 * would silently resolve against the data dir), then pass the same check as at start. Returns the
 * normalized path, or the message a person can act on.
 */
export function checkChosenWorkspace(
  agentId: string,
  path: string,
): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string } {
  const trimmed = path.trim();
  if (!isAbsolute(trimmed))
    return {
      ok: false,
      message: `The workspace of agent "${agentId}" must be a full (absolute) path to a folder: "${trimmed}" is not.`,
    };
  const normalized = resolve(trimmed);
  const invalid = checkWorkspace(agentId, normalized);
  return invalid === null ? { ok: true, path: normalized } : { ok: false, message: invalid };
}
