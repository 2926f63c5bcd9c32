/**
 * Messages per conversation (conversations/message-log.ts), for every pane that shows one: the
 * newest page when a conversation comes on view, older pages when the person scrolls up, newer
 * pages and "Jump to latest" in a window opened around a search result (issue 17), and each
 * `message.stored` merged into the log it belongs to. Keyed by conversation (`t:<target>`), so a
 * message re-renders the pane of its own conversation only.
 */
import { useEffect, useMemo } from 'react';
import type { ApiRequest, ApiResponse, ClientApi, Message } from '../../../shared/api/contract.js';
import { emptyLog, mergeMessages, olderPageCursor, type MessageLog } from '../conversations/message-log.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const PAGE = 200;
const LOADING_OLDER = 'loadingOlder';

type Page = ApiResponse<'messages.list'>;
type PageAt = Omit<ApiRequest<'messages.list'>, 'target' | 'limit'>;

export class MessageStore extends KeyedStore {
  private readonly logs = new Map<string, MessageLog>();
  private olderInFlight = false;
  private newerInFlight = false;

  constructor(
    private readonly api: Pick<ClientApi, 'messages'>,
    /** Where a failed page goes (the shell's error banner). */
    private readonly onError: (message: string) => void,
  ) {
    super();
  }

  /** The log of `target`, or undefined until its first page is asked for. */
  logOf(target: string): MessageLog | undefined {
    return this.logs.get(target);
  }

  /** An older page is on its way (one at a time, for whichever pane asked). */
  get loadingOlder(): boolean {
    return this.olderInFlight;
  }

  /** A conversation on view: its newest page, asked for once (held as empty meanwhile). */
  show(target: string): void {
    if (this.logs.has(target)) return;
    this.set(target, emptyLog(target));
    void this.page(target, {}, (held, p) => mergeMessages(held ?? emptyLog(target), p.messages, p.hasMore));
  }

  /** A `message.stored` event, merged into its conversation's log when one is held. */
  stored(message: Message): void {
    const log = this.logs.get(message.target);
    if (log !== undefined) this.set(message.target, mergeMessages(log, [message]));
  }

  /** The page before the oldest message held, when there is one. */
  loadOlder(target: string): void {
    const log = this.logs.get(target);
    const beforeSeq = log === undefined ? undefined : olderPageCursor(log);
    if (this.olderInFlight || log === undefined || !log.hasMore || beforeSeq === undefined) return;
    this.setLoadingOlder(true);
    void this.page(
      target,
      { beforeSeq },
      (held, p) => mergeMessages(held ?? emptyLog(target), p.messages, p.hasMore),
      () => this.setLoadingOlder(false),
    );
  }

  /** In a window around a search result: the page after the newest message held. */
  loadNewer(target: string): void {
    const log = this.logs.get(target);
    const last = log?.messages[log.messages.length - 1];
    if (log?.hasNewer !== true || last === undefined || this.newerInFlight) return;
    this.newerInFlight = true;
    void this.page(
      target,
      { afterSeq: last.seq },
      (held, p) => mergeMessages(held ?? emptyLog(target), p.messages, undefined, p.hasNewer ?? false),
      () => (this.newerInFlight = false),
    );
  }

  /** "Jump to latest": the window replaced by the newest page. */
  loadLatest(target: string): void {
    void this.page(target, {}, (_held, p) => mergeMessages(emptyLog(target), p.messages, p.hasMore, false));
  }

  /**
   * A search result opened in its conversation: `onHeld` runs once the message at `seq` is held —
   * at once when it is, else after the page around it arrives (held as empty meanwhile, so the
   * newest page is not fetched too).
   */
  openAround(target: string, seq: number, onHeld: () => void): void {
    if (this.logs.get(target)?.messages.some((m) => m.seq === seq) === true) return onHeld();
    this.set(target, emptyLog(target));
    void this.page(target, { aroundSeq: seq }, (_held, p) =>
      mergeMessages(emptyLog(target), p.messages, p.hasMore, p.hasNewer ?? false),
    ).then((ok) => ok && onHeld());
  }

  /** Resolves with an error message, or null when sent. */
  async send(target: string, content: string): Promise<string | null> {
    const r = await this.api.messages.send({ target, content });
    return r.ok ? null : r.message;
  }

  /** Messages may have been missed (a reconnect): every log dropped, each pane on view asks again. */
  reset(): void {
    const held = [...this.logs.keys()];
    this.logs.clear();
    for (const target of held) this.notify(`t:${target}`);
  }

  /** One `messages.list` page for `target`, merged by `merge` into what is held when it arrives. */
  private async page(
    target: string,
    at: PageAt,
    merge: (held: MessageLog | undefined, page: Page) => MessageLog,
    settled?: () => void,
  ): Promise<boolean> {
    const r = await this.api.messages.list({ target, ...at, limit: PAGE });
    settled?.();
    if (!r.ok) {
      this.onError(r.message);
      return false;
    }
    this.set(target, merge(this.logs.get(target), r.value));
    return true;
  }

  private set(target: string, log: MessageLog): void {
    if (this.logs.get(target) === log) return;
    this.logs.set(target, log);
    this.notify(`t:${target}`);
  }

  private setLoadingOlder(loading: boolean): void {
    this.olderInFlight = loading;
    this.notify(LOADING_OLDER);
  }
}

/** The log of a conversation on view (its newest page asked for when none is held). */
export function useMessageLog(store: MessageStore, target: string): MessageLog {
  const log = useStoreKey(store, `t:${target}`, () => store.logOf(target));
  useEffect(() => {
    if (log === undefined) store.show(target);
  }, [store, target, log]);
  const empty = useMemo(() => emptyLog(target), [target]);
  return log ?? empty;
}

export function useLoadingOlder(store: MessageStore): boolean {
  return useStoreKey(store, LOADING_OLDER, () => store.loadingOlder);
}
