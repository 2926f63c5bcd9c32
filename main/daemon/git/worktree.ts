/**
 * issue 26: the git mechanics of an agent's worktree — find the repository, make / reuse /
 * repair a linked worktree, list what it changed, merge it into its base, reset it to its base.
 * Every call goes through `runGit` (git-cli.ts); the rules (which agent, when, which message) are
 * the worktree service's (worktrees/worktree-service.ts). Every function answers a result a person
 * can act on; only a missing git binary or a timeout throws (`GitError`). issue 43: each step runs
 * where the repository is — this machine, or an agent's host (`host`, git-host.ts).
 */
import { dirname, join, resolve } from 'node:path';
import { runGit, type GitResult, type PinnedRepo } from './git-cli.js';
import { LOCAL_GIT_HOST, type GitHost } from './git-host.js';

/** One entry of `git worktree list --porcelain`. */
export interface WorktreeEntry {
  readonly path: string;
  readonly head: string | null;
  /** The branch checked out there (`main`, not `refs/heads/main`); null when detached or bare. */
  readonly branch: string | null;
  readonly bare: boolean;
  /** Its folder is gone (git would prune it). */
  readonly prunable: boolean;
  readonly locked: boolean;
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = (message: string): { readonly ok: false; readonly message: string } => ({ ok: false, message });

const said = (r: GitResult): string => (r.stderr.trim() || r.stdout.trim()).split('\n').slice(0, 6).join(' ');

async function git(
  host: GitHost,
  args: readonly string[],
  cwd: string,
  env?: Record<string, string>,
  repo?: PinnedRepo,
): Promise<GitResult> {
  return runGit(args, {
    cwd,
    runner: host.runner,
    ...(env === undefined ? {} : { env }),
    ...(repo === undefined ? {} : { repo }),
  });
}

/**
 * issue 41: the git dir of the worktree `path` of the repository at `root`, to be stored and used
 * for every later call (`GIT_DIR`/`GIT_COMMON_DIR`, never the `.git` file an agent can rewrite).
 * Refused unless it is one of that repository's own worktrees (`<common dir>/worktrees/<name>`).
 */
export async function pinWorktree(
  root: string,
  path: string,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<PinnedRepo>> {
  const real = (p: string) => host.fs.real(p);
  const [mine, theirs] = await Promise.all([
    git(host, ['rev-parse', '--absolute-git-dir', '--git-common-dir'], path),
    git(host, ['rev-parse', '--git-common-dir'], root),
  ]);
  if (mine.code !== 0 || theirs.code !== 0)
    return fail(`could not read the git dir of ${path}: ${said(mine.code !== 0 ? mine : theirs)}`);
  const [gitDir = '', common = ''] = mine.stdout.split('\n');
  const pinned = {
    gitDir: await real(gitDir),
    commonDir: await real(resolve(path, common)),
    workTree: await real(path),
  };
  const repoCommon = await real(resolve(root, theirs.stdout.trim()));
  if (pinned.commonDir !== repoCommon || dirname(pinned.gitDir) !== join(repoCommon, 'worktrees'))
    return fail(
      `${path}/.git points at ${pinned.gitDir}, which is not a worktree of the repository ${root} (${repoCommon}): move ${path} away (nothing was deleted) and start the agent again`,
    );
  return ok(pinned);
}

/**
 * Whether the worktree's `.git` file still names its pinned git dir; else what changed and how to
 * restore it. git itself is never asked (it would follow the pointer).
 */
export async function pinProblem(pin: PinnedRepo, host: GitHost = LOCAL_GIT_HOST): Promise<string | null> {
  const file = join(pin.workTree, '.git');
  let now: string;
  const read = await host.fs.readSmallFile(file);
  if (read === null) now = (await host.fs.exists(file)) ? '(no longer a file)' : '(missing)';
  else {
    const text = read.trim();
    const target = text.startsWith('gitdir:') ? resolve(pin.workTree, text.slice('gitdir:'.length).trim()) : null;
    if (target !== null && (await host.fs.real(target)) === pin.gitDir) return null;
    now = JSON.stringify(text.slice(0, 200));
  }
  return `the worktree's ${file} no longer points at its git dir ${pin.gitDir} (it now holds ${now}), so git there would read another repository: nothing was done. Put "gitdir: ${pin.gitDir}" back into ${file} (or run "git worktree repair ${pin.workTree}" in the repository), then try again`;
}

/** Parses `git worktree list --porcelain` (the first entry is the main work tree). */
export function parseWorktreeList(output: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const block of output.split(/\n\n+/)) {
    const lines = block.split('\n').filter((l) => l !== '');
    const first = lines[0];
    if (first === undefined || !first.startsWith('worktree ')) continue;
    const field = (name: string): string | null => {
      const line = lines.find((l) => l === name || l.startsWith(`${name} `));
      return line === undefined ? null : line.slice(name.length + 1);
    };
    const branch = field('branch');
    entries.push({
      path: first.slice('worktree '.length),
      head: field('HEAD'),
      branch: branch === null ? null : branch.replace(/^refs\/heads\//, ''),
      bare: field('bare') !== null,
      prunable: field('prunable') !== null,
      locked: field('locked') !== null,
    });
  }
  return entries;
}

/** The repository `cwd` lies in: the top of its main work tree (the person's checkout). */
export interface Repository {
  /** The main work tree's top (real path). */
  readonly root: string;
  /** `cwd` relative to the top of the work tree it lies in ('' at the top). */
  readonly subdir: string;
}

/** The repository `cwd` lies in, or why not. */
export async function repositoryOf(cwd: string, host: GitHost = LOCAL_GIT_HOST): Promise<Outcome<Repository>> {
  const top = await git(host, ['rev-parse', '--show-toplevel', '--show-prefix'], cwd);
  if (top.code !== 0) return fail(`${cwd} is not inside a git repository (git: ${said(top)})`);
  const [, prefix = ''] = top.stdout.split('\n');
  const list = await worktrees(cwd, host);
  if (!list.ok) return list;
  const main = list.value[0];
  if (main === undefined || main.bare)
    return fail(`the repository of ${cwd} has no main work tree (a bare repository)`);
  return ok({ root: await host.fs.real(main.path), subdir: prefix.trim().replace(/\/$/, '') });
}

export async function worktrees(cwd: string, host: GitHost = LOCAL_GIT_HOST): Promise<Outcome<WorktreeEntry[]>> {
  const r = await git(host, ['worktree', 'list', '--porcelain'], cwd);
  if (r.code !== 0) return fail(`git worktree list failed in ${cwd}: ${said(r)}`);
  return ok(parseWorktreeList(r.stdout));
}

/** The branch checked out in `cwd`, or null when its HEAD is detached. */
export async function currentBranch(cwd: string, host: GitHost = LOCAL_GIT_HOST): Promise<string | null> {
  const r = await git(host, ['symbolic-ref', '--short', '-q', 'HEAD'], cwd);
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The commit of local branch `name`, or null when there is none. */
export async function branchCommit(root: string, name: string, host: GitHost = LOCAL_GIT_HOST): Promise<string | null> {
  const r = await git(host, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`], root);
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The base recorded for an agent's branch (`branch.<name>.agentteamBase`), or null. */
export async function recordedBase(
  root: string,
  branch: string,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<string | null> {
  const r = await git(host, ['config', '--get', `branch.${branch}.agentteamBase`], root);
  return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null;
}

async function recordBase(root: string, branch: string, base: string, host: GitHost): Promise<Outcome<void>> {
  const r = await git(host, ['config', `branch.${branch}.agentteamBase`, base], root);
  return r.code === 0 ? ok(undefined) : fail(`could not record the base of ${branch}: ${said(r)}`);
}

export interface WorktreeSpec {
  readonly root: string;
  /** The worktree's folder. */
  readonly path: string;
  readonly branch: string;
  readonly base: string;
}

/** What `ensureWorktree` did. */
export type EnsureAction = 'created' | 'reused' | 'repaired';

/**
 * Makes the worktree `spec.path` on `spec.branch` (from `spec.base` when the branch is new), or
 * reuses it. A worktree whose folder is gone is pruned and added again on its branch (its commits
 * are on the branch; nothing uncommitted can be lost: there is no folder). A folder that holds
 * something else, or the branch checked out elsewhere, is reported with its fix, never replaced.
 */
export async function ensureWorktree(
  spec: WorktreeSpec,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<EnsureAction>> {
  const { root, branch, base } = spec;
  const { fs } = host;
  const path = await fs.real(spec.path);
  let list = await worktrees(root, host);
  if (!list.ok) return list;
  let mine = list.value.find((w) => w.branch === branch);
  let repaired = false;
  if (mine !== undefined && (await fs.real(mine.path)) !== path && (await fs.exists(mine.path)) && !mine.prunable)
    return fail(
      `branch ${branch} is already checked out in ${mine.path}, not in ${path}: remove that worktree (git worktree remove ${mine.path}) or set "worktreesDir" back to the folder that holds it`,
    );
  if (mine !== undefined && (mine.prunable || !(await fs.exists(mine.path)))) {
    if (await fs.nonEmptyDir(path))
      return fail(
        `the worktree of ${branch} is missing from git's records but ${path} is not empty: move its contents away (nothing was deleted), then start the agent again`,
      );
    const pruned = await git(host, ['worktree', 'prune'], root);
    if (pruned.code !== 0) return fail(`git worktree prune failed in ${root}: ${said(pruned)}`);
    repaired = true;
    mine = undefined;
  }
  if (mine === undefined && (await fs.exists(join(path, '.git')))) {
    // A worktree git lost track of (its folder moved back, or the repository moved): `git worktree repair`.
    const fixed = await git(host, ['worktree', 'repair', path], root);
    if (fixed.code === 0) {
      list = await worktrees(root, host);
      if (!list.ok) return list;
      for (const w of list.value) if (w.branch === branch && (await fs.real(w.path)) === path) mine = w;
      if (mine !== undefined) repaired = true;
    }
    if (mine === undefined)
      return fail(
        `${path} holds a git checkout that is not the worktree of ${branch} in ${root}: move it away (nothing was deleted) or choose another "worktreesDir"`,
      );
  }
  if (mine !== undefined) {
    const top = await git(host, ['rev-parse', '--show-toplevel'], path);
    if (top.code !== 0 || (await fs.real(top.stdout.trim())) !== path)
      return fail(
        `the worktree ${path} of ${branch} is broken (git: ${said(top)}): run "git worktree repair ${path}" in ${root}, or move the folder away and start the agent again`,
      );
    return ok(repaired ? 'repaired' : 'reused');
  }
  if (await fs.nonEmptyDir(path))
    return fail(
      `${path} already exists and is not empty: move it away (nothing was deleted) or choose another "worktreesDir"`,
    );
  await fs.mkdir(dirname(path));
  const exists = (await branchCommit(root, branch, host)) !== null;
  if (!exists && (await branchCommit(root, base, host)) === null)
    return fail(`the base branch ${base} does not exist in ${root}: set "baseBranch" to one of its branches`);
  const add = await git(
    host,
    exists ? ['worktree', 'add', path, branch] : ['worktree', 'add', '-b', branch, path, base],
    root,
  );
  if (add.code !== 0) return fail(`git worktree add failed in ${root}: ${said(add)}`);
  const recorded = await recordBase(root, branch, base, host);
  if (!recorded.ok) return recorded;
  return ok(repaired ? 'repaired' : 'created');
}

/** One path `git status` lists (`XY` as git prints it). */
export interface ChangedPath {
  readonly path: string;
  readonly status: string;
}

/** The uncommitted changes of a work tree (tracked and untracked, ignored files left out). */
export async function uncommitted(
  cwd: string,
  options: { untracked?: boolean; repo?: PinnedRepo; host?: GitHost } = {},
): Promise<Outcome<ChangedPath[]>> {
  const r = await git(
    options.host ?? LOCAL_GIT_HOST,
    ['status', '--porcelain=v1', '-z', `--untracked-files=${options.untracked === false ? 'no' : 'all'}`],
    cwd,
    undefined,
    options.repo,
  );
  if (r.code !== 0) return fail(`git status failed in ${cwd}: ${said(r)}`);
  const out: ChangedPath[] = [];
  const fields = r.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f.length < 4) continue;
    const status = f.slice(0, 2);
    out.push({ path: f.slice(3), status });
    // A rename or copy is followed by its source path.
    if (status.startsWith('R') || status.startsWith('C')) i++;
  }
  return ok(out);
}

/** Commits of `branch` not on `base` (their subjects, newest first, at most `limit`). */
export async function commitsAhead(
  root: string,
  base: string,
  branch: string,
  host: GitHost = LOCAL_GIT_HOST,
  limit = 50,
): Promise<Outcome<string[]>> {
  const r = await git(host, ['log', '--format=%h %s', `-n${limit}`, `${base}..${branch}`], root);
  if (r.code !== 0) return fail(`git log ${base}..${branch} failed: ${said(r)}`);
  return ok(r.stdout.split('\n').filter((l) => l !== ''));
}

/** An identity for the daemon's own commits when the person's git has none configured. */
async function identityEnv(host: GitHost, cwd: string, repo?: PinnedRepo): Promise<Record<string, string>> {
  const email = await git(host, ['config', '--get', 'user.email'], cwd, undefined, repo);
  const name = await git(host, ['config', '--get', 'user.name'], cwd, undefined, repo);
  const env: Record<string, string> = {};
  if (email.code !== 0)
    Object.assign(env, { GIT_AUTHOR_EMAIL: 'agentteam@localhost', GIT_COMMITTER_EMAIL: 'agentteam@localhost' });
  if (name.code !== 0) Object.assign(env, { GIT_AUTHOR_NAME: 'AgentTeam', GIT_COMMITTER_NAME: 'AgentTeam' });
  return env;
}

/** Commits everything uncommitted in `cwd` with `message`; false when there was nothing to commit. */
export async function commitAll(
  cwd: string,
  message: string,
  repo?: PinnedRepo,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<{ readonly committed: boolean; readonly before: string }>> {
  const changes = await uncommitted(cwd, { host, ...(repo === undefined ? {} : { repo }) });
  if (!changes.ok) return changes;
  const head = await git(host, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], cwd, undefined, repo);
  if (head.code !== 0) return fail(`${cwd} has no commit checked out: ${said(head)}`);
  const before = head.stdout.trim();
  if (changes.value.length === 0) return ok({ committed: false, before });
  const add = await git(host, ['add', '-A'], cwd, undefined, repo);
  if (add.code !== 0) return fail(`git add failed in ${cwd}: ${said(add)}`);
  const commit = await git(
    host,
    ['commit', '--no-verify', '-q', '-m', message],
    cwd,
    await identityEnv(host, cwd, repo),
    repo,
  );
  if (commit.code !== 0) return fail(`git commit failed in ${cwd}: ${said(commit)}`);
  return ok({ committed: true, before });
}

/**
 * issue 40 item 9: undoes `commitAll` after a refused merge — the branch back to `before`, the
 * files it committed uncommitted again (new files untracked again), their content untouched.
 */
export async function uncommit(
  cwd: string,
  before: string,
  repo?: PinnedRepo,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<void>> {
  const reset = await git(host, ['reset', '--mixed', '-q', before], cwd, undefined, repo);
  return reset.code === 0 ? ok(undefined) : fail(`git reset --mixed ${before} failed in ${cwd}: ${said(reset)}`);
}

export type MergeResult =
  | { readonly kind: 'merged'; readonly how: 'fast-forward' | 'merge-commit' | 'up-to-date'; readonly commit: string }
  | { readonly kind: 'conflict'; readonly files: readonly string[] }
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Merges `branch` into `base`: where `base` is checked out (the person's checkout, refused when
 * its tracked files have changes), else in a temporary detached worktree whose result moves
 * `base`. A fast-forward when possible, else a merge commit with `message`. On conflict the merge
 * is aborted: `base` (and the checkout) are left exactly as they were.
 */
export async function mergeInto(
  root: string,
  base: string,
  branch: string,
  message: string,
  scratch: string,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<MergeResult>> {
  const before = await branchCommit(root, base, host);
  if (before === null) return fail(`the base branch ${base} no longer exists in ${root}`);
  const list = await worktrees(root, host);
  if (!list.ok) return list;
  const holder = list.value.find((w) => w.branch === base && !w.prunable);
  let where: string;
  if (holder !== undefined) {
    where = holder.path;
    const dirty = await uncommitted(where, { untracked: false, host });
    if (!dirty.ok) return dirty;
    if (dirty.value.length > 0)
      return ok({
        kind: 'refused',
        message: `${base} is checked out in ${where}, which has uncommitted changes (${dirty.value
          .slice(0, 5)
          .map((c) => c.path)
          .join(', ')}${dirty.value.length > 5 ? ', …' : ''}): commit or stash them there, then merge again`,
      });
  } else {
    where = scratch;
    if (await host.fs.exists(scratch)) await git(host, ['worktree', 'remove', '--force', scratch], root);
    await host.fs.mkdir(dirname(scratch));
    const add = await git(host, ['worktree', 'add', '--detach', scratch, base], root);
    if (add.code !== 0) return fail(`could not prepare the merge of ${branch} (git worktree add): ${said(add)}`);
  }
  try {
    const merge = await git(host, ['merge', '--no-edit', '-m', message, branch], where, await identityEnv(host, where));
    if (merge.code !== 0) {
      const unmerged = await git(host, ['diff', '--name-only', '--diff-filter=U', '-z'], where);
      const files = unmerged.stdout.split('\0').filter((f) => f !== '');
      const abort = await git(host, ['merge', '--abort'], where);
      const after = await branchCommit(root, base, host);
      if (abort.code !== 0 || after !== before)
        return fail(`the merge of ${branch} into ${base} failed and could not be aborted in ${where}: ${said(abort)}`);
      if (files.length === 0) return ok({ kind: 'refused', message: `git merge refused in ${where}: ${said(merge)}` });
      return ok({ kind: 'conflict', files });
    }
    const head = (await git(host, ['rev-parse', 'HEAD'], where)).stdout.trim();
    if (holder === undefined && head !== before) {
      const moved = await git(host, ['update-ref', `refs/heads/${base}`, head, before], root);
      if (moved.code !== 0) return fail(`could not move ${base} to the merge (git update-ref): ${said(moved)}`);
    }
    const how = head === before ? 'up-to-date' : /Fast-forward/.test(merge.stdout) ? 'fast-forward' : 'merge-commit';
    return ok({ kind: 'merged', how, commit: head });
  } finally {
    if (holder === undefined) await git(host, ['worktree', 'remove', '--force', scratch], root);
  }
}

/** Moves the agent's (clean) branch up to `base` after a merge, so "changes since base" starts empty. */
export async function catchUp(
  path: string,
  base: string,
  repo?: PinnedRepo,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<void> {
  await git(host, ['merge', '--ff-only', '-q', base], path, undefined, repo);
}

/** Resets the worktree `path` (and its branch) to `base`: uncommitted changes, untracked files and its own commits are gone. */
export async function resetToBase(
  path: string,
  base: string,
  repo?: PinnedRepo,
  host: GitHost = LOCAL_GIT_HOST,
): Promise<Outcome<string>> {
  const reset = await git(host, ['reset', '--hard', '-q', base], path, undefined, repo);
  if (reset.code !== 0) return fail(`git reset --hard ${base} failed in ${path}: ${said(reset)}`);
  const clean = await git(host, ['clean', '-fdq'], path, undefined, repo);
  if (clean.code !== 0) return fail(`git clean failed in ${path}: ${said(clean)}`);
  return ok((await git(host, ['rev-parse', 'HEAD'], path, undefined, repo)).stdout.trim());
}
