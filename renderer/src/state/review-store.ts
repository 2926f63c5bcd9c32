/**
 * issue 26: the review pane's state — one wake's changes as the daemon stored them, the file in
 * view, unified or side-by-side, the line being commented and the comment's fate. Comments go to
 * the daemon (`wakes.comment`), which sends them to the agent in the wake's thread.
 */
import type { ClientApi, WakeChanges } from '../../../shared/api/contract.js';
import type { ReviewComment } from '../../../shared/changes.js';
import { ValueStore } from './value-store.js';

export type ReviewViewType = 'unified' | 'split';

export interface ReviewState {
  readonly changes: WakeChanges | null;
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
    readonly wakeToken: string,
  ) {
    super(INITIAL);
  }

  #patch(p: Partial<ReviewState>): void {
    this.set({ ...this.value, ...p });
  }

  /** (Re)reads the wake's changes; keeps the file in view when it is still listed. */
  async load(): Promise<void> {
    const r = await this.api.wakes.changes({ wakeToken: this.wakeToken });
    if (!r.ok) return this.#patch({ error: r.message });
    const file = r.value.files.some((f) => f.path === this.value.file)
      ? this.value.file
      : (r.value.files[0]?.path ?? null);
    this.#patch({ changes: r.value, error: null, file });
  }

  /**
   * Re-reads on every `wake.updated` of this wake: the daemon stores the changes just after the
   * terminal status, and says so with one more update (the status alone does not change).
   */
  follow(): () => void {
    return this.api.events.subscribe((e) => {
      if (e.name === 'wake.updated' && e.payload.wakeToken === this.wakeToken) void this.load();
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
    if (c === null || text.trim() === '') return false;
    const r = await this.api.wakes.comment({ wakeToken: this.wakeToken, ...c.at, text });
    if (!r.ok) {
      this.#patch({ error: r.message });
      return false;
    }
    this.#patch({ commenting: null, sent: { target: r.value.target }, error: null });
    return true;
  }
}
