/**
 * issue 39: Codex on the runtime registry — the app-server driver in the agent's own
 * CODEX_HOME, a readiness probe that asks `codex login status` there (an `OPENAI_API_KEY` of the
 * agent's own is a sign-in by itself), and the `codex` agent a first run seeds.
 */
import { join } from 'node:path';
import type { AgentConfig } from '../../../../shared/config.js';
import { MCP_SERVER_NAME } from '../../mcp/mcp-names.js';
import type { McpToolNaming } from '../../prompt/tool-names.js';
import { signInServedProvider } from '../agent-provider.js';
import { currentPersonProfile } from '../auth/person-profile.js';
import { probeCli, type ProbeDeps, type ReadinessProbe } from '../cli-probe.js';
import type { RuntimeDescriptor } from '../runtime-descriptor.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { cliDriverBase, resolveRuntimeCommand, runtimeDirOf } from '../runtime-home.js';
import { shellDeniedPaths } from '../workspace.js';
import { prepareCodexSignIn, CODEX_WORDS } from './codex-auth.js';
import { CodexDriver } from './codex-driver.js';

function probeCodex(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  const home = join(runtimeDirOf(deps.dataDir, agent.id), 'home');
  const codexHome = join(home, 'codex-home');
  prepareCodexSignIn(codexHome, agent.auth, deps.person ?? currentPersonProfile());
  return probeCli(agent, deps, {
    command: resolveRuntimeCommand(agent.command, 'codex', deps.projectRoot),
    env: { ...runtimeBaseEnv(deps.processEnv ?? process.env), ...agent.env, HOME: home, CODEX_HOME: codexHome },
    status: ['login', 'status'],
    ownKey: 'OPENAI_API_KEY',
    judge: (res, out) => {
      const signedIn = res.code === 0 && !/not logged in/i.test(out);
      return { signedIn, detail: signedIn ? 'codex login' : null };
    },
  });
}

/** research/runtimes.md §2: Codex offers our tools by their bare names inside one namespace tool, `mcp__<server>`. */
const CODEX_TOOL_NAMING: McpToolNaming = { name: (tool) => tool, namespace: `mcp__${MCP_SERVER_NAME}` };

export const CODEX_RUNTIME: RuntimeDescriptor<'codex'> = {
  kind: 'codex',
  launch: {
    driver: (start) => {
      const { agent, deps } = start;
      // issue 15: the person's login file is linked in (cli-login), never copied (codex-auth.ts).
      const person = deps.person ?? currentPersonProfile();
      return new CodexDriver({
        ...cliDriverBase(start, 'codex'),
        provider: signInServedProvider(agent.env, agent.auth, (p) => ({ ...p, requiresOpenaiAuth: true })),
        developerInstructions: deps.threadContractText ?? null,
        signIn: (codexHome) => prepareCodexSignIn(codexHome, agent.auth, person),
        // issue 41: its sandboxed commands are denied the daemon's state in the data dir (read at each launch).
        deniedPaths: () => shellDeniedPaths(deps.dataDir, agent.id),
      });
    },
  },
  probe: probeCodex,
  toolNaming: () => CODEX_TOOL_NAMING,
  // issue 43: app-server is JSON-RPC over stdio (the SSH channel); MCP is the reverse forward (config.toml's url).
  overSsh: { program: () => 'codex' },
  words: () => CODEX_WORDS,
  firstRun: {
    always: [],
    offered: [{ command: 'codex', agent: { id: 'codex', name: 'Codex', runtime: 'codex', command: 'codex' } }],
  },
};
