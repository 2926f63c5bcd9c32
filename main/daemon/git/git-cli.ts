/**
 * The one way the daemon runs git (issue 26: "Git is a real dependency … No reimplementation of
 * git"). Every call is the distribution's `git` binary with an argument array (never a shell),
 * no prompt (`GIT_TERMINAL_PROMPT=0`), untranslated messages (`LC_ALL=C`, so a caller may read
 * them), paths unquoted (`core.quotepath=off`), a bounded output and a timeout. A call that fails
 * is an answer (`code`, `stderr`), not an exception: only a missing git binary, a timeout or an
 * oversized output throw a `GitError` saying which.
 *
 * issue 41 (high): git runs as the daemon's child, outside every CLI sandbox and without an
 * approval, in repositories an agent can write. So no call may run a program the repository
 * names. How (each checked against git 2.39 by the planted-repository tests):
 * - the environment: every inherited `GIT_*` variable is dropped (only the commit identity is
 *   kept); no system config (`GIT_CONFIG_NOSYSTEM`); the global config is a file the daemon wrote
 *   with an allowlist of the person's own keys (identity, excludes, line endings, safe.directory:
 *   `daemonGlobalConfig`); no pager, an editor that is git's no-op `:`, no prompt;
 * - the command line: `--no-pager` and `-c` overrides of every fixed-name key that runs a program
 *   (`FIXED_OVERRIDES`); a `-c` value beats the repository's config and whatever it includes;
 * - keys whose names the repository chooses (`filter.<driver>.clean`, `diff.<driver>.textconv`,
 *   `merge.<driver>.driver`, `pager.<cmd>` …): before a command that reads or writes the work tree
 *   (`WORK_TREE_COMMANDS`), the effective config is read (`git config --list -z`: reading, includes
 *   included, runs nothing) and each key that names a program is overridden empty. `include.path`
 *   needs no refusal: what it includes is config like the rest, read and overridden the same way.
 *   A key that cannot be overridden on a command line (a `=` in its name) makes the call refuse,
 *   naming the key. What remains is the moment between that read and the command: the snapshots,
 *   which run while an agent works, never read the repository's config at all (snapshot.ts: a
 *   git dir of the daemon's own); merge and discard run only while the agent's turn does not.
 * - `repo` pins the git dir, common dir and work tree (`GIT_DIR`, `GIT_COMMON_DIR`,
 *   `GIT_WORK_TREE`) so git never follows a `.git` file an agent may have rewritten.
 *
 * issue 43 "worktrees on the remote repository (git over the same connection, with the hardened
 * git runner)": these rules build the argument array and the environment once; a `GitRunner`
 * only starts the process — on this machine (`LOCAL_GIT_RUNNER`) or on an agent's host through
 * its SSH master connection (hosts/ssh-git.ts). No second copy of the rules exists.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The oldest git the daemon uses: `git worktree repair` (2.30) is how a moved worktree is fixed. */
export const MIN_GIT_VERSION = { major: 2, minor: 30 } as const;

/** Output a call may print before it is stopped (a diff is bounded by its caller well below this). */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitOptions {
  /** The working directory (`git -C`). */
  readonly cwd: string;
  /** Extra environment (e.g. `GIT_INDEX_FILE` for a snapshot through a temporary index). */
  readonly env?: Readonly<Record<string, string>>;
  /** Standard input. */
  readonly input?: string;
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  /** The git binary (tests); default `git` on PATH. */
  readonly binary?: string;
  /** Where git runs (default: this machine): the same argv and environment, started by the runner. */
  readonly runner?: GitRunner;
  /** The repository's git dir and work tree, given rather than discovered from `cwd` (a worktree pinned at creation). */
  readonly repo?: PinnedRepo;
  /**
   * The git dir is the daemon's own (`GIT_DIR` in `env`, written by snapshot.ts with a config of
   * the daemon's): no repository config is read, so there is nothing to neutralise.
   */
  readonly sealed?: boolean;
}

export type GitErrorKind = 'git_missing' | 'git_timeout' | 'git_output_too_large' | 'git_host_unreachable';

/**
 * How a git process is started once its hardened argv and environment are built: the one thing
 * that differs between this machine and an agent's host (issue 43).
 */
export interface GitRunner {
  /**
   * The file `GIT_CONFIG_GLOBAL` names where git runs: on this machine the daemon's allowlist of
   * the person's keys (`daemonGlobalConfig`); on a host, `/dev/null` (nothing of the remote
   * user's global config is read: no alias, helper or hooks folder it may name).
   */
  globalConfig(binary: string | undefined): Promise<string>;
  /**
   * Runs `git` (or `options.binary`) with `argv` (already hardened), in `options.cwd`, with the
   * hardened variables `env` on top of the place's own environment minus what `hardenedEnv`
   * drops. Resolves with the exit code and output; throws only a `GitError`.
   */
  run(
    argv: readonly string[],
    env: Readonly<Record<string, string>>,
    options: GitOptions,
    what: string | undefined,
  ): Promise<GitResult>;
}

export class GitError extends Error {
  constructor(
    readonly kind: GitErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** Where a repository's git data is, as recorded by the daemon (never re-read from a `.git` file). */
export interface PinnedRepo {
  /** The work tree's git dir (`<common>/worktrees/<name>` for a linked worktree). */
  readonly gitDir: string;
  /** The repository's common git dir (objects, refs, config). */
  readonly commonDir: string;
  readonly workTree: string;
}

/**
 * Overrides of every fixed-name key that makes git run a program (or reach the network, which
 * runs credential helpers and ssh): fsmonitor, hooks (every hook: commit, merge, reference-
 * transaction, post-index-change …), pager, editor, external diff, gpg signing and signature
 * checks, submodule recursion (it runs git with the submodule's own config), auto-gc (a detached
 * `git gc`/maintenance) and every transport (`protocol.allow=never`: the daemon never fetches).
 */
const FIXED_OVERRIDES: readonly string[] = [
  'core.quotepath=off',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  'credential.helper=',
  'core.sshCommand=',
  'core.gitProxy=',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'merge.verifySignatures=false',
  'log.showSignature=false',
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  'fetch.recurseSubmodules=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'protocol.allow=never',
].flatMap((kv) => ['-c', kv]);

/** Commands that read or write the work tree (filters, drivers): the repository's own keys are neutralised first. */
const WORK_TREE_COMMANDS = new Set([
  'add',
  'checkout',
  'clean',
  'commit',
  'diff',
  'log',
  'merge',
  'read-tree',
  'reset',
  'restore',
  'show',
  'stash',
  'status',
  'switch',
  'worktree add',
  'worktree remove',
  'write-tree',
]);

/** A config key (as `git config --list` prints it) whose value is a program git may run. */
const PROGRAM_KEY =
  /^(pager\.|alias\.)|\.(command|cmd|program|textconv|driver|clean|smudge|process|editor|pager|sshcommand|askpass|helper|hookspath|fsmonitor|external|gitproxy|defaultkeycommand|receivepack|uploadpack|proxy|packobjectshook|alternaterefscommand)$/i;

/** Inherited variables kept: the commit identity (it names, it runs nothing). Every other `GIT_*` is dropped. */
export const KEPT_GIT_ENV: readonly string[] = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
];

/** Whether an inherited variable is dropped from git's environment (every `GIT_*` but the identity, a pager, an askpass). */
export const droppedFromGitEnv = (name: string): boolean =>
  (name.startsWith('GIT_') && !KEPT_GIT_ENV.includes(name)) || name === 'SSH_ASKPASS' || name === 'PAGER';

/** This process's environment as git on this machine inherits it (`droppedFromGitEnv` left out). */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !droppedFromGitEnv(k)) env[k] = v;
  return env;
}

/** The variables every daemon git call sets, wherever it runs (on top of the inherited ones). */
function hardenedEnv(globalConfig: string): Record<string, string> {
  return {
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_PROTOCOL_FROM_USER: '0',
  };
}

function repoEnv(repo: PinnedRepo | undefined): Record<string, string> {
  return repo === undefined
    ? {}
    : { GIT_DIR: repo.gitDir, GIT_COMMON_DIR: repo.commonDir, GIT_WORK_TREE: repo.workTree };
}

/** Commands that write files or objects from the work tree: a filter or merge driver would change what they write. */
const WRITING_COMMANDS = new Set([
  'add',
  'checkout',
  'commit',
  'merge',
  'read-tree',
  'reset',
  'restore',
  'stash',
  'switch',
  'worktree add',
]);

/** The command as the sets above name it (`worktree add`, `status`). */
const commandOf = (args: readonly string[]): string =>
  args[0] === 'worktree' ? `worktree ${args[1] ?? ''}` : (args[0] ?? '');

/** Drivers whose output is the content git writes: switched off, they would change it silently (a raw file committed for a filtered one, "ours" for a merged one). */
const CONTENT_KEY = /^(filter\..*\.(clean|smudge|process)|merge\..*\.driver)$/i;

/**
 * The `-c` overrides that neutralise every program-naming key of the effective config (see the
 * file comment), or why the command is refused: a key that cannot be overridden on a command line
 * (a `=` in its name), or a filter or merge driver before a command that writes (emptied, the
 * driver would change what is committed or checked out, so the person decides: the message names
 * the key). Only display drivers (textconv, diff commands, pagers) are simply emptied.
 */
async function neutralise(
  args: readonly string[],
  options: GitOptions,
): Promise<{ args: string[] } | { refuse: string }> {
  const r = await spawnGit(['config', '--list', '-z'], { ...options, timeoutMs: 10_000 });
  // Outside a repository (or an unreadable config) the command itself answers why.
  if (r.code !== 0) return { args: [] };
  const writes = WRITING_COMMANDS.has(commandOf(args));
  const out: string[] = [];
  for (const entry of r.stdout.split('\0')) {
    const key = entry.split('\n', 1)[0] as string;
    const program = PROGRAM_KEY.test(key);
    const required = /^filter\..*\.required$/i.test(key);
    if (!program && !required) continue;
    if (writes && CONTENT_KEY.test(key))
      return {
        refuse: `the repository's git config sets "${key}", a program git would run on its files, and AgentTeam runs no program a repository names (an agent may have written it). If you set it yourself, run "git ${commandOf(args)}" there by hand, or remove it (git config --unset "${key}") and try again`,
      };
    if (key.includes('='))
      return {
        refuse: `the repository's git config has "${key}", a key naming a program that cannot be switched off for the daemon's git: remove it (git config --unset "${key}") and try again`,
      };
    out.push('-c', required ? `${key}=false` : `${key}=`);
  }
  return { args: out };
}

/** Runs `git <args>` in `options.cwd`. Resolves with its exit code and output; see the file comment for what throws. */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  let extra: string[] = [];
  if (!options.sealed && WORK_TREE_COMMANDS.has(commandOf(args))) {
    const n = await neutralise(args, options);
    if ('refuse' in n) return { code: 128, stdout: '', stderr: `refused: ${n.refuse}` };
    extra = n.args;
  }
  return spawnGit([...extra, ...args], options);
}

async function spawnGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const runner = options.runner ?? LOCAL_GIT_RUNNER;
  const globalConfig = await runner.globalConfig(options.binary);
  const env = { ...hardenedEnv(globalConfig), ...repoEnv(options.repo), ...options.env };
  return runner.run(
    ['--no-pager', ...FIXED_OVERRIDES, ...args],
    env,
    options,
    args.find((a) => !a.includes('=') && a !== '-c'),
  );
}

/** Git on this machine: the hardened environment on top of this process's own (`inheritedEnv`). */
export const LOCAL_GIT_RUNNER: GitRunner = {
  globalConfig: (binary) => daemonGlobalConfig(binary),
  run: (argv, env, options, what) => spawnRaw(argv, options, { ...inheritedEnv(), ...env }, what),
};

/**
 * The person's global config keys the daemon's git keeps: who commits, what is ignored, how line
 * endings and file modes are read, which repositories of other users are safe. None names a
 * program; every other key of the person's global config (an alias, a credential helper, a
 * pager, a global hooks folder …) is left out, so results on an ordinary repository stay the same.
 */
const PERSON_KEYS =
  /^(user\.(name|email)|core\.(excludesfile|attributesfile|autocrlf|eol|safecrlf|filemode|symlinks|ignorecase|precomposeunicode|checkroundtripencoding|longpaths|trustctime|checkstat)|init\.defaultbranch|safe\.directory|diff\.(renames|renamelimit|algorithm)|status\.renames|merge\.conflictstyle)$/i;

let configHome: string | null = null;
const globals = new Map<string, Promise<string>>();

/** A config value as a config file line's quoted value. */
const quoted = (v: string): string =>
  `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;

const fileStamp = (path: string): string => {
  try {
    const st = statSync(path);
    return `${path}:${st.mtimeMs}:${st.size}`;
  } catch {
    return `${path}:none`;
  }
};

/** A config file holding `entries` as `git config --list -z` prints them (`key\nvalue`; two-part keys). */
export function configFileText(entries: readonly string[]): string {
  const sections = new Map<string, string[]>();
  for (const entry of entries) {
    const nl = entry.indexOf('\n');
    const key = nl === -1 ? entry : entry.slice(0, nl);
    const dot = key.indexOf('.');
    if (dot <= 0 || key.indexOf('.', dot + 1) !== -1) continue;
    const section = key.slice(0, dot);
    const lines = sections.get(section) ?? [];
    // A key without a value (`[core] filemode`) is true.
    lines.push(`\t${key.slice(dot + 1)} = ${quoted(nl === -1 ? 'true' : entry.slice(nl + 1))}`);
    sections.set(section, lines);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
}

/**
 * The global config file the daemon's git reads (`GIT_CONFIG_GLOBAL`): the `PERSON_KEYS` of the
 * person's own global config, written once per version of that config (its files' stamps).
 */
async function daemonGlobalConfig(binary: string | undefined): Promise<string> {
  const home = process.env.HOME ?? homedir();
  const xdg = process.env.XDG_CONFIG_HOME ?? join(home, '.config');
  const files =
    process.env.GIT_CONFIG_GLOBAL !== undefined
      ? [process.env.GIT_CONFIG_GLOBAL]
      : [join(home, '.gitconfig'), join(xdg, 'git', 'config')];
  const signature = [binary ?? 'git', home, xdg, ...files.map(fileStamp)].join('\0');
  let path = globals.get(signature);
  if (path === undefined) {
    path = writeDaemonGlobalConfig(binary, globals.size);
    globals.set(signature, path);
  }
  return path;
}

async function writeDaemonGlobalConfig(binary: string | undefined, n: number): Promise<string> {
  if (configHome === null) {
    const dir = mkdtempSync(join(tmpdir(), 'agentteam-git-'));
    configHome = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  // Reading the person's global config runs nothing (the same hardened environment, with the
  // person's global file and nothing else: no repository is looked at with `--global`).
  const env = { ...inheritedEnv(), ...hardenedEnv('/dev/null') };
  if (process.env.GIT_CONFIG_GLOBAL === undefined) delete env.GIT_CONFIG_GLOBAL;
  else env.GIT_CONFIG_GLOBAL = process.env.GIT_CONFIG_GLOBAL;
  const r = await spawnRaw(['config', '--global', '--list', '-z'], { cwd: tmpdir(), binary, timeoutMs: 10_000 }, env);
  const text =
    r.code === 0
      ? configFileText(r.stdout.split('\0').filter((e) => PERSON_KEYS.test(e.split('\n', 1)[0] as string)))
      : '';
  const path = join(configHome, `global-${n}.gitconfig`);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/**
 * The process itself. Only `writeDaemonGlobalConfig` calls it directly (to read the person's
 * global config, a read that runs nothing); everything else goes through `runGit`.
 */
function spawnRaw(
  args: readonly string[],
  options: GitOptions,
  env: Readonly<Record<string, string>>,
  /** The command, for messages. */
  what = args[0],
): Promise<GitResult> {
  return runBounded({ program: options.binary ?? 'git', args, cwd: options.cwd, env }, options, what);
}

/** The process a runner starts: git itself here, `ssh` for a host (its remote command runs git). */
export interface GitProcess {
  readonly program: string;
  readonly args: readonly string[];
  /** The folder the process starts in on this machine. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Runs one process to its end with `options`' input, output bound and timeout (what every git
 * call is held to, wherever it runs): its exit code and output, or a `GitError` saying which bound.
 */
export function runBounded(p: GitProcess, options: GitOptions, what: string | undefined): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const binary = p.program;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, p.args, {
      cwd: p.cwd,
      env: p.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let failure: GitError | null = null;
    const stop = (e: GitError): void => {
      if (failure) return;
      failure = e;
      child.kill('SIGKILL');
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        stop(
          new GitError(
            'git_output_too_large',
            `git ${what ?? ''} printed more than ${maxBytes} bytes in ${options.cwd}`,
          ),
        );
        return;
      }
      into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const timer = setTimeout(
      () => stop(new GitError('git_timeout', `git ${what ?? ''} took longer than ${timeoutMs} ms in ${options.cwd}`)),
      timeoutMs,
    );
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ENOENT'
          ? new GitError(
              'git_missing',
              `git was not found (${binary}): install git ${MIN_GIT_VERSION.major}.${MIN_GIT_VERSION.minor} or newer`,
            )
          : e,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.on('error', () => {
      // git may exit before reading its input; its exit code says what happened.
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface GitVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly text: string;
}

/** `git version 2.39.5` (and vendor suffixes like `.windows.1` or ` (Apple Git-146)`) → numbers, else null. */
export function parseGitVersion(output: string): GitVersion | null {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0), text: `${m[1]}.${m[2]}.${m[3] ?? 0}` };
}

/** Whether `v` is at least MIN_GIT_VERSION. */
export function gitVersionSupported(v: GitVersion): boolean {
  return v.major > MIN_GIT_VERSION.major || (v.major === MIN_GIT_VERSION.major && v.minor >= MIN_GIT_VERSION.minor);
}

/** The installed git's version, or a `GitError('git_missing')`. */
export async function gitVersion(
  options: Pick<GitOptions, 'binary' | 'cwd'> = { cwd: process.cwd() },
): Promise<GitVersion> {
  const r = await runGit(['--version'], { ...options, timeoutMs: 10_000 });
  const v = parseGitVersion(r.stdout);
  if (r.code !== 0 || !v)
    throw new GitError('git_missing', `git --version did not answer a version: ${r.stderr.trim() || r.stdout.trim()}`);
  return v;
}

/** The top of the work tree that contains `cwd`, or null when `cwd` is not inside a git work tree. */
export async function workTreeRoot(cwd: string, binary?: string, runner?: GitRunner): Promise<string | null> {
  // The shortcut reads this machine's folders: on an agent's host, git answers.
  if (runner === undefined && !mayBeInRepository(cwd)) return null;
  const r = await runGit(['rev-parse', '--show-toplevel'], {
    cwd,
    ...(binary ? { binary } : {}),
    ...(runner ? { runner } : {}),
    timeoutMs: 10_000,
  });
  return r.code === 0 ? r.stdout.trim() : null;
}

/**
 * issue 30: whether git could find a repository from `cwd` at all — a `.git` (folder or file) in
 * it or a folder above it, or a repository named by the environment. When there is none, `git
 * rev-parse` could only say so, and each spawn cost the daemon's main thread 5–15 ms of CPU under
 * a busy team (bench/PROFILES.md, busy-team: a workspace outside git was asked at every wake's
 * start and end); the answer is the same without it. Conservative: a `.git` found still asks git.
 */
function mayBeInRepository(cwd: string): boolean {
  // An inherited GIT_DIR is not followed (runGit drops it, issue 41): only a `.git` counts.
  // existsSync: no promise and no ENOENT error built per missing folder (the promise `access` of
  // each level cost ~1.5 ms of main-thread CPU per wake, mostly in building those errors).
  for (let dir = resolve(cwd); ;) {
    if (isGitEntry(join(dir, '.git'))) return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

/**
 * A `.git` git itself would take: a file (a linked worktree's `gitdir:` pointer) or a folder with a
 * `HEAD`. An empty `.git` folder is not one — Codex's Linux sandbox leaves such folders in every
 * writable root it protects (`/tmp/.git` after any sandboxed Codex turn), and taking them for a
 * repository sent every workspace under that root back to spawning git (and a missing git binary
 * became an error outside any repository).
 */
function isGitEntry(path: string): boolean {
  // One stat per folder walked up, and no error built when there is no `.git` (the usual answer at
  // every level but one): a thrown ENOENT per level was ~3 % of the daemon's main thread under a
  // busy team (bench/PROFILES.md, issue 39), and the `HEAD` check is needed only for a folder.
  try {
    const entry = statSync(path, { throwIfNoEntry: false });
    if (entry === undefined) return false;
    return entry.isFile() || (entry.isDirectory() && existsSync(join(path, 'HEAD')));
  } catch {
    // Not readable (a folder above it denies search): git could not use it either.
    return false;
  }
}
