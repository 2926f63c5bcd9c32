/**
 * Where an agent's runtime keeps its state under the data dir, and which program a CLI runtime
 * runs: the paths every runtime descriptor (registry.ts) and the roster share.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeStart } from './runtime-descriptor.js';
import { fileSessionStore } from './runtime-session-store.js';

/** Per-agent runtime directory (HOME, config dirs, stored session). */
export function runtimeDirOf(dataDir: string, agentId: string): string {
  return join(dataDir, 'runtimes', agentId);
}

/** Where an agent's runtime remembers its session for resume: `<runtime dir>/session.json`. */
export function sessionStoreOf(dataDir: string, agentId: string) {
  return fileSessionStore(join(runtimeDirOf(dataDir, agentId), 'session.json'));
}

/** `command` from config; null → this project's node_modules/.bin/<name>, else `<name>` on PATH. */
export function resolveRuntimeCommand(command: string | null, name: string, projectRoot: string): string {
  if (command !== null) return command;
  const local = join(projectRoot, 'node_modules', '.bin', name);
  return existsSync(local) ? local : name;
}

/**
 * What a CLI driver takes straight from its start (Codex, OpenCode): the agent's command resolved
 * to the installed CLI, its args and env, its workspace, its HOME under the runtime dir, the
 * agent's MCP endpoint, model and permission policy.
 */
export function cliDriverBase(start: RuntimeStart, cli: string) {
  const { agent, deps, workspace, runtimeDir } = start;
  return {
    agentId: agent.id,
    command: resolveRuntimeCommand(agent.command, cli, deps.projectRoot),
    args: agent.args,
    env: agent.env,
    cwd: workspace,
    home: join(runtimeDir, 'home'),
    mcp: { url: deps.mcp.url, token: deps.mcp.token },
    model: agent.model,
    permissions: agent.permissions,
  };
}
