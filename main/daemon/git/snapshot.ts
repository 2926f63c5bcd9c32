/**
 * issue 26 "the changes of every wake": a snapshot of a working tree as a git tree object, taken
 * without touching the person's index, stash or refs. The tree is written through a temporary
 * `GIT_INDEX_FILE` (seeded from a copy of the checkout's own index — read, never written — so git
 * reuses its stat cache and hashes only what changed; from `HEAD` or empty when there is none),
 * then `git add -A` + `git write-tree`. The only thing it adds to the repository is objects
 * (blobs and trees, unreferenced until `git gc` prunes them), which no `git status` shows.
 * Ignored files (`.gitignore`) are not part of a snapshot.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { runGit, type GitResult } from './git-cli.js';

/** A snapshot of a work tree: the tree object id, in the repository of `root`. */
export interface TreeSnapshot {
  readonly root: string;
  readonly tree: string;
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

interface SnapshotOptions {
  readonly binary?: string;
}

function check(r: GitResult, what: string, root: string): string {
  if (r.code !== 0) throw new SnapshotError(`git ${what} failed in ${root}: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout.trim();
}

/** The tree of `root`'s working tree now (tracked and untracked files, not ignored ones). */
export async function snapshotWorkTree(root: string, options: SnapshotOptions = {}): Promise<TreeSnapshot> {
  const bin = options.binary === undefined ? {} : { binary: options.binary };
  const indexPath = check(
    await runGit(['rev-parse', '--git-path', 'index'], { cwd: root, ...bin, timeoutMs: 10_000 }),
    'rev-parse --git-path index',
    root,
  );
  const personIndex = isAbsolute(indexPath) ? indexPath : resolve(root, indexPath);
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-snapshot-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    const seeded = await copyFile(personIndex, env.GIT_INDEX_FILE).then(
      () => true,
      () => false,
    );
    if (!seeded) {
      const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: root, ...bin });
      const seed = head.code === 0 ? ['read-tree', head.stdout.trim()] : ['read-tree', '--empty'];
      check(await runGit(seed, { cwd: root, env, ...bin }), seed.join(' '), root);
    }
    check(await runGit(['add', '-A', '--', '.'], { cwd: root, env, ...bin }), 'add -A', root);
    const tree = check(await runGit(['write-tree'], { cwd: root, env, ...bin }), 'write-tree', root);
    return { root, tree };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The commit `base` and the work tree's `HEAD` share (where "changes since base" start), or null. */
export async function mergeBase(root: string, base: string, options: SnapshotOptions = {}): Promise<string | null> {
  const bin = options.binary === undefined ? {} : { binary: options.binary };
  const r = await runGit(['merge-base', base, 'HEAD'], { cwd: root, ...bin, timeoutMs: 10_000 });
  return r.code === 0 ? r.stdout.trim() : null;
}
