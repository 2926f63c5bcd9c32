/**
 * issue 39: every ACP agent on the runtime registry (issue 28) — the ACP driver with its
 * preset's recipe (acp-presets.ts: Gemini CLI, Qwen Code, Copilot CLI) or a custom agent's own
 * command; a readiness probe (the CLI launches, and a key of the agent's own or the person's
 * login file); and one first-run offer per preset. A new preset is one entry of
 * `ACP_PRESET_SPECS` and its name in `ACP_PRESETS` (shared/config.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ACP_PRESETS, type AgentConfig } from '../../../../shared/config.js';
import { currentPersonProfile } from '../auth/person-profile.js';
import { cliMissing, runCli, versionLine, type ProbeDeps, type ReadinessProbe } from '../cli-probe.js';
import type { FirstRunOffer, RuntimeDescriptor } from '../runtime-descriptor.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { runtimeDirOf } from '../runtime-home.js';
import { personAcpLoginFile, prepareAcpSignIn } from './acp-auth.js';
import { AcpDriver } from './acp-driver.js';
import { ACP_PRESET_SPECS, acpToolName, acpWords } from './acp-presets.js';

/** One package unpack (Copilot: 235 MB) for every agent of the data dir. */
const sharedCacheOf = (dataDir: string): string => join(dataDir, 'runtimes', '.acp-cache');

/**
 * issue 28: an ACP agent is ready when its CLI launches (`--version`) and it has a sign-in: a key
 * of its own in `env`, or (cli-login) the person's login file. A custom agent is judged by its
 * command only (ACP has no sign-in status command).
 */
async function probeAcp(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  const checkedAt = new Date().toISOString();
  const person = deps.person ?? currentPersonProfile();
  const home = join(runtimeDirOf(deps.dataDir, agent.id), 'home');
  const base = { ...runtimeBaseEnv(deps.processEnv ?? process.env), ...agent.env, HOME: home };
  const spec = agent.preset === undefined ? null : ACP_PRESET_SPECS[agent.preset];
  const launch =
    spec === null
      ? { command: agent.command as string, entry: [] as readonly string[], env: {} }
      : await spec.launch({
          home,
          sharedCache: sharedCacheOf(deps.dataDir),
          projectRoot: deps.projectRoot,
          env: agent.env,
          model: null,
        });
  const command = agent.command ?? launch.command;
  const entry = agent.command === null ? launch.entry : [];
  const version = await runCli(
    command,
    [...entry, '--version'],
    { ...base, ...launch.env },
    process.cwd(),
    deps.timeoutMs ?? 15_000,
  );
  if (version.missing) return cliMissing(command, checkedAt);
  const cliVersion = versionLine(version.stdout);
  if (spec === null) return { outcome: 'ready', cliVersion, detail: null, checkedAt };
  const key = spec.keyVariables.find((k) => agent.env[k] !== undefined);
  if (key !== undefined) return { outcome: 'ready', cliVersion, detail: `${key} in env`, checkedAt };
  const login = agent.auth === 'cli-login' ? personAcpLoginFile(spec.loginFile, person) : null;
  if (login !== null && existsSync(login)) return { outcome: 'ready', cliVersion, detail: 'CLI login', checkedAt };
  return { outcome: 'needs_sign_in', cliVersion, detail: `no ${spec.keyVariables[0]} in env`, checkedAt };
}

export const ACP_RUNTIME: RuntimeDescriptor<'acp'> = {
  kind: 'acp',
  launch: {
    // issue 28: any ACP agent; a preset knows its CLI, env, home and modes (acp-presets.ts).
    driver: ({ agent, deps, workspace, runtimeDir }) => {
      const spec = agent.preset === undefined ? null : ACP_PRESET_SPECS[agent.preset];
      return new AcpDriver({
        agentId: agent.id,
        preset: agent.preset ?? null,
        command: agent.command,
        args: agent.args,
        env: agent.env,
        model: agent.model,
        cwd: workspace,
        home: join(runtimeDir, 'home'),
        sharedCache: sharedCacheOf(deps.dataDir),
        projectRoot: deps.projectRoot,
        mcp: deps.mcp,
        permissions: agent.permissions,
        // issue 15: the person's login file linked in (cli-login), never copied (acp-auth.ts).
        ...(spec === null
          ? {}
          : {
              signIn: (home: string) =>
                prepareAcpSignIn(home, spec.loginFile, agent.auth, deps.person ?? currentPersonProfile()),
            }),
      });
    },
  },
  probe: probeAcp,
  toolNaming: ({ preset }) => ({ name: (tool) => acpToolName(preset, tool), namespace: null }),
  // issue 43: ACP is JSON-RPC over stdio (the SSH channel); the MCP server of `session/new` is the
  // reverse forward. A preset's CLI on the host is its program on PATH (a custom agent names its command).
  overSsh: {
    program: ({ preset }) => (preset === undefined ? 'acp' : (ACP_PRESET_SPECS[preset].firstRun?.command ?? preset)),
  },
  words: ({ preset }) => acpWords(preset),
  firstRun: {
    always: [],
    // issue 28: the preset launches its CLI itself (no "command" in the seed).
    offered: ACP_PRESETS.flatMap((preset): FirstRunOffer[] => {
      const seed = ACP_PRESET_SPECS[preset].firstRun;
      return seed === null
        ? []
        : [{ command: seed.command, agent: { id: seed.agentId, name: seed.name, runtime: 'acp', preset } }];
    }),
  },
};
