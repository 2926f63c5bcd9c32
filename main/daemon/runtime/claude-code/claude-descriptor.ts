/**
 * issue 39: Claude Code on the runtime registry — the stream-json driver, a readiness probe
 * that asks `claude auth status` (JSON) under the agent's own config dir, and the `claude`
 * agent a first run seeds when the CLI is on PATH.
 */
import type { AgentConfig } from '../../../../shared/config.js';
import { currentPersonProfile } from '../auth/person-profile.js';
import { probeCli, type ProbeDeps, type ReadinessProbe } from '../cli-probe.js';
import type { RuntimeDescriptor } from '../runtime-descriptor.js';
import { runtimeDirOf } from '../runtime-home.js';
import { toolDeniedPaths } from '../workspace.js';
import { CLAUDE_WORDS } from './claude-auth.js';
import { ClaudeDriver } from './claude-driver.js';
import { CLAUDE_TOOL_NAMING, claudeLaunch } from './claude-launch.js';

/** Signed in when `claude auth status` says so (JSON `loggedIn`), else by its exit code. */
function probeClaude(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  const { command, env } = claudeLaunch({
    command: agent.command,
    args: [],
    env: agent.env,
    model: null,
    mcp: { url: 'http://127.0.0.1:9/', token: '', headers: {} },
    runtimeDir: runtimeDirOf(deps.dataDir, agent.id),
    resumeSessionId: null,
    processEnv: deps.processEnv ?? process.env,
    projectRoot: deps.projectRoot,
    auth: agent.auth,
    person: deps.person ?? currentPersonProfile(),
  });
  return probeCli(agent, deps, {
    command,
    env,
    status: ['auth', 'status'],
    // `claude auth status` is asked even with a key in env: its answer names the method.
    ownKey: null,
    judge: (res, out) => {
      let parsed: { loggedIn?: unknown; authMethod?: unknown } = {};
      try {
        parsed = JSON.parse(out) as typeof parsed;
      } catch {
        // not JSON: judged by the exit code below
      }
      const signedIn = parsed.loggedIn === true || (parsed.loggedIn === undefined && res.code === 0);
      return { signedIn, detail: typeof parsed.authMethod === 'string' ? parsed.authMethod : null };
    },
  });
}

export const CLAUDE_CODE_RUNTIME: RuntimeDescriptor<'claude-code'> = {
  kind: 'claude-code',
  launch: {
    driver: ({ agent, deps, workspace, runtimeDir }) =>
      new ClaudeDriver({
        agentId: agent.id,
        command: agent.command,
        args: agent.args,
        env: agent.env,
        model: agent.model,
        cwd: workspace,
        mcp: deps.mcp,
        runtimeDir,
        projectRoot: deps.projectRoot,
        threadContract: deps.threadContractText ?? null,
        auth: agent.auth,
        ...(deps.person === undefined ? {} : { person: deps.person }),
        permissions: agent.permissions,
        // issue 29: its file tools are denied the daemon's state in the data dir (read at each launch).
        deniedPaths: () => toolDeniedPaths(deps.dataDir, agent.id),
      }),
  },
  probe: probeClaude,
  toolNaming: () => CLAUDE_TOOL_NAMING,
  // issue 43: stream-json over the SSH channel's stdio, MCP through the reverse forward.
  overSsh: { program: () => 'claude' },
  words: () => CLAUDE_WORDS,
  firstRun: {
    always: [],
    offered: [
      { command: 'claude', agent: { id: 'claude', name: 'Claude', runtime: 'claude-code', command: 'claude' } },
    ],
  },
};
