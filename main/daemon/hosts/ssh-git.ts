/**
 * issue 43 "worktrees on the remote repository (git over the same connection, with the hardened
 * git runner)": git and the few file steps around it (git/git-host.ts) on an agent's host, each
 * one `ssh` command over the host's master connection (ssh-master.ts) — no handshake per call.
 *
 * The hardened argv and environment are git-cli.ts's, built exactly as for this machine; only the
 * start differs. Each call's remote command is a fixed POSIX `sh` script (`REMOTE_GIT_SCRIPT`,
 * `REMOTE_FS_SCRIPTS`) followed by its data as words, each single-quoted for the remote shell
 * (`shellQuote`): a path, a config value or a commit message is never shell text and, after
 * `--` and the host name, never an ssh option. On the host the script drops the inherited `GIT_*`
 * variables (but the commit identity), `PAGER` and `SSH_ASKPASS` — the rule `droppedFromGitEnv`
 * applies here — and the global config is `/dev/null`: nothing of the remote user's git setup
 * names a program to the daemon's git.
 */
import { tmpdir } from 'node:os';
import { sshHostLabel, type SshHost } from '../../../shared/agent-host.js';
import {
  GitError,
  KEPT_GIT_ENV,
  MIN_GIT_VERSION,
  runBounded,
  type GitOptions,
  type GitResult,
  type GitRunner,
} from '../git/git-cli.js';
import type { HostFs, RemoteGit } from '../git/git-host.js';
import { clientArgs, shellQuote, type SshSetup } from './ssh-command.js';
import { classifySshFailure, sshFailureSentence, SSH_OWN_FAILURE } from './ssh-failure.js';
import { sshEnv } from './ssh-launcher.js';
import type { SshMaster } from './ssh-master.js';

/** Exit status of a remote git call whose folder is not there (git's own status for a fatal error). */
const NO_FOLDER_STATUS = 128;

/**
 * The script every remote git call runs under (`sh -c SCRIPT agentteam-git <cwd> env K=V … git
 * args…`): into the folder, the inherited git variables dropped, then git with the hardened ones.
 */
export const REMOTE_GIT_SCRIPT = [
  `cd -- "$1" 2>/dev/null || { printf '%s\\n' "agentteam: no folder $1 on this host" >&2; exit ${NO_FOLDER_STATUS}; }`,
  'shift',
  `for v in $(env | sed -n 's/^\\(GIT_[A-Za-z0-9_]*\\)=.*/\\1/p'); do case "$v" in ${KEPT_GIT_ENV.join('|')}) ;; *) unset "$v" ;; esac; done`,
  'unset PAGER SSH_ASKPASS',
  'exec "$@"',
].join('\n');

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The remote command of one git call: `REMOTE_GIT_SCRIPT` with the folder, the environment and git's argv as quoted words. */
export function remoteGitCommand(
  cwd: string,
  program: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  const assignments = Object.entries(env).map(([k, v]) => {
    // Names are the runner's own (git-cli.ts); one that is not a name would be read by `env` as its program.
    if (!ENV_NAME.test(k)) throw new Error(`internal: "${k}" is not an environment variable name`);
    return shellQuote(`${k}=${v}`);
  });
  // `env` reads a first word starting with "-" as its option, and one with "=" as a variable: neither may be the program.
  if (program.startsWith('-') || program.includes('=')) throw new Error(`internal: "${program}" cannot be run by env`);
  return [
    'exec sh -c',
    shellQuote(REMOTE_GIT_SCRIPT),
    'agentteam-git',
    shellQuote(cwd),
    'env',
    ...assignments,
    shellQuote(program),
    ...argv.map(shellQuote),
  ].join(' ');
}

/** The file steps on the host: each a fixed script over its words (`"$1"`, `"$2"`…), never text of its own. */
export const REMOTE_FS_SCRIPTS = {
  real: 'realpath -m -- "$1"',
  exists: '[ -e "$1" ]',
  nonEmptyDir: '[ -d "$1" ] && [ -n "$(ls -A -- "$1")" ]',
  readSmallFile: '[ -f "$1" ] && [ ! -L "$1" ] && head -c 65536 -- "$1"',
  mkdir: 'mkdir -p -m 700 -- "$@"',
  writeFile: 'cat > "$1"',
  copyFile: '[ -f "$1" ] && cp -p -- "$1" "$2"',
  tempDir: 'umask 077 && mktemp -d "${TMPDIR:-/tmp}/$1XXXXXXXX"',
  rm: 'rm -rf -- "$1"',
  home: 'printf \'%s\' "$HOME"',
  stamp: `for p; do s=$(stat -c '%i:%y:%s' -- "$p" 2>/dev/null) || s=none; printf '%s:%s\\n' "$p" "$s"; done`,
} as const;

/** The remote command of one file step: its script with `words` as its arguments. */
export function remoteFsCommand(script: string, words: readonly string[]): string {
  return ['exec sh -c', shellQuote(script), 'agentteam-fs', ...words.map(shellQuote)].join(' ');
}

/** At most this many commands of the daemon's git at once per host: sshd's `MaxSessions` (10) also holds the agents' own sessions. */
const PARALLEL = 4;

/** Git and its file steps on one host, over that host's master connection; `knownHome`: the home its readiness probe read. */
export function sshGitHost(
  host: SshHost,
  setup: SshSetup,
  master: SshMaster,
  knownHome: () => string | undefined,
): RemoteGit {
  const label = sshHostLabel(host);
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<() => void> => {
    if (running >= PARALLEL) await new Promise<void>((r) => waiting.push(r));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  };

  /** One remote command to its end, bounded like any git call; the connection's own failure is a `GitError`. */
  const ssh = async (command: string, options: GitOptions, what: string | undefined): Promise<GitResult> => {
    const up = await master.ensure();
    if (!up.ok) throw new GitError('git_host_unreachable', sshFailureSentence(up.kind, host, up.stderr));
    const release = await slot();
    let r: GitResult;
    try {
      r = await runBounded(
        { program: setup.ssh ?? 'ssh', args: clientArgs(host, setup, [], command), cwd: tmpdir(), env: sshEnv() },
        options,
        what,
      );
    } finally {
      release();
    }
    // 255 is ssh's own failure; git's fatal errors are 128 and say "fatal:".
    if (r.code === SSH_OWN_FAILURE && !/^(fatal|error): /m.test(r.stderr))
      throw new GitError('git_host_unreachable', sshFailureSentence(classifySshFailure(r.stderr), host, r.stderr));
    return r;
  };

  const runner: GitRunner = {
    globalConfig: () => Promise.resolve('/dev/null'),
    run: async (argv, env, options, what) => {
      const program = options.binary ?? 'git';
      const r = await ssh(remoteGitCommand(options.cwd, program, argv, env), options, what);
      if (r.code === 127 && /not found|No such file/i.test(r.stderr))
        throw new GitError(
          'git_missing',
          `git was not found on ${label} (${program}): install git ${MIN_GIT_VERSION.major}.${MIN_GIT_VERSION.minor} or newer there`,
        );
      return r;
    },
  };

  const step = (name: keyof typeof REMOTE_FS_SCRIPTS, words: readonly string[], input?: string) =>
    ssh(
      remoteFsCommand(REMOTE_FS_SCRIPTS[name], words),
      { cwd: tmpdir(), timeoutMs: 30_000, ...(input === undefined ? {} : { input }) },
      name,
    );
  const must = async (name: keyof typeof REMOTE_FS_SCRIPTS, words: readonly string[], input?: string) => {
    const r = await step(name, words, input);
    if (r.code !== 0) throw new Error(`${name} ${words.join(' ')} failed on ${label}: ${r.stderr.trim()}`);
    return r.stdout;
  };
  const fs: HostFs = {
    real: async (path) => (await must('real', [path])).replace(/\n$/, ''),
    exists: async (path) => (await step('exists', [path])).code === 0,
    nonEmptyDir: async (path) => (await step('nonEmptyDir', [path])).code === 0,
    readSmallFile: async (path) => {
      const r = await step('readSmallFile', [path]);
      return r.code === 0 ? r.stdout : null;
    },
    mkdir: async (...paths) => {
      await must('mkdir', paths);
    },
    writeFile: async (path, text) => {
      await must('writeFile', [path], text);
    },
    copyFile: async (from, to) => (await step('copyFile', [from, to])).code === 0,
    tempDir: async (prefix) => (await must('tempDir', [prefix])).trim(),
    rm: async (path) => {
      await must('rm', [path]);
    },
    stamp: async (paths) => must('stamp', paths),
  };
  return {
    git: { key: label, runner, fs },
    home: async () => knownHome() ?? (await must('home', [])),
  };
}
