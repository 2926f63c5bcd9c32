/**
 * issue 26: isolation per agent. An agent with `"isolation": "worktree"` works in a git worktree
 * of its own, `<worktreesDir>/<agent id>` on branch `agentteam/<agent id>`, made from its base
 * (`baseBranch`, else the branch checked out in `cwd` at the first start; recorded in the
 * repository's config so a restart keeps it). The worktrees folder is the app's own, beside the
 * data dir (`<data dir>-worktrees`), never inside the data dir (no agent may work there) nor inside
 * the person's checkout. The person's checkout is written only by an explicit merge. Git mechanics
 * are git/worktree.ts; this service holds the rules: where, which base, when merge and discard may run.
 *
 * issue 43: an agent with `host` gets its worktree on that host, of the repository its `cwd` (a
 * path there) lies in, by the same rules: the worktrees folder is `worktreesDir` (a path there) or
 * `~/.agentteam-worktrees` beside the host's `~/.agentteam`, never inside it or the checkout; every
 * git step (snapshots, review, merge, discard) runs there over the host's connection (`hostGitOf`).
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ApiError } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import type { WorktreesPort } from '../api/api-ports.js';
import type { ReadinessProbe } from '../runtime/readiness.js';
import { DEFAULT_DIFF_BOUNDS, diffTrees, type ChangedFile, type DiffBounds } from '../git/diff.js';
import { mergeBase, snapshotWorkTree } from '../git/snapshot.js';
import type { DaemonLog } from '../daemon-log.js';
import { LOCAL_GIT_HOST, type GitHost, type RemoteGit } from '../git/git-host.js';
import {
  GitError,
  gitVersion,
  gitVersionSupported,
  MIN_GIT_VERSION,
  type GitVersion,
  type PinnedRepo,
} from '../git/git-cli.js';
import {
  branchCommit,
  catchUp,
  commitAll,
  uncommit,
  commitsAhead,
  currentBranch,
  ensureWorktree,
  mergeInto,
  pinProblem,
  pinWorktree,
  recordedBase,
  repositoryOf,
  resetToBase,
  uncommitted,
  type ChangedPath,
} from '../git/worktree.js';
import { workspaceOf } from '../runtime/workspace.js';
import { isolatedWorktree, type AgentWorktree, type WorktreeOf } from './worktree-contract.js';

export type { AgentWorktree, WorktreeOf } from './worktree-contract.js';

/** The branch of an agent's worktree. */
export const worktreeBranchOf = (agentId: string): string => `agentteam/${agentId}`;

/** The app's own worktrees folder: beside the data dir, never inside it (`~/.agentteam` → `~/.agentteam-worktrees`). */
export function defaultWorktreesDir(dataDir: string): string {
  const abs = resolve(dataDir);
  return join(dirname(abs), `${basename(abs)}-worktrees`);
}

const within = (outer: string, inner: string): boolean => {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Git on this machine, as checked once at start (readiness names it when missing or too old). */
export type GitAvailability =
  { readonly usable: true; readonly version: GitVersion } | { readonly usable: false; readonly detail: string };

export async function checkGit(binary?: string): Promise<GitAvailability> {
  try {
    const version = await gitVersion(binary === undefined ? undefined : { binary, cwd: process.cwd() });
    if (!gitVersionSupported(version))
      return {
        usable: false,
        detail: `git ${version.text} is too old: install git ${MIN_GIT_VERSION.major}.${MIN_GIT_VERSION.minor} or newer (your distribution's "git" package)`,
      };
    return { usable: true, version };
  } catch (err) {
    return { usable: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

export type WorktreeFailureCode = 'git_unavailable' | 'worktree_invalid' | 'not_isolated' | 'turn_running';

export class WorktreeError extends Error {
  constructor(
    readonly code: WorktreeFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorktreeError';
  }
}

/** What discarding (or merging) would touch: shown in the confirmation. */
export interface WorktreeChanges {
  readonly worktree: AgentWorktree;
  readonly uncommitted: readonly ChangedPath[];
  /** Commits on the agent's branch not on its base (`<hash> <subject>`). */
  readonly commits: readonly string[];
}

export type MergeOutcome =
  | {
      readonly kind: 'merged';
      readonly how: 'fast-forward' | 'merge-commit' | 'up-to-date';
      readonly commit: string;
      readonly committed: boolean;
    }
  | { readonly kind: 'conflict'; readonly files: readonly string[]; readonly message: string }
  | { readonly kind: 'refused'; readonly message: string };

export interface WorktreeServiceOptions {
  readonly dataDir: string;
  /** issue 29: folders besides the data dir no workspace may overlap. */
  readonly privateDirs?: readonly string[];
  /** Whether the agent's turn is running now (merge and discard are refused then). */
  readonly turnRunning: (agentId: string) => boolean;
  /** The agent's entry as it runs. */
  readonly agent: (agentId: string) => AgentConfig | undefined;
  /** Git as checked at start (default: `git` on PATH, checked on first use). */
  readonly git?: Promise<GitAvailability>;
  /** How git is checked on first use (default `checkGit`): the room's one check (worktree-wiring.ts `worktreeHome`). */
  readonly gitCheck?: () => Promise<GitAvailability>;
  /** Where the prepared worktrees are kept (default: the service's own): the room's, which the roster's view reads. */
  readonly worktrees?: Map<string, AgentWorktree>;
  /** The agent's worktree was made, reused or repaired (its view shows it). */
  readonly prepared?: (agentId: string) => void;
  /** issue 43: git on an agent's host (an agent with `host`); null or absent: none reachable. */
  readonly hostGitOf?: (agent: AgentConfig) => RemoteGit | null;
  /** How much of a diff "changes since base" carries (default: git/diff.ts's bounds). */
  readonly bounds?: DiffBounds;
  readonly log?: DaemonLog;
}

/** "Changes since base" of an isolated agent (`agents.changes`). */
export interface SinceBase {
  readonly agentId: string;
  readonly branch: string;
  readonly base: string;
  readonly workspace: string;
  readonly files: ChangedFile[];
}

export class WorktreeService {
  readonly #o: WorktreeServiceOptions;
  readonly #prepared: Map<string, AgentWorktree>;
  /** issue 41: each prepared worktree's git dir as found when it was made or reused; verified before every call. */
  readonly #pins = new Map<string, PinnedRepo>();
  /** Where each prepared worktree is: this machine, or the agent's host (issue 43). */
  readonly #hosts = new Map<string, GitHost>();
  /** One git operation per agent at a time (prepare, merge, discard). */
  readonly #chains = new Map<string, Promise<unknown>>();
  #git: Promise<GitAvailability> | null;

  constructor(options: WorktreeServiceOptions) {
    this.#o = options;
    this.#git = options.git ?? null;
    this.#prepared = options.worktrees ?? new Map();
  }

  /** Git as checked at start. */
  git(): Promise<GitAvailability> {
    return (this.#git ??= (this.#o.gitCheck ?? checkGit)());
  }

  /** The port (worktree-contract.ts): the prepared worktree of an isolated agent, else null. */
  readonly worktreeOf: WorktreeOf = (agentId) => isolatedWorktree(this.#o.agent(agentId), this.#prepared);

  /**
   * Makes or reuses the agent's worktree and answers the folder its runtime works in (`cwd`'s
   * place inside the worktree). Throws `WorktreeError` with the message a person can act on,
   * naming the agent and the path.
   */
  prepare(agent: AgentConfig): Promise<string> {
    return this.#serial(agent.id, () => this.#prepare(agent));
  }

  /** Git for an agent, where its repository is: its host's (an agent with `host`), else this machine's. */
  gitHostOf(agentId: string): GitHost {
    const agent = this.#o.agent(agentId);
    return (
      this.#hosts.get(agentId) ?? (agent === undefined ? LOCAL_GIT_HOST : (this.#remote(agent)?.git ?? LOCAL_GIT_HOST))
    );
  }

  #remote(agent: AgentConfig): RemoteGit | null {
    return agent.host === undefined ? null : (this.#o.hostGitOf?.(agent) ?? null);
  }

  /** Where the worktree goes and what it may not overlap: beside the data dir here, beside `~/.agentteam` on a host. */
  async #places(agent: AgentConfig, remote: RemoteGit | null) {
    if (remote === null)
      return {
        cwd: workspaceOf(agent.cwd, this.#o.dataDir, agent.id),
        dataDir: this.#o.dataDir,
        privateDirs: this.#o.privateDirs ?? [],
      };
    const home = (await remote.home()).replace(/\/+$/, '');
    return { cwd: agent.cwd, dataDir: `${home}/.agentteam`, privateDirs: [] };
  }

  async #prepare(agent: AgentConfig): Promise<string> {
    const who = `agent "${agent.id}" (isolation "worktree")`;
    const remote = this.#remote(agent);
    if (agent.host !== undefined && remote === null)
      throw new WorktreeError(
        'worktree_invalid',
        `${who}: this daemon reaches no host, so it cannot make a worktree on ${agent.host}.`,
      );
    const host = remote?.git ?? LOCAL_GIT_HOST;
    const places = await this.#places(agent, remote);
    const { cwd } = places;
    if (remote !== null && !isAbsolute(cwd))
      throw new WorktreeError(
        'worktree_invalid',
        `${who}: with "host", "cwd" must be the absolute path of a folder of a git repository on that host.`,
      );
    // This machine's git is checked once at start; a host's answers at its first call (a `GitError` naming the host).
    const git = remote === null ? await this.git() : null;
    if (git !== null && !git.usable)
      throw new WorktreeError('git_unavailable', `${who} cannot start: ${git.detail}. Or set "isolation" to "none".`);
    const repo = await repositoryOf(cwd, host);
    if (!repo.ok)
      throw new WorktreeError(
        'worktree_invalid',
        `${who}: "cwd" ${cwd} must be inside a git repository: ${repo.message}. Run "git init" there, choose a folder of a repository, or set "isolation" to "none".`,
      );
    const { root, subdir } = repo.value;
    const branch = worktreeBranchOf(agent.id);
    const base = agent.baseBranch ?? (await recordedBase(root, branch, host)) ?? (await currentBranch(root, host));
    if (base === null)
      throw new WorktreeError(
        'worktree_invalid',
        `${who}: the checkout ${root} has no branch checked out (a detached HEAD): set "baseBranch" of agent "${agent.id}" in agentteam.json.`,
      );
    if ((await branchCommit(root, base, host)) === null)
      throw new WorktreeError(
        'worktree_invalid',
        `${who}: the base branch "${base}" does not exist in ${root}: set "baseBranch" of agent "${agent.id}" to one of its branches (git branch --list).`,
      );
    const dir = await host.fs.real(agent.worktreesDir ?? defaultWorktreesDir(places.dataDir));
    for (const [what, privateDir] of [
      ["AgentTeam's data folder, where no agent may work", places.dataDir],
      ...places.privateDirs.map((d) => ["AgentTeam's app folder", d] as const),
      ['the checkout itself, which only an explicit merge writes', root],
    ] as const) {
      const p = await host.fs.real(privateDir);
      if (within(p, dir) || within(dir, p))
        throw new WorktreeError(
          'worktree_invalid',
          `${who}: "worktreesDir" ${dir} overlaps ${what} (${p}): choose a folder outside both, or remove "worktreesDir" to use ${defaultWorktreesDir(places.dataDir)}.`,
        );
    }
    const path = join(dir, agent.id);
    const made = await ensureWorktree({ root, path, branch, base }, host);
    if (!made.ok) throw new WorktreeError('worktree_invalid', `${who}: ${made.message}`);
    const pinned = await pinWorktree(root, path, host);
    if (!pinned.ok) throw new WorktreeError('worktree_invalid', `${who}: ${pinned.message}`);
    const worktree: AgentWorktree = { path: await host.fs.real(path), branch, base, repoRoot: root };
    this.#pins.set(agent.id, pinned.value);
    this.#hosts.set(agent.id, host);
    this.#prepared.set(agent.id, worktree);
    this.#o.prepared?.(agent.id);
    this.#o.log?.info(`agent worktree ${made.value}`, { agentId: agent.id, ...worktree });
    return subdir === '' ? worktree.path : join(worktree.path, subdir);
  }

  /** What the worktree holds beyond its base: uncommitted files and commits (the confirmation names them). */
  async changes(agentId: string): Promise<WorktreeChanges> {
    const worktree = this.#isolated(agentId);
    const host = this.gitHostOf(agentId);
    const files = await uncommitted(worktree.path, { repo: await this.#pinned(agentId, 'list the changes of'), host });
    if (!files.ok) throw new WorktreeError('worktree_invalid', files.message);
    const commits = await commitsAhead(worktree.repoRoot, worktree.base, worktree.branch, host);
    if (!commits.ok) throw new WorktreeError('worktree_invalid', commits.message);
    return { worktree, uncommitted: files.value, commits: commits.value };
  }

  /**
   * "Changes since base" (`agents.changes`, issue 39: the worktree's one owner answers it): the
   * worktree now against the merge base with its base branch, patches included.
   */
  async sinceBase(agentId: string): Promise<SinceBase> {
    const wt = this.worktreeOf(agentId);
    if (wt === null)
      throw new ApiError(
        'not_isolated',
        `Agent "${agentId}" works in its own folder, not in a worktree, so it has no "changes since base"; see each wake's changes instead.`,
      );
    const at = { host: this.gitHostOf(agentId) };
    const from = await mergeBase(wt.path, wt.base, at);
    if (from === null)
      throw new ApiError('unavailable', `The worktree ${wt.path} shares no commit with its base "${wt.base}".`);
    const now = await snapshotWorkTree(wt.path, at);
    const files = await diffTrees(wt.path, from, now.tree, this.#o.bounds ?? DEFAULT_DIFF_BOUNDS, at);
    return { agentId, branch: wt.branch, base: wt.base, workspace: wt.path, files };
  }

  /**
   * Merges the agent's work into its base: uncommitted changes are committed first (`message`, or
   * a default naming the agent), then a fast-forward or a merge commit. Refused while its turn runs.
   */
  merge(agentId: string, message?: string): Promise<MergeOutcome> {
    return this.#serial(agentId, async () => {
      const worktree = this.#idle(agentId);
      const host = this.gitHostOf(agentId);
      const repo = await this.#pinned(agentId, 'merge');
      const text = message?.trim() || `Work of agent ${agentId} (AgentTeam)`;
      const committed = await commitAll(worktree.path, text, repo, host);
      if (!committed.ok) throw new WorktreeError('worktree_invalid', committed.message);
      const scratch = join(dirname(worktree.path), `.merge-${agentId}`);
      const merged = await mergeIntoBase(
        worktree,
        `Merge ${worktree.branch} into ${worktree.base}: ${text}`,
        scratch,
        host,
      );
      if (merged.kind === 'merged') await catchUp(worktree.path, worktree.base, repo, host);
      // issue 40 item 9: a refused merge leaves the worktree as it was — its files uncommitted again.
      else if (committed.value.committed) {
        const undone = await uncommit(worktree.path, committed.value.before, repo, host);
        if (!undone.ok)
          this.#o.log?.warn('agent worktree: the refused merge kept its commit', { agentId, error: undone.message });
      }
      const result: MergeOutcome =
        merged.kind === 'merged' ? { ...merged, committed: committed.value.committed } : merged;
      this.#o.log?.info('agent worktree merge', { agentId, kind: result.kind });
      return result;
    });
  }

  /** Resets the agent's worktree and branch to its base. Refused while its turn runs. */
  discard(agentId: string): Promise<{ readonly commit: string }> {
    return this.#serial(agentId, async () => {
      const worktree = this.#idle(agentId);
      const reset = await resetToBase(
        worktree.path,
        worktree.base,
        await this.#pinned(agentId, 'discard'),
        this.gitHostOf(agentId),
      );
      if (!reset.ok) throw new WorktreeError('worktree_invalid', reset.message);
      this.#o.log?.info('agent worktree discarded', { agentId, base: worktree.base });
      return { commit: reset.value };
    });
  }

  #isolated(agentId: string): AgentWorktree {
    const worktree = this.worktreeOf(agentId);
    if (worktree !== null) return worktree;
    const agent = this.#o.agent(agentId);
    throw new WorktreeError(
      'not_isolated',
      agent === undefined
        ? `There is no agent "${agentId}"; see agentteam.json.`
        : agent.isolation !== 'worktree'
          ? `Agent "${agentId}" works in its "cwd" directly ("isolation" is "none"): there is nothing to merge or discard.`
          : `The worktree of agent "${agentId}" is not ready (its start failed: see the agent's readiness).`,
    );
  }

  /**
   * issue 41: the worktree's pinned git dir, after checking its `.git` file still names it: an
   * agent that pointed it at a git dir of its own would otherwise have merge commit there and
   * answer "merged" while nothing reached the base.
   */
  async #pinned(agentId: string, what: string): Promise<PinnedRepo> {
    const pin = this.#pins.get(agentId);
    if (pin === undefined)
      throw new WorktreeError('worktree_invalid', `The worktree of agent "${agentId}" is not ready.`);
    const problem = await pinProblem(pin, this.gitHostOf(agentId));
    if (problem !== null)
      throw new WorktreeError('worktree_invalid', `Cannot ${what} the worktree of agent "${agentId}": ${problem}.`);
    return pin;
  }

  #idle(agentId: string): AgentWorktree {
    const worktree = this.#isolated(agentId);
    if (this.#o.turnRunning(agentId))
      throw new WorktreeError(
        'turn_running',
        `Agent "${agentId}" is working on a turn in its worktree: wait until it ends (or Stop it), then try again.`,
      );
    return worktree;
  }

  #serial<T>(agentId: string, run: () => Promise<T>): Promise<T> {
    const next = (this.#chains.get(agentId) ?? Promise.resolve()).then(run);
    this.#chains.set(
      agentId,
      next.catch(() => undefined),
    );
    return next;
  }
}

async function mergeIntoBase(worktree: AgentWorktree, message: string, scratch: string, host: GitHost) {
  const r = await mergeInto(worktree.repoRoot, worktree.base, worktree.branch, message, scratch, host);
  if (!r.ok) throw new WorktreeError('worktree_invalid', r.message);
  const v = r.value;
  if (v.kind === 'conflict')
    return {
      kind: 'conflict' as const,
      files: v.files,
      message: `Merging ${worktree.branch} into ${worktree.base} conflicts in ${v.files.join(', ')}; the merge was aborted and ${worktree.base} is unchanged. Fix: resolve it in the agent's worktree (${worktree.path}: git merge ${worktree.base}, edit the files, commit — or ask the agent to), then merge again.`,
    };
  return v;
}

/** `GitError` (git missing, timeout) as the service's error. */
export function asWorktreeError(err: unknown): WorktreeError | null {
  if (err instanceof WorktreeError) return err;
  if (err instanceof GitError) return new WorktreeError('git_unavailable', err.message);
  return null;
}

/**
 * Readiness (issue 15 machinery): an isolated agent without usable git shows "CLI missing" with
 * git named in its detail (the fix: install git, or `"isolation": "none"`).
 */
export function withGitReadiness(
  probe: (agent: AgentConfig) => Promise<ReadinessProbe>,
  git: () => Promise<GitAvailability>,
): (agent: AgentConfig) => Promise<ReadinessProbe> {
  return async (agent) => {
    const probed = await probe(agent);
    // issue 43: an agent with `host` runs its host's git, which its first call checks (a `GitError` naming the host).
    if (agent.isolation !== 'worktree' || agent.host !== undefined) return probed;
    const g = await git();
    return g.usable ? probed : { ...probed, outcome: 'cli_missing', detail: `git: ${g.detail}` };
  };
}

/** The service as the API's port: its failures as `ApiError`s with the service's codes. */
export function worktreesApi(service: WorktreeService): WorktreesPort {
  const answer = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      const e = asWorktreeError(err);
      throw e === null ? err : new ApiError(e.code, e.message);
    }
  };
  return {
    changes: (agentId) =>
      answer(async () => {
        const c = await service.changes(agentId);
        return { worktree: c.worktree, uncommitted: [...c.uncommitted], commits: [...c.commits] };
      }),
    merge: (agentId, message) =>
      answer(async () => {
        const r = await service.merge(agentId, message);
        return r.kind === 'conflict' ? { ...r, files: [...r.files] } : r;
      }),
    discard: (agentId) => answer(() => service.discard(agentId)),
  };
}
