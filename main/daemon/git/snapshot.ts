/**
 * issue 26 "the changes of every wake": a snapshot of a working tree as a git tree object, taken
 * without touching the person's index, stash or refs. The tree is written through a temporary
 * `GIT_INDEX_FILE` (seeded from a copy of the checkout's own index — read, never written — so git
 * reuses its stat cache and hashes only what changed; from `HEAD` or empty when there is none),
 * then `git add -A` + `git write-tree`. The only thing it adds to the repository is objects
 * (blobs and trees, unreferenced until `git gc` prunes them), which no `git status` shows.
 * Ignored files (`.gitignore`) are not part of a snapshot. issue 41: in a git dir of the daemon's
 * own, never with the repository's config (`sealedView`). issue 43: on the machine the work tree
 * is on (`host`: this one, or an agent's host over SSH — the sealed git dir is made there too).
 */
import { join, resolve } from 'node:path';
import { configFileText, runGit, type GitResult, type PinnedRepo } from './git-cli.js';
import { LOCAL_GIT_HOST, type GitHost } from './git-host.js';

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

export interface SnapshotOptions {
  readonly binary?: string;
  /** Where the work tree is (default: this machine). */
  readonly host?: GitHost;
  /** The worktree's git dir as pinned at its creation (worktrees/worktree-service.ts), not its `.git` file. */
  readonly repo?: PinnedRepo;
}

function check(r: GitResult, what: string, root: string): string {
  if (r.code !== 0) throw new SnapshotError(`git ${what} failed in ${root}: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout.trim();
}

/**
 * The repository config keys a snapshot honours: how files are read into blobs (line endings,
 * modes, symlinks, case), what is ignored, the object format, how renames are found and hunks cut
 * (diff.ts). None names a program.
 */
const SNAPSHOT_KEYS =
  /^(core\.(repositoryformatversion|autocrlf|eol|safecrlf|filemode|symlinks|ignorecase|precomposeunicode|protectntfs|protecthfs|checkroundtripencoding|excludesfile|attributesfile|checkstat|trustctime|bigfilethreshold)|extensions\.objectformat|diff\.(renames|renamelimit|algorithm|indentheuristic))$/i;

interface Layout {
  readonly index: string;
  readonly objects: string;
  readonly exclude: string;
  readonly attributes: string;
  /** The daemon's config for the sealed git dir (`SNAPSHOT_KEYS` of the repository's). */
  readonly config: string;
  /** The files whose change means the layout must be read again, and their stamps when it was read. */
  readonly stampFiles: readonly string[];
  readonly stamp: string;
}

/** Per work tree: its layout as last read, reused while the stamps of its `.git` and config files are the same. */
const layouts = new Map<string, Layout>();

/**
 * Where the repository of `root` keeps its index, objects, excludes and attributes, and the
 * config for the sealed view — two git calls (`rev-parse`, `config --list`: reads, run through
 * the hardened runner), remembered until the `.git` entry or a config file changes (issue 30: a
 * spawn is most of a snapshot's cost). A config that includes other files is read every time.
 */
async function repositoryLayout(root: string, options: SnapshotOptions): Promise<Layout> {
  const host = options.host ?? LOCAL_GIT_HOST;
  const key = `${host.key}\0${root}\0${options.repo?.gitDir ?? ''}`;
  const known = layouts.get(key);
  const dotGit = options.repo?.gitDir ?? join(root, '.git');
  if (known !== undefined && (await host.fs.stamp(known.stampFiles)) === known.stamp) return known;
  const bin = options.binary === undefined ? {} : { binary: options.binary };
  const at = {
    cwd: root,
    runner: host.runner,
    ...bin,
    ...(options.repo === undefined ? {} : { repo: options.repo }),
    timeoutMs: 10_000,
  };
  const paths = ['index', 'objects', 'info/exclude', 'info/attributes', 'config', 'config.worktree'];
  const [where, config] = await Promise.all([
    runGit(['rev-parse', ...paths.flatMap((p) => ['--git-path', p])], at),
    runGit(['config', '--list', '-z'], at),
  ]);
  const [index, objects, exclude, attributes, configFile, worktreeConfig] = check(where, 'rev-parse --git-path', root)
    .split('\n')
    .map((p) => resolve(root, p)) as [string, string, string, string, string, string];
  const entries = config.code === 0 ? config.stdout.split('\0') : [];
  const keys = entries.filter((e) => SNAPSHOT_KEYS.test(e.split('\n', 1)[0] as string));
  const layout = {
    index,
    objects,
    exclude,
    attributes,
    config: configFileText(keys),
    stampFiles: [dotGit, configFile, worktreeConfig],
    stamp: await host.fs.stamp([dotGit, configFile, worktreeConfig]),
  };
  if (!entries.some((e) => /^include(if)?\./i.test(e))) layouts.set(key, layout);
  return layout;
}

/**
 * issue 41: the snapshot runs while the agent works, in a repository it can write, so it never
 * reads the repository's config (no fsmonitor, filter driver, hook or include can be named to
 * it, and nothing can change between a check and the command). Its git dir is the daemon's own,
 * a temporary folder: a config the daemon wrote from `SNAPSHOT_KEYS` of the repository's config
 * (read, never executed), the repository's `info/exclude` and `info/attributes` copied (so the
 * same files are ignored and converted as before), the work tree given (`GIT_WORK_TREE`) and the
 * objects written where they always were, in the repository's object store (`GIT_OBJECT_DIRECTORY`),
 * so trees compare with its commits. `.gitattributes` may still name a filter: with no driver in
 * this config, git applies none.
 */
async function sealedView(
  root: string,
  options: SnapshotOptions,
  dir: string,
  withIndex = true,
): Promise<{ readonly env: Record<string, string>; readonly seeded: boolean }> {
  const { fs } = options.host ?? LOCAL_GIT_HOST;
  const { index, objects, exclude, attributes, config } = await repositoryLayout(root, options);
  const gitDir = join(dir, 'git');
  const env = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_OBJECT_DIRECTORY: objects,
    GIT_INDEX_FILE: join(dir, 'index'),
  };
  // issue 43: on a host each step is a round trip over SSH, so the steps that can run together do.
  await fs.mkdir(join(gitDir, 'info'), join(gitDir, 'refs'));
  const [, , , , seeded] = await Promise.all([
    fs.writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/snapshot\n'),
    fs.writeFile(join(gitDir, 'config'), config),
    fs.copyFile(exclude, join(gitDir, 'info', 'exclude')),
    fs.copyFile(attributes, join(gitDir, 'info', 'attributes')),
    // The person's index, copied (read, never written), so git reuses its stat cache — with its own
    // mtime (`copyFile` keeps times): git trusts an entry's stat data only when the file is older
    // than the index, so a copy dated now would hide an edit of the same size made in the index's
    // last clock tick ("racy git").
    withIndex ? fs.copyFile(index, env.GIT_INDEX_FILE) : Promise.resolve(false),
  ]);
  return { env, seeded };
}

/**
 * Runs `fn` with the environment of a sealed view of `root`'s repository (no index): how the
 * changes between two snapshots are diffed (diff.ts), with the same attributes and no repository
 * config, so no diff driver, textconv or external diff can be named to it.
 */
export async function inSealedView<T>(
  root: string,
  options: SnapshotOptions,
  fn: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { fs } = options.host ?? LOCAL_GIT_HOST;
  const dir = await fs.tempDir('agentteam-sealed-');
  try {
    return await fn((await sealedView(root, options, dir, false)).env);
  } finally {
    await fs.rm(dir);
  }
}

/** The tree of `root`'s working tree now (tracked and untracked files, not ignored ones). */
export async function snapshotWorkTree(root: string, options: SnapshotOptions = {}): Promise<TreeSnapshot> {
  const host = options.host ?? LOCAL_GIT_HOST;
  const bin = { runner: host.runner, ...(options.binary === undefined ? {} : { binary: options.binary }) };
  const pin = options.repo === undefined ? {} : { repo: options.repo };
  const dir = await host.fs.tempDir('agentteam-snapshot-');
  try {
    const view = await sealedView(root, options, dir);
    const { env } = view;
    const sealed = { cwd: root, env, ...bin, sealed: true };
    const seed = async () => {
      // From HEAD (read in the repository: a ref, no work tree) or empty when there is none.
      const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: root, ...bin, ...pin });
      const args = head.code === 0 ? ['read-tree', head.stdout.trim()] : ['read-tree', '--empty'];
      check(await runGit(args, sealed), args.join(' '), root);
    };
    let seeded = view.seeded;
    if (!seeded) await seed();
    let add = await runGit(['add', '-A', '--', '.'], sealed);
    if (add.code !== 0 && seeded) {
      // An index this view cannot read (a split index keeps its other half in the git dir): start from HEAD.
      seeded = false;
      await host.fs.rm(env.GIT_INDEX_FILE as string);
      await seed();
      add = await runGit(['add', '-A', '--', '.'], sealed);
    }
    check(add, 'add -A', root);
    const tree = check(await runGit(['write-tree'], sealed), 'write-tree', root);
    return { root, tree };
  } finally {
    await host.fs.rm(dir);
  }
}

/** The commit `base` and the work tree's `HEAD` share (where "changes since base" start), or null. */
export async function mergeBase(root: string, base: string, options: SnapshotOptions = {}): Promise<string | null> {
  const bin = options.binary === undefined ? {} : { binary: options.binary };
  const pin = options.repo === undefined ? {} : { repo: options.repo };
  const runner = (options.host ?? LOCAL_GIT_HOST).runner;
  const r = await runGit(['merge-base', base, 'HEAD'], { cwd: root, runner, ...bin, ...pin, timeoutMs: 10_000 });
  return r.code === 0 ? r.stdout.trim() : null;
}
