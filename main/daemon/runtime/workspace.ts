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
