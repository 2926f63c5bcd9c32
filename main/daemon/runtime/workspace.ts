/**
 * issue 14: the agent's `cwd` is its workspace (a project folder). Checked before the runtime
 * starts, so a typo gives one clear error naming the agent and the path instead of a CLI that
 * dies with ENOENT (or, worse, runs somewhere else).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** The absolute workspace of an agent (`cwd` relative to the data dir). */
export function workspaceOf(cwd: string, dataDir: string): string {
  return isAbsolute(cwd) ? cwd : resolve(dataDir, cwd);
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
