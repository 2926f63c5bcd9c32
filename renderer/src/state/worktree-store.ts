/**
 * issue 26: the agent detail's merge and discard of an isolated agent's worktree. What the
 * worktree holds beyond its base (`worktree.changes`: uncommitted files and commits, which the
 * discard confirmation names), the merge's result (fast-forward, merge commit, up to date, or the
 * conflict with its files and the fix) and the daemon's refusals, worded as the daemon words them.
 */
import type { ApiResponse, ClientApi } from '../../../shared/api/contract.js';
import { ValueStore } from './value-store.js';

export type WorktreeHoldings = ApiResponse<'worktree.changes'>;
export type WorktreeMergeResult = ApiResponse<'worktree.merge'>;

export interface WorktreeState {
  readonly holdings: WorktreeHoldings | null;
  /** A merge or discard is running (the buttons wait). */
  readonly busy: boolean;
  /** The discard confirmation is open. */
  readonly confirming: boolean;
  readonly merged: WorktreeMergeResult | null;
  readonly discarded: { readonly commit: string } | null;
  /** The daemon's refusal or failure, as it words it. */
  readonly error: string | null;
}

const INITIAL: WorktreeState = {
  holdings: null,
  busy: false,
  confirming: false,
  merged: null,
  discarded: null,
  error: null,
};

export class WorktreeStore extends ValueStore<WorktreeState> {
  constructor(
    private readonly api: ClientApi,
    readonly agentId: string,
  ) {
    super(INITIAL);
  }

  #patch(p: Partial<WorktreeState>): void {
    this.set({ ...this.value, ...p });
  }

  /** (Re)reads what the worktree holds beyond its base. */
  async load(): Promise<void> {
    const r = await this.api.worktree.changes({ agentId: this.agentId });
    if (!r.ok) return this.#patch({ error: r.message });
    this.#patch({ holdings: r.value });
  }

  /** Merges into the base; `message` commits the uncommitted changes first (a default when empty). */
  async merge(message: string): Promise<void> {
    this.#patch({ busy: true, error: null, merged: null, discarded: null, confirming: false });
    const text = message.trim();
    const r = await this.api.worktree.merge({ agentId: this.agentId, ...(text === '' ? {} : { message: text }) });
    this.#patch(r.ok ? { busy: false, merged: r.value } : { busy: false, error: r.message });
    await this.load();
  }

  /** Opens the confirmation, with what is lost read afresh. */
  async askDiscard(): Promise<void> {
    this.#patch({ merged: null, discarded: null, error: null });
    await this.load();
    if (this.value.error === null) this.#patch({ confirming: true });
  }

  cancelDiscard(): void {
    this.#patch({ confirming: false });
  }

  /** The explicit confirm: the worktree and its branch back to the base. */
  async discard(): Promise<void> {
    this.#patch({ busy: true, error: null, confirming: false });
    const r = await this.api.worktree.discard({ agentId: this.agentId, confirm: true });
    this.#patch(r.ok ? { busy: false, discarded: r.value } : { busy: false, error: r.message });
    await this.load();
  }
}
