/**
 * Readiness of one agent without a model call (issue 15): is its CLI there (and which
 * version), and is it signed in or does it have a key — asked of the CLI's own status command
 * run against the SAME HOME/config dirs the runtime uses (`claude auth status` JSON,
 * `codex login status`, `opencode auth list`). The credential itself is never read here.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import { prepareCodexSignIn } from './auth/codex-auth.js';
import { prepareOpencodeSignIn } from './auth/opencode-auth.js';
import { currentPersonProfile, type PersonProfile } from './auth/person-profile.js';
import { claudeLaunch } from './claude-code/claude-launch.js';
import { opencodeDirs } from './opencode/opencode-config.js';
import { runtimeBaseEnv } from './runtime-env.js';
import { ACP_PRESET_SPECS } from './acp/acp-presets.js';
import { ACP_KEY_VARIABLES, personAcpLoginFile } from './auth/acp-auth.js';
import { resolveRuntimeCommand, runtimeDirOf } from './runtime-factory.js';

export type ProbeOutcome = 'ready' | 'needs_sign_in' | 'cli_missing';

export interface ReadinessProbe {
  readonly outcome: ProbeOutcome;
  readonly cliVersion: string | null;
  /** A short, credential-free note for a person (e.g. "claude.ai login", "API key in env"). */
  readonly detail: string | null;
  readonly checkedAt: string;
}

export interface ProbeDeps {
  readonly dataDir: string;
  readonly projectRoot: string;
  readonly person?: PersonProfile;
  /** The daemon's environment (Claude inherits `ANTHROPIC_*` from it); default process.env. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly missing: boolean;
}

function run(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  ms: number,
): Promise<Run> {
  return new Promise((done) => {
    execFile(command, [...args], { env, cwd, timeout: ms, maxBuffer: 256 * 1024 }, (err, stdout) => {
      const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
      if (e !== null && e.code === 'ENOENT') return done({ code: null, stdout: '', missing: true });
      const code = e === null ? 0 : typeof e.code === 'number' ? e.code : 1;
      done({ code, stdout: String(stdout), missing: false });
    });
  });
}

// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI colour code starts with
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** Checks one CLI agent (the demo agent is always ready). */
export async function probeAgent(agent: AgentConfig, deps: ProbeDeps): Promise<ReadinessProbe> {
  const checkedAt = new Date().toISOString();
  if (agent.runtime === 'demo') return { outcome: 'ready', cliVersion: null, detail: null, checkedAt };
  if (agent.runtime === 'acp') return probeAcpAgent(agent, deps, checkedAt);
  const person = deps.person ?? currentPersonProfile();
  const ms = deps.timeoutMs ?? 15_000;
  const runtimeDir = runtimeDirOf(deps.dataDir, agent.id);
  const cwd = process.cwd();
  let command: string;
  let env: Record<string, string>;
  let status: readonly string[];
  if (agent.runtime === 'claude-code') {
    const launch = claudeLaunch({
      command: agent.command,
      args: [],
      env: agent.env,
      model: null,
      mcp: { url: 'http://127.0.0.1:9/', token: '', headers: {} },
      runtimeDir,
      resumeSessionId: null,
      processEnv: deps.processEnv ?? process.env,
      projectRoot: deps.projectRoot,
      auth: agent.auth,
      person,
    });
    ({ command, env } = launch);
    status = ['auth', 'status'];
  } else {
    command = resolveRuntimeCommand(agent.command, agent.runtime, deps.projectRoot);
    const home = join(runtimeDir, 'home');
    if (agent.runtime === 'codex') {
      const codexHome = join(home, 'codex-home');
      prepareCodexSignIn(codexHome, agent.auth, person);
      env = { ...runtimeBaseEnv(deps.processEnv ?? process.env), ...agent.env, HOME: home, CODEX_HOME: codexHome };
      status = ['login', 'status'];
    } else {
      const dirs = opencodeDirs(home);
      prepareOpencodeSignIn(dirs.data, agent.auth, person);
      env = {
        ...runtimeBaseEnv(deps.processEnv ?? process.env),
        ...agent.env,
        HOME: home,
        XDG_CONFIG_HOME: dirs.config,
        XDG_DATA_HOME: dirs.data,
        XDG_CACHE_HOME: dirs.cache,
        XDG_STATE_HOME: dirs.state,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        npm_config_registry: 'http://127.0.0.1:9/',
      };
      status = ['auth', 'list'];
    }
  }
  const version = await run(command, ['--version'], env, cwd, ms);
  if (version.missing)
    return { outcome: 'cli_missing', cliVersion: null, detail: `"${command}" was not found`, checkedAt };
  const cliVersion = stripAnsi(version.stdout).trim().split('\n')[0]?.trim() || null;
  // A key of the agent's own is a sign-in for Codex and OpenCode (their status commands only know logins).
  if (agent.runtime !== 'claude-code' && agent.env.OPENAI_API_KEY !== undefined)
    return { outcome: 'ready', cliVersion, detail: 'API key in env', checkedAt };
  if (agent.runtime !== 'claude-code' && agent.auth === 'env')
    return { outcome: 'needs_sign_in', cliVersion, detail: 'no OPENAI_API_KEY in env', checkedAt };
  const res = await run(command, status, env, isAbsolute(agent.cwd) ? agent.cwd : resolve(deps.dataDir), ms);
  const out = stripAnsi(res.stdout);
  if (agent.runtime === 'claude-code') {
    let parsed: { loggedIn?: unknown; authMethod?: unknown } = {};
    try {
      parsed = JSON.parse(out) as typeof parsed;
    } catch {
      // not JSON: judged by the exit code below
    }
    const signedIn = parsed.loggedIn === true || (parsed.loggedIn === undefined && res.code === 0);
    const method = typeof parsed.authMethod === 'string' ? parsed.authMethod : null;
    return { outcome: signedIn ? 'ready' : 'needs_sign_in', cliVersion, detail: method, checkedAt };
  }
  if (agent.runtime === 'codex') {
    const signedIn = res.code === 0 && !/not logged in/i.test(out);
    return {
      outcome: signedIn ? 'ready' : 'needs_sign_in',
      cliVersion,
      detail: signedIn ? 'codex login' : null,
      checkedAt,
    };
  }
  const count = /(\d+)\s+credentials?/i.exec(out);
  const signedIn = count !== null && Number(count[1]) > 0;
  return { outcome: signedIn ? 'ready' : 'needs_sign_in', cliVersion, detail: count?.[0] ?? null, checkedAt };
}

/**
 * issue 28: an ACP agent is ready when its CLI launches (`--version`) and it has a sign-in: a key
 * of its own in `env`, or (cli-login) the person's login file. A custom agent is judged by its
 * command only (ACP has no sign-in status command).
 */
async function probeAcpAgent(agent: AgentConfig, deps: ProbeDeps, checkedAt: string): Promise<ReadinessProbe> {
  const person = deps.person ?? currentPersonProfile();
  const home = join(runtimeDirOf(deps.dataDir, agent.id), 'home');
  const base = { ...runtimeBaseEnv(deps.processEnv ?? process.env), ...agent.env, HOME: home };
  const preset = agent.preset ?? null;
  const launch =
    preset === null
      ? { command: agent.command as string, entry: [] as readonly string[], env: {} }
      : await ACP_PRESET_SPECS[preset].launch({
          home,
          sharedCache: join(deps.dataDir, 'runtimes', '.acp-cache'),
          projectRoot: deps.projectRoot,
          env: agent.env,
          model: null,
        });
  const command = agent.command ?? launch.command;
  const entry = agent.command === null ? launch.entry : [];
  const version = await run(
    command,
    [...entry, '--version'],
    { ...base, ...launch.env },
    process.cwd(),
    deps.timeoutMs ?? 15_000,
  );
  if (version.missing)
    return { outcome: 'cli_missing', cliVersion: null, detail: `"${command}" was not found`, checkedAt };
  const cliVersion = stripAnsi(version.stdout).trim().split('\n')[0]?.trim() || null;
  if (preset === null) return { outcome: 'ready', cliVersion, detail: null, checkedAt };
  const key = ACP_KEY_VARIABLES[preset].find((k) => agent.env[k] !== undefined);
  if (key !== undefined) return { outcome: 'ready', cliVersion, detail: `${key} in env`, checkedAt };
  const login = agent.auth === 'cli-login' ? personAcpLoginFile(preset, person) : null;
  if (login !== null && existsSync(login)) return { outcome: 'ready', cliVersion, detail: 'CLI login', checkedAt };
  return { outcome: 'needs_sign_in', cliVersion, detail: `no ${ACP_KEY_VARIABLES[preset][0]} in env`, checkedAt };
}
