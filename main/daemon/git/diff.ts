/**
 * issue 26: what changed between two trees of one repository, as git reports it — the file list
 * from `git diff --name-status -z` and `--numstat -z` (git's machine formats, NUL-separated), and
 * each file's patch from `git diff` itself. Bounded: a binary file, a file whose change exceeds
 * `maxFileLines` / `maxFileBytes`, or the files beyond `maxFiles` / `maxTotalBytes` are listed
 * with their counts and the reason their patch is not inlined. The patch text is read by the
 * renderer's diff parser (gitdiff-parser); nothing here parses hunks.
 */
import type { ChangeStatus, PatchOmission } from '../../../shared/changes.js';
import { runGit, type GitRunner } from './git-cli.js';
import { inSealedView, type SnapshotOptions } from './snapshot.js';

export interface ChangedFile {
  readonly path: string;
  /** The path before a rename or copy; null otherwise. */
  readonly oldPath: string | null;
  readonly status: ChangeStatus;
  /** Lines added / removed; null for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
  readonly binary: boolean;
  /** The file's `git diff` (headers and hunks), or null with `omitted` saying why. */
  readonly patch: string | null;
  readonly omitted: PatchOmission | null;
}

export interface DiffBounds {
  readonly maxFiles: number;
  readonly maxFileLines: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

export const DEFAULT_DIFF_BOUNDS: DiffBounds = {
  maxFiles: 200,
  maxFileLines: 5_000,
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 2 * 1024 * 1024,
};

const STATUS_LETTERS: Readonly<Record<string, ChangeStatus>> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
};

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--find-renames'] as const;

async function git(
  root: string,
  args: readonly string[],
  at: { binary?: string; runner?: GitRunner },
  env: Record<string, string>,
): Promise<string> {
  // issue 41: in a sealed view of the repository (snapshot.ts): its config is never read.
  const r = await runGit(args, { cwd: root, env, sealed: true, ...at });
  if (r.code !== 0) throw new Error(`git ${args.slice(0, 2).join(' ')} failed in ${root}: ${r.stderr.trim()}`);
  return r.stdout;
}

interface Entry {
  path: string;
  oldPath: string | null;
  status: ChangeStatus;
}

/** `--name-status -z`: `X\0path\0`, or `R<score>\0old\0new\0` for a rename / copy. */
function nameStatus(out: string): Entry[] {
  const parts = out.split('\0');
  const entries: Entry[] = [];
  for (let i = 0; i + 1 < parts.length;) {
    const code = parts[i] as string;
    const letter = code.charAt(0);
    const status = STATUS_LETTERS[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      entries.push({ oldPath: parts[i + 1] as string, path: parts[i + 2] as string, status });
      i += 3;
    } else {
      entries.push({ oldPath: null, path: parts[i + 1] as string, status });
      i += 2;
    }
  }
  return entries;
}

/** `--numstat -z`: `added\tremoved\tpath\0`, or `added\tremoved\t\0old\0new\0`; `-\t-` for binary. */
function numstat(out: string): Map<string, { added: number | null; removed: number | null }> {
  const parts = out.split('\0');
  const counts = new Map<string, { added: number | null; removed: number | null }>();
  for (let i = 0; i < parts.length;) {
    const head = parts[i] as string;
    if (head === '') {
      i += 1;
      continue;
    }
    const [a, r, path] = head.split('\t') as [string, string, string];
    const value = { added: a === '-' ? null : Number(a), removed: r === '-' ? null : Number(r) };
    if (path === '') {
      counts.set(parts[i + 2] as string, value);
      i += 3;
    } else {
      counts.set(path, value);
      i += 1;
    }
  }
  return counts;
}

/** The files changed from tree-ish `from` to tree-ish `to` in `root`'s repository, with bounded patches. */
export async function diffTrees(
  root: string,
  from: string,
  to: string,
  bounds: DiffBounds = DEFAULT_DIFF_BOUNDS,
  options: SnapshotOptions = {},
): Promise<ChangedFile[]> {
  const at = {
    ...(options.binary === undefined ? {} : { binary: options.binary }),
    ...(options.host === undefined ? {} : { runner: options.host.runner }),
  };
  return inSealedView(root, options, (env) => diffIn(root, from, to, bounds, at, env));
}

async function diffIn(
  root: string,
  from: string,
  to: string,
  bounds: DiffBounds,
  binary: { binary?: string; runner?: GitRunner },
  env: Record<string, string>,
): Promise<ChangedFile[]> {
  const [names, stats] = await Promise.all([
    git(root, ['diff', ...DIFF_FLAGS, '--name-status', '-z', from, to], binary, env),
    git(root, ['diff', ...DIFF_FLAGS, '--numstat', '-z', from, to], binary, env),
  ]);
  const counts = numstat(stats);
  let total = 0;
  const files: ChangedFile[] = [];
  for (const [i, e] of nameStatus(names).entries()) {
    const c = counts.get(e.path) ?? { added: null, removed: null };
    const isBinary = c.added === null;
    const base = { ...e, added: c.added, removed: c.removed, binary: isBinary };
    let omitted: PatchOmission | null = null;
    if (isBinary) omitted = 'binary';
    else if ((c.added ?? 0) + (c.removed ?? 0) > bounds.maxFileLines) omitted = 'too_large';
    else if (i >= bounds.maxFiles || total >= bounds.maxTotalBytes) omitted = 'too_many_files';
    if (omitted !== null) {
      files.push({ ...base, patch: null, omitted });
      continue;
    }
    const paths = e.oldPath === null ? [e.path] : [e.oldPath, e.path];
    const patch = await git(root, ['diff', ...DIFF_FLAGS, from, to, '--', ...paths], binary, env);
    const bytes = Buffer.byteLength(patch);
    if (bytes > bounds.maxFileBytes) files.push({ ...base, patch: null, omitted: 'too_large' });
    else if (total + bytes > bounds.maxTotalBytes) files.push({ ...base, patch: null, omitted: 'too_many_files' });
    else {
      total += bytes;
      files.push({ ...base, patch, omitted: null });
    }
  }
  return files;
}
