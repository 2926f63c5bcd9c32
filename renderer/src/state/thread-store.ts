/**
 * Threads per parent conversation (issue 17): `threads.list` for the conversation on view (reply
 * counts under its messages) and for every parent the sidebar lists threads of (their labels),
 * again when a reply lands in one of them, and a thread started from a message added at once.
 * Keys: `p:<parent>` (the threads of one conversation) and `labels` (every thread's label).
 */
import { useEffect, useMemo } from 'react';
import type { ApiResult, ClientApi, ThreadSummary } from '../../../shared/api/contract.js';
import { threadParent } from '../../../shared/target.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const LABELS = 'labels';
const NONE: readonly ThreadSummary[] = [];

/** A thread's label in the sidebar: the start of its root message. */
function threadLabel(t: ThreadSummary): string | null {
  const text = t.root?.content.replace(/\s+/g, ' ').trim() ?? '';
  return text === '' ? null : text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

export class ThreadStore extends KeyedStore {
  private readonly byParent = new Map<string, readonly ThreadSummary[]>();
  private readonly asked = new Set<string>();
  private labelMap: ReadonlyMap<string, string> = new Map();

  constructor(private readonly api: Pick<ClientApi, 'threads'>) {
    super();
  }

  /** The threads under `parent`, or undefined until they are listed. */
  threadsOf(parent: string): readonly ThreadSummary[] | undefined {
    return this.byParent.get(parent);
  }

  /** The summary of one thread, when its parent's threads are listed. */
  summaryOf(thread: string): ThreadSummary | undefined {
    return this.byParent.get(threadParent(thread) ?? '')?.find((t) => t.target === thread);
  }

  /** Every listed thread's label (the start of its root message), by thread target. */
  get labels(): ReadonlyMap<string, string> {
    return this.labelMap;
  }

  /** Lists the threads of each parent not listed (nor being listed) yet. */
  want(parents: Iterable<string>): void {
    for (const p of parents) if (!this.byParent.has(p) && !this.asked.has(p)) void this.refresh(p);
  }

  /** Lists the threads of `parent` again (a reply in one of them changed its reply count). */
  async refresh(parent: string): Promise<void> {
    this.asked.add(parent);
    const r = await this.api.threads.list({ parent });
    this.asked.delete(parent);
    if (r.ok) this.set(parent, r.value);
  }

  /** Starts a thread from a message (`threads.start`); the thread is listed under its parent at once. */
  async start(messageId: string): Promise<ApiResult<ThreadSummary>> {
    const r = await this.api.threads.start({ messageId });
    if (r.ok) {
      const list = this.byParent.get(r.value.parent) ?? [];
      this.set(r.value.parent, [...list.filter((x) => x.target !== r.value.target), r.value]);
    }
    return r;
  }

  private set(parent: string, threads: readonly ThreadSummary[]): void {
    this.byParent.set(parent, threads);
    this.labelMap = new Map(
      [...this.byParent.values()].flat().flatMap((t) => {
        const label = threadLabel(t);
        return label === null ? [] : [[t.target, label] as const];
      }),
    );
    this.notify(`p:${parent}`);
    this.notify(LABELS);
  }
}

/**
 * The threads under the conversation on view, by root message id (its reply counts); listed when
 * the conversation comes on view. A thread has no threads: none for it.
 */
export function useThreadsByRoot(store: ThreadStore, target: string): ReadonlyMap<string, ThreadSummary> {
  const isThread = threadParent(target) !== null;
  const list = useStoreKey(store, isThread ? null : `p:${target}`, () => (isThread ? NONE : store.threadsOf(target)));
  useEffect(() => {
    if (!isThread) store.want([target]);
  }, [store, target, isThread]);
  return useMemo(
    () => new Map((list ?? NONE).flatMap((t) => (t.root === null ? [] : [[t.root.id, t] as const]))),
    [list],
  );
}

/** The summary of an open thread (its root message), once its parent's threads are listed (asked for if not yet). */
export function useThreadSummary(store: ThreadStore, thread: string): ThreadSummary | undefined {
  const parent = threadParent(thread);
  useEffect(() => {
    if (parent !== null) store.want([parent]);
  }, [store, parent]);
  return useStoreKey(store, `p:${parent ?? ''}`, () => store.summaryOf(thread));
}

export function useThreadLabels(store: ThreadStore): ReadonlyMap<string, string> {
  return useStoreKey(store, LABELS, () => store.labels);
}
