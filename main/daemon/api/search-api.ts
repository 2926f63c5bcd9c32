/**
 * Search across conversations (issue 17): `messages.search` over the store's FTS5 index, and
 * the `messages.list` windows that open a result in its conversation (`aroundSeq`) and page
 * forward from there (`afterSeq`).
 */
import { ApiError, type ApiHandlers, type ApiResponse } from '../../../shared/api/contract.js';
import type { TargetKey } from '../../../shared/target.js';
import type { MessageRecord, Store } from '../store/index.js';
import { toMessage } from './api-mappers.js';

const DEFAULT_RESULTS = 20;

export function createSearchApi(store: Store): Pick<ApiHandlers, 'messages.search'> {
  return {
    'messages.search': async ({ query, limit, before }) => {
      const page = store.searchMessages(query, { limit: limit ?? DEFAULT_RESULTS, ...(before ? { before } : {}) });
      return {
        results: page.hits.map(({ message: m, snippet }) => ({
          target: m.target,
          messageId: m.id,
          seq: m.seq,
          authorId: m.authorId,
          authorName: m.authorName,
          authorKind: m.authorKind,
          createdAt: m.createdAt,
          snippet,
        })),
        nextBefore: page.nextBefore,
      };
    },
  };
}

type ListPage = ApiResponse<'messages.list'>;

/**
 * A window of `page` messages that is not the newest page: around a seq (half before it, the
 * rest from it on) or after a seq. One extra row each way tells whether more exist.
 */
export function listWindow(
  store: Store,
  target: TargetKey,
  page: number,
  at: { aroundSeq?: number | undefined; afterSeq?: number | undefined },
): ListPage {
  const withReactions = (rows: readonly MessageRecord[], hasMore: boolean, hasNewer: boolean): ListPage => {
    const reactions = store.reactionsOf(rows.map((m) => m.id));
    const agents = store.agentNames();
    return { messages: rows.map((m) => toMessage(m, reactions.get(m.id), agents)), hasMore, hasNewer };
  };
  if (at.aroundSeq !== undefined) {
    const half = Math.floor(page / 2);
    const older = store.listMessages(target, { beforeSeq: at.aroundSeq, limit: half + 1 });
    const newer = store.listMessages(target, { afterSeq: at.aroundSeq - 1, limit: page - half + 1 });
    const hasMore = older.length > half;
    const hasNewer = newer.length > page - half;
    return withReactions(
      [...(hasMore ? older.slice(1) : older), ...(hasNewer ? newer.slice(0, page - half) : newer)],
      hasMore,
      hasNewer,
    );
  }
  const after = at.afterSeq ?? 0;
  const rows = store.listMessages(target, { afterSeq: after, limit: page + 1 });
  const hasNewer = rows.length > page;
  return withReactions(hasNewer ? rows.slice(0, page) : rows, after > 0, hasNewer);
}

/** At most one of the paging positions of `messages.list`. */
export function checkOnePosition(req: {
  beforeSeq: number | undefined;
  afterSeq: number | undefined;
  aroundSeq: number | undefined;
}): void {
  const given = (['beforeSeq', 'afterSeq', 'aroundSeq'] as const).filter((k) => req[k] !== undefined);
  if (given.length > 1)
    throw new ApiError(
      'invalid_request',
      `messages.list takes one of beforeSeq, afterSeq, aroundSeq; got ${given.join(' and ')}.`,
    );
}
