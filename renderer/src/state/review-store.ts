/**
 * issue 26: the review pane's state — the changes of its source (one wake's changes as the daemon
 * stored them, or an isolated agent's "changes since base"), the file in view, unified or
 * side-by-side, the line being commented and the comment's fate. Comments exist only for a wake:
 * they go to the daemon (`wakes.comment`), which sends them to the agent in the wake's thread.
 */
import type { ChangedFile, ClientApi, WakeChanges } from '../../../shared/api/contract.js';
import type { ReviewComment } from '../../../shared/changes.js';
import { ValueStore } from './value-store.js';

/** Where the pane's diff comes from. */
export type ReviewSource =
  { readonly kind: 'wake'; readonly wakeToken: string } | { readonly kind: 'sinceBase'; readonly agentId: string };

/** The changes as the pane shows them, whatever the source (since base is always `tracked`). */
export interface ReviewChanges {
  readonly state: WakeChanges['state'];
  readonly reason: string | null;
  /** The agent's workspace (shown, as data, when it is not in a git work tree). */
  readonly workspace: string | null;
  readonly files: readonly ChangedFile[];
}

/** A stable key of a source (element ids, React keys). */
export const reviewSourceKey = (s: ReviewSource): string => (s.kind === 'wake' ? s.wakeToken : `base-${s.agentId}`);

export type ReviewViewType = 'unified' | 'split';

export interface ReviewState {
  readonly changes: ReviewChanges | null;
  readonly error: string | null;
  readonly file: string | null;
  readonly viewType: ReviewViewType;
  /** The line a comment is being written on, keyed like react-diff-view's change keys. */
  readonly commenting: { readonly key: string; readonly at: Omit<ReviewComment, 'text'> } | null;
  readonly sent: { readonly target: string } | null;
}

const INITIAL: ReviewState = {
  changes: null,
  error: null,
  file: null,
  viewType: 'unified',
  commenting: null,
  sent: null,
};

export class ReviewStore extends ValueStore<ReviewState> {
  constructor(
    private readonly api: ClientApi,
    readonly source: ReviewSource,
  ) {
    super(INITIAL);
  }

  #patch(p: Partial<ReviewState>): void {
    this.set({ ...this.value, ...p });
  }

  /** Comments on a line are offered (a wake's changes only: since base has no wake thread to answer in). */
  get commentable(): boolean {
    return this.source.kind === 'wake';
  }

  async #read(): Promise<{ ok: true; value: ReviewChanges } | { ok: false; message: string }> {
    const s = this.source;
    if (s.kind === 'wake') return this.api.wakes.changes({ wakeToken: s.wakeToken });
    const r = await this.api.agents.changes({ agentId: s.agentId });
    return r.ok
      ? { ok: true, value: { state: 'tracked', reason: null, workspace: r.value.workspace, files: r.value.files } }
      : r;
  }

  /** Reads issued so far: only the newest one's answer is shown (an older answer may arrive after it). */
  #reads = 0;

  /** (Re)reads the source's changes; keeps the file in view when it is still listed. */
  async load(): Promise<void> {
    const read = ++this.#reads;
    const r = await this.#read();
    if (read !== this.#reads) return;
    if (!r.ok) return this.#patch({ error: r.message });
    const file = r.value.files.some((f) => f.path === this.value.file)
      ? this.value.file
      : (r.value.files[0]?.path ?? null);
    this.#patch({ changes: r.value, error: null, file });
  }

  /**
   * Re-reads when this wake's changes are recorded (`wake.changes`: at its delivery and just after its
   * terminal status), or, since base, when any wake of the agent's are — never on its other updates
   * (issue 39: a wake's statuses and timeline re-read up to 2 MB of patches each time).
   */
  follow(): () => void {
    const s = this.source;
    return this.api.events.subscribe((e) => {
      if (e.name !== 'wake.changes') return;
      if (s.kind === 'wake' ? e.payload.wakeToken === s.wakeToken : e.payload.agentId === s.agentId) void this.load();
    });
  }

  showFile(path: string): void {
    this.#patch({ file: path, commenting: null });
  }

  setViewType(viewType: ReviewViewType): void {
    this.#patch({ viewType });
  }

  startComment(key: string, at: Omit<ReviewComment, 'text'>): void {
    this.#patch({ commenting: { key, at }, sent: null });
  }

  cancelComment(): void {
    this.#patch({ commenting: null });
  }

  /** Sends the comment on the line being commented; resolves false (with `error`) when the daemon refused. */
  async sendComment(text: string): Promise<boolean> {
    const c = this.value.commenting;
    if (c === null || text.trim() === '' || this.source.kind !== 'wake') return false;
    const r = await this.api.wakes.comment({ wakeToken: this.source.wakeToken, ...c.at, text });
    if (!r.ok) {
      this.#patch({ error: r.message });
      return false;
    }
    this.#patch({ commenting: null, sent: { target: r.value.target }, error: null });
    return true;
  }
}
