/**
 * issue 26 "the changes of every wake": when a wake is delivered and when it ends, the agent's
 * workspace (its worktree when isolated, else its `cwd`) is snapshotted (git/snapshot.ts) and, at
 * the end, the files changed between the two snapshots are stored with the wake (git/diff.ts,
 * bounded), in any git workspace. Outside git the wake is recorded `untracked` with the reason.
 *
 * Off the hot path: the `wake_status` subscriber only queues the work; git runs afterwards, one
 * agent's work in order. The end snapshot is taken just after the terminal status is published,
 * never before: the operator's reply and the wake's settlement are not delayed by git. Statuses
 * published together (a batch delivered at once, or one wake ending as the next is delivered)
 * share one snapshot, so the end of one wake and the start of the next are the same tree and no
 * change falls between them or counts twice. What the agent writes in the moment between its
 * turn's end and that snapshot is counted in the ending wake; likewise an edit made in the
 * milliseconds between delivery and the start snapshot counts before the wake (a real CLI makes
 * its first edit after a model call, seconds later). A wake that was delivered and ended before
 * its start snapshot could be taken ends `failed` with the reason, never `pending` for ever and
 * never "no changes".
 */
import type { Observable, Subscription } from 'rxjs';
import { isTerminal } from '../../../shared/wake-status.js';
import type { WakeChangesSummary } from '../../../shared/api/contract.js';
import type { DaemonLog } from '../daemon-log.js';
import { DEFAULT_DIFF_BOUNDS, diffTrees, type ChangedFile, type DiffBounds } from '../git/diff.js';
import { GitError, workTreeRoot } from '../git/git-cli.js';
import type { GitHost } from '../git/git-host.js';
import { snapshotWorkTree } from '../git/snapshot.js';
import type { WakeChangeState } from '../store/index.js';
import type { WakeChangesTable } from '../store/tables/wake-changes-table.js';
import type { WakeStatusEvent } from '../wake/wake-status-event.js';
import type { WorktreeOf } from './worktree-contract.js';

/** The store's `wake_changes` table, as this service uses it. */
export type WakeChangesTablePort = Pick<WakeChangesTable, 'start' | 'end' | 'get'>;

export interface WakeChangesOptions {
  readonly table: WakeChangesTablePort;
  readonly wakeStatus$: Observable<WakeStatusEvent>;
  /** The agent's workspace (its resolved `cwd`), or undefined for an unknown agent. */
  readonly workspaceOf: (agentId: string) => string | undefined;
  /** issue 43: where the agent's workspace is when not on this machine (an agent with `host`); undefined: here. */
  readonly gitHostOf?: (agentId: string) => GitHost | undefined;
  /** Default: no agent is isolated (the worktree part wires its port at integration). */
  readonly worktreeOf?: WorktreeOf;
  /** A wake's changes were stored, at its start and at its end (issue 39: the API's `wake.changes`, this summary). */
  readonly changed?: (summary: WakeChangesSummary) => void;
  readonly bounds?: DiffBounds;
  readonly now?: () => Date;
  readonly log?: DaemonLog;
}

interface Job {
  readonly wakeToken: string;
  readonly kind: 'start' | 'end';
}

const ENDED_BEFORE_START =
  'the wake ended before its start snapshot could be taken (the machine was busy), so its changes cannot be told apart from the workspace as it was; they are in the workspace';

const UNTRACKED_OUTSIDE_GIT = (workspace: string) =>
  `${workspace} is not inside a git work tree, so its changes are not tracked (run "git init" there to track them)`;

export class WakeChanges {
  readonly #o: WakeChangesOptions;
  readonly #worktreeOf: WorktreeOf;
  #sub: Subscription | null = null;
  /** Jobs queued per agent since its last flush. */
  readonly #queued = new Map<string, Job[]>();
  /** Each agent's work, one after another. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(options: WakeChangesOptions) {
    this.#o = options;
    this.#worktreeOf = options.worktreeOf ?? (() => null);
  }

  start(): void {
    this.#sub ??= this.#o.wakeStatus$.subscribe((e) => this.#onStatus(e));
  }

  /** Stops following statuses and waits for the snapshots already queued. */
  async dispose(): Promise<void> {
    this.#sub?.unsubscribe();
    this.#sub = null;
    await this.idle();
  }

  /** Resolves when every queued snapshot and diff is stored (tests and shutdown wait on it). */
  async idle(): Promise<void> {
    for (;;) {
      const chains = [...this.#chains.values()];
      if (chains.length === 0 && this.#queued.size === 0) return;
      await Promise.all(chains);
      if (chains.length === 0) await new Promise<void>((r) => setImmediate(r));
    }
  }

  #onStatus(e: WakeStatusEvent): void {
    const kind = e.status === 'delivered' ? 'start' : isTerminal(e.status) ? 'end' : null;
    if (kind === null) return;
    const jobs = this.#queued.get(e.agentId);
    if (jobs !== undefined) {
      jobs.push({ wakeToken: e.wakeToken, kind });
      return;
    }
    this.#queued.set(e.agentId, [{ wakeToken: e.wakeToken, kind }]);
    const previous = this.#chains.get(e.agentId) ?? Promise.resolve();
    // After the statuses published in this same moment have been queued (setImmediate), in order after the agent's previous work.
    const next = previous
      .then(() => new Promise<void>((r) => setImmediate(r)))
      .then(() => this.#flush(e.agentId))
      .catch((err: unknown) =>
        this.#o.log?.warn('wake changes: could not record', { agentId: e.agentId, error: String(err) }),
      )
      .finally(() => {
        if (this.#chains.get(e.agentId) === next) this.#chains.delete(e.agentId);
      });
    this.#chains.set(e.agentId, next);
  }

  async #flush(agentId: string): Promise<void> {
    const jobs = this.#queued.get(agentId) ?? [];
    this.#queued.delete(agentId);
    const workspace = this.#worktreeOf(agentId)?.path ?? this.#o.workspaceOf(agentId);
    if (workspace === undefined) return;
    const at = () => (this.#o.now?.() ?? new Date()).toISOString();
    // One look at the workspace for all the jobs of this moment.
    let root: string | null = null;
    let tree: string | null = null;
    let failure: string | null = null;
    const host = this.#o.gitHostOf?.(agentId);
    const where = host === undefined ? {} : { host };
    try {
      root = await workTreeRoot(workspace, undefined, host?.runner);
      if (root !== null) tree = (await snapshotWorkTree(root, where)).tree;
    } catch (err) {
      failure = err instanceof GitError || err instanceof Error ? err.message : String(err);
    }
    // A wake that ends as the next is delivered ends on the tree the next one starts from. A wake
    // delivered AND ended since the last look (a fast turn while the agent's previous snapshot ran,
    // on a busy machine) has no earlier tree: its start is recorded, then its end says so.
    const startedNow = new Set(jobs.filter((j) => j.kind === 'start').map((j) => j.wakeToken));
    const ends = jobs.filter((j) => j.kind === 'end');
    for (const job of ends.filter((j) => !startedNow.has(j.wakeToken)))
      await this.#end(job.wakeToken, root, tree, failure, at(), null, host);
    for (const job of jobs.filter((j) => j.kind === 'start')) {
      const state: WakeChangeState = failure !== null ? 'failed' : root === null ? 'untracked' : 'pending';
      const startedAt = at();
      this.#o.table.start({
        wakeToken: job.wakeToken,
        agentId,
        state,
        workspace,
        root,
        reason: failure ?? (root === null ? UNTRACKED_OUTSIDE_GIT(workspace) : null),
        startTree: tree,
        at: startedAt,
      });
      this.#o.changed?.({ wakeToken: job.wakeToken, agentId, state, files: 0, startedAt, endedAt: null });
    }
    for (const job of ends.filter((j) => startedNow.has(j.wakeToken)))
      await this.#end(job.wakeToken, root, tree, failure, at(), ENDED_BEFORE_START, host);
  }

  async #end(
    wakeToken: string,
    root: string | null,
    tree: string | null,
    failure: string | null,
    at: string,
    /** Set when the start snapshot was taken only after the wake ended: nothing can be compared. */
    late: string | null = null,
    host?: GitHost,
  ) {
    const rec = this.#o.table.get(wakeToken);
    // A wake that never reached its runtime (or already ended here) has nothing to compare.
    if (rec === undefined || rec.endedAt !== null) return;
    let end: Parameters<WakeChangesTablePort['end']>[0];
    if (late !== null && rec.state === 'pending') {
      end = { wakeToken, state: 'failed', reason: late, endTree: tree, files: [], at };
    } else if (rec.state !== 'pending' || rec.startTree === null || rec.root === null) {
      end = { wakeToken, state: rec.state, reason: rec.reason, endTree: null, files: [], at };
    } else if (failure !== null || tree === null || root !== rec.root) {
      const reason = failure ?? `the workspace ${rec.workspace} is no longer in the git work tree ${rec.root}`;
      end = { wakeToken, state: 'failed', reason, endTree: null, files: [], at };
    } else {
      let files: ChangedFile[] = [];
      let reason: string | null = null;
      try {
        files = await diffTrees(
          rec.root,
          rec.startTree,
          tree,
          this.#o.bounds ?? DEFAULT_DIFF_BOUNDS,
          host === undefined ? {} : { host },
        );
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
      end = { wakeToken, state: reason === null ? 'tracked' : 'failed', reason, endTree: tree, files, at };
    }
    this.#o.table.end(end);
    this.#o.changed?.({
      wakeToken,
      agentId: rec.agentId,
      state: end.state,
      files: end.files.length,
      startedAt: rec.startedAt,
      endedAt: at,
    });
  }
}
