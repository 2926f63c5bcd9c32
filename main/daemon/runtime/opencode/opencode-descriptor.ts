/**
 * issue 39: OpenCode on the runtime registry — the `opencode serve` driver in the agent's own
 * XDG dirs, a readiness probe that asks `opencode auth list` there (an `OPENAI_API_KEY` of the
 * agent's own is a sign-in by itself), and the `opencode` agent a first run seeds.
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
import { realDataDir } from '../workspace.js';
import { prepareOpencodeSignIn, OPENCODE_WORDS } from './opencode-auth.js';
import { OPENCODE_PERSON_LOGIN_PROVIDER, opencodeDirs } from './opencode-config.js';
import { OpencodeDriver } from './opencode-driver.js';

function probeOpencode(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  const home = join(runtimeDirOf(deps.dataDir, agent.id), 'home');
  const dirs = opencodeDirs(home);
  prepareOpencodeSignIn(dirs.data, agent.auth, deps.person ?? currentPersonProfile());
  return probeCli(agent, deps, {
    command: resolveRuntimeCommand(agent.command, 'opencode', deps.projectRoot),
    env: {
      ...runtimeBaseEnv(deps.processEnv ?? process.env),
      ...agent.env,
      HOME: home,
      XDG_CONFIG_HOME: dirs.config,
      XDG_DATA_HOME: dirs.data,
      XDG_CACHE_HOME: dirs.cache,
      XDG_STATE_HOME: dirs.state,
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      npm_config_registry: 'http://127.0.0.1:9/',
    },
    status: ['auth', 'list'],
    ownKey: 'OPENAI_API_KEY',
    judge: (_res, out) => {
      const count = /(\d+)\s+credentials?/i.exec(out);
      return { signedIn: count !== null && Number(count[1]) > 0, detail: count?.[0] ?? null };
    },
  });
}

/** research/runtimes.md §2: OpenCode names an MCP tool `<server>_<tool>`. */
const OPENCODE_TOOL_NAMING: McpToolNaming = { name: (tool) => `${MCP_SERVER_NAME}_${tool}`, namespace: null };

export const OPENCODE_RUNTIME: RuntimeDescriptor<'opencode'> = {
  kind: 'opencode',
  launch: {
    driver: (start) => {
      const { agent, deps } = start;
      // issue 15: the person's login file is linked in (cli-login), never copied (opencode-auth.ts).
      const person = deps.person ?? currentPersonProfile();
      return new OpencodeDriver({
        ...cliDriverBase(start, 'opencode'),
        // issue 29: the data dir (real path) is an external directory its tools may never enter.
        deniedDirs: [realDataDir(deps.dataDir)],
        // issue 15: an endpoint served by the person's sign-in is OpenCode's built-in `openai` provider,
        // the one the person's `opencode auth login` key is stored for.
        provider: signInServedProvider(agent.env, agent.auth, (p) => ({ ...p, id: OPENCODE_PERSON_LOGIN_PROVIDER })),
        signIn: (dataDir) => prepareOpencodeSignIn(dataDir, agent.auth, person),
      });
    },
  },
  probe: probeOpencode,
  toolNaming: () => OPENCODE_TOOL_NAMING,
  // issue 43: its server listens on a port (a forwarded port over SSH, not built yet).
  overSsh: null,
  words: () => OPENCODE_WORDS,
  firstRun: {
    always: [],
    offered: [
      { command: 'opencode', agent: { id: 'opencode', name: 'OpenCode', runtime: 'opencode', command: 'opencode' } },
    ],
  },
};
