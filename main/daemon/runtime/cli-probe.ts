/**
 * The parts of a readiness probe (issue 15) every CLI runtime shares: run the CLI's own
 * `--version` and status commands against the runtime's HOME/config dirs, with a timeout, and
 * read a missing program as `cli_missing`. Each runtime's descriptor (registry.ts) asks its own
 * questions with these; readiness.ts picks the descriptor.
 */
import { execFile } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import type { PersonProfile } from './auth/person-profile.js';

/** issue 43: an agent on another host adds its connection's outcomes (main/daemon/hosts/). */
type ProbeOutcome =
  'ready' | 'needs_sign_in' | 'cli_missing' | 'host_unreachable' | 'host_auth_failed' | 'host_key_unknown';

export interface ReadinessProbe {
  readonly outcome: ProbeOutcome;
  readonly cliVersion: string | null;
  /** A short, credential-free note for a person (e.g. "claude.ai login", "API key in env"). */
  readonly detail: string | null;
  readonly checkedAt: string;
  /**
   * issue 42: the CLI's sign-in status command did not answer within the timeout (a loaded
   * machine): no answer, so the agent is started — its first turn says whether it is signed in —
   * and the answer is not kept (probe-cache.ts): the next check asks the CLI again.
   */
  readonly provisional?: true;
}

export interface ProbeDeps {
  readonly dataDir: string;
  readonly projectRoot: string;
  readonly person?: PersonProfile;
  /** The daemon's environment (Claude inherits `ANTHROPIC_*` from it); default process.env. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly missing: boolean;
  /** Killed at the timeout: the CLI gave no answer (never "not signed in"). */
  readonly timedOut: boolean;
}

/** Runs one CLI command to its end (or the timeout); ENOENT is `missing`, never an error. */
export function runCli(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  ms: number,
): Promise<CliRun> {
  return new Promise((done) => {
    execFile(command, [...args], { env, cwd, timeout: ms, maxBuffer: 256 * 1024 }, (err, stdout) => {
      const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
      if (e !== null && e.code === 'ENOENT') return done({ code: null, stdout: '', missing: true, timedOut: false });
      const code = e === null ? 0 : typeof e.code === 'number' ? e.code : 1;
      const timedOut = e !== null && (e as { killed?: boolean }).killed === true;
      done({ code, stdout: String(stdout), missing: false, timedOut });
    });
  });
}

// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI colour code starts with
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** The first line of a `--version` answer, colours stripped; null when it printed nothing. */
export const versionLine = (stdout: string): string | null => stripAnsi(stdout).trim().split('\n')[0]?.trim() || null;

/** The probe's answer when the program is not there. */
export const cliMissing = (command: string, checkedAt: string): ReadinessProbe => ({
  outcome: 'cli_missing',
  cliVersion: null,
  detail: `"${command}" was not found`,
  checkedAt,
});

/** One CLI runtime's questions: how to run it, and how to read its sign-in status command. */
export interface CliProbeSpec {
  readonly command: string;
  /** The SAME HOME/config dirs the runtime uses, so the answer is the agent's, not the person's. */
  readonly env: Record<string, string>;
  /** The CLI's own sign-in status command (`auth status`, `login status`, `auth list`). */
  readonly status: readonly string[];
  /**
   * A provider key of the agent's own that is a sign-in by itself (its status command only knows
   * logins); an `env`-mode agent without it needs sign-in. Null: the status command decides.
   */
  readonly ownKey: string | null;
  /** Reads the status command's answer (colours stripped). */
  judge(run: CliRun, out: string): { readonly signedIn: boolean; readonly detail: string | null };
}

/** Is the CLI there (and which version), and is it signed in or keyed. The credential is never read. */
export async function probeCli(agent: AgentConfig, deps: ProbeDeps, spec: CliProbeSpec): Promise<ReadinessProbe> {
  const checkedAt = new Date().toISOString();
  const ms = deps.timeoutMs ?? 15_000;
  const version = await runCli(spec.command, ['--version'], spec.env, process.cwd(), ms);
  if (version.missing) return cliMissing(spec.command, checkedAt);
  const cliVersion = versionLine(version.stdout);
  if (spec.ownKey !== null && agent.env[spec.ownKey] !== undefined)
    return { outcome: 'ready', cliVersion, detail: 'API key in env', checkedAt };
  if (spec.ownKey !== null && agent.auth === 'env')
    return { outcome: 'needs_sign_in', cliVersion, detail: `no ${spec.ownKey} in env`, checkedAt };
  const cwd = isAbsolute(agent.cwd) ? agent.cwd : resolve(deps.dataDir);
  const res = await runCli(spec.command, spec.status, spec.env, cwd, ms);
  // issue 42: 20 agents starting at once on a loaded machine outlived the timeout; that is no answer.
  if (res.timedOut)
    return {
      outcome: 'ready',
      cliVersion,
      detail: `its sign-in check did not answer within ${Math.round(ms / 1000)} s; started, its first turn tells`,
      checkedAt,
      provisional: true,
    };
  const { signedIn, detail } = spec.judge(res, stripAnsi(res.stdout));
  return { outcome: signedIn ? 'ready' : 'needs_sign_in', cliVersion, detail, checkedAt };
}
