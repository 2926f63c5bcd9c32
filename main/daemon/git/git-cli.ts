/**
 * The one way the daemon runs git (issue 26: "Git is a real dependency … No reimplementation of
 * git"). Every call is the distribution's `git` binary with an argument array (never a shell),
 * no prompt (`GIT_TERMINAL_PROMPT=0`), untranslated messages (`LC_ALL=C`, so a caller may read
 * them), paths unquoted (`core.quotepath=off`), a bounded output and a timeout. A call that fails
 * is an answer (`code`, `stderr`), not an exception: only a missing git binary, a timeout or an
 * oversized output throw a `GitError` saying which.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
}

export type GitErrorKind = 'git_missing' | 'git_timeout' | 'git_output_too_large';

export class GitError extends Error {
  constructor(
    readonly kind: GitErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** Runs `git <args>` in `options.cwd`. Resolves with its exit code and output; see the file comment for what throws. */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const binary = options.binary ?? 'git';
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-c', 'core.quotepath=off', ...args], {
      cwd: options.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', ...options.env },
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
            `git ${args[0] ?? ''} printed more than ${maxBytes} bytes in ${options.cwd}`,
          ),
        );
        return;
      }
      into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const timer = setTimeout(
      () =>
        stop(new GitError('git_timeout', `git ${args[0] ?? ''} took longer than ${timeoutMs} ms in ${options.cwd}`)),
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
export async function workTreeRoot(cwd: string, binary?: string): Promise<string | null> {
  if (!mayBeInRepository(cwd)) return null;
  const r = await runGit(['rev-parse', '--show-toplevel'], { cwd, ...(binary ? { binary } : {}), timeoutMs: 10_000 });
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
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return true;
  // existsSync: no promise and no ENOENT error built per missing folder (the promise `access` of
  // each level cost ~1.5 ms of main-thread CPU per wake, mostly in building those errors).
  for (let dir = resolve(cwd); ;) {
    if (existsSync(join(dir, '.git'))) return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
