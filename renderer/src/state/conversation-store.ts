/**
 * The conversations the daemon lists (sidebar, switcher): `conversations.list` at start and on
 * reconnect, each `message.stored` raising its conversation's lastSeq (applied once per frame,
 * conversations/last-seq-batch.ts), and a conversation opened by the person created on demand.
 */
import type { ApiResult, ClientApi, Conversation } from '../../../shared/api/contract.js';
import { LastSeqBatch, type FrameScheduler } from '../conversations/last-seq-batch.js';
import { applyLastSeqs } from '../conversations/last-seqs.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'conversations';

export class ConversationStore extends KeyedStore {
  private list: readonly Conversation[] = [];
  private readonly batch: LastSeqBatch;

  constructor(
    private readonly api: Pick<ClientApi, 'conversations'>,
    /** When lastSeq bumps are applied: the next animation frame in the window (state/next-frame.ts). */
    schedule: FrameScheduler,
  ) {
    super();
    this.batch = new LastSeqBatch((b) => this.raise(b), schedule);
  }

  get conversations(): readonly Conversation[] {
    return this.list;
  }

  /** Calls `listener` after each change of the list; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    return this.subscribe(KEY, listener);
  }

  /** The answer of `conversations.list`. */
  replace(list: readonly Conversation[]): void {
    this.list = list;
    this.notify(KEY);
  }

  /** A `message.stored` event: its conversation's lastSeq, in the next frame. */
  stored(target: string, seq: number): void {
    this.batch.bump(target, seq);
  }

  /**
   * The conversation of `target`, creating it when it is not listed (a new channel, a DM from an
   * agent's page). Answers its canonical target, or why it could not be created.
   */
  async open(target: string): Promise<ApiResult<string>> {
    if (this.list.some((c) => c.target === target)) return { ok: true, value: target };
    const r = await this.api.conversations.create({ target });
    if (!r.ok) return r;
    if (!this.list.some((c) => c.target === r.value.target)) this.replace([...this.list, r.value]);
    return { ok: true, value: r.value.target };
  }

  dispose(): void {
    this.batch.dispose();
  }

  private raise(batch: ReadonlyMap<string, number>): void {
    let missing = false;
    const next = applyLastSeqs(this.list, batch, () => (missing = true));
    if (next !== this.list) this.replace(next);
    // A message in a conversation not listed yet (a new DM or thread): fetch the list again.
    if (missing) void this.api.conversations.list({}).then((r) => r.ok && this.replace(r.value));
  }
}

export function useConversations(store: ConversationStore): readonly Conversation[] {
  return useStoreKey(store, KEY, () => store.conversations);
}
