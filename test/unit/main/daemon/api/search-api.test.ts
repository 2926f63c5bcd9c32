import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOnePosition, createSearchApi, listWindow } from '../../../../../main/daemon/api/search-api.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { apiCalls } from '../../../../../shared/api/contract.js';
import { targetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let store: Store;
const general = targetKey('#general');
beforeEach(() => {
  dir = makeTempDir('agentteam-search-api-');
  store = Store.open(dir.path);
});
afterEach(() => {
  store.close();
  dir.remove();
});
const post = (target: string, content: string) =>
  store.appendMessage({ target: targetKey(target), authorId: 'operator', authorKind: 'operator', content }).message;

describe('messages.search (issue 17)', () => {
  it('answers contract-valid results with target, id, seq, author and a marked snippet (text, never HTML)', async () => {
    post('#general', 'first');
    const m = post('#general', 'deploy <script>alert(1)</script> now');
    const api = createSearchApi(store);
    const r = await api['messages.search']({ query: 'script' });
    expect(apiCalls['messages.search'].response.parse(r)).toEqual(r);
    expect(r.results).toHaveLength(1);
    expect(r.results[0]).toMatchObject({ target: '#general', messageId: m.id, seq: 2, authorKind: 'operator' });
    expect(r.results[0]!.snippet).toEqual([
      { text: 'deploy <', match: false },
      { text: 'script', match: true },
      { text: '>alert(1)</', match: false },
      { text: 'script', match: true },
      { text: '> now', match: false },
    ]);
    expect(r.nextBefore).toBeNull();
  });

  it('the contract refuses an empty query and a limit over 100', () => {
    expect(apiCalls['messages.search'].request.safeParse({ query: '' }).success).toBe(false);
    expect(apiCalls['messages.search'].request.safeParse({ query: 'x', limit: 101 }).success).toBe(false);
    expect(apiCalls['messages.search'].request.safeParse({ query: 'x', before: 3, limit: 5 }).success).toBe(true);
  });
});

describe('messages.list windows (issue 17: open a result in context)', () => {
  beforeEach(() => {
    for (let i = 1; i <= 30; i += 1) post('#general', `m${i}`);
  });
  const seqs = (p: { messages: { seq: number }[] }) => p.messages.map((m) => m.seq);

  it('aroundSeq returns the page centred on the seq, with hasMore and hasNewer', () => {
    const p = listWindow(store, general, 10, { aroundSeq: 15 });
    expect(seqs(p)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(p).toMatchObject({ hasMore: true, hasNewer: true });
    const start = listWindow(store, general, 10, { aroundSeq: 2 });
    expect(seqs(start)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(start).toMatchObject({ hasMore: false, hasNewer: true });
    const end = listWindow(store, general, 10, { aroundSeq: 29 });
    expect(seqs(end)).toEqual([24, 25, 26, 27, 28, 29, 30]);
    expect(end).toMatchObject({ hasMore: true, hasNewer: false });
  });

  it('afterSeq pages forward to the newest', () => {
    const p = listWindow(store, general, 10, { afterSeq: 19 });
    expect(seqs(p)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(p.hasNewer).toBe(true);
    expect(listWindow(store, general, 10, { afterSeq: 29 })).toMatchObject({ hasNewer: false });
  });

  it('refuses two positions at once with invalid_request', () => {
    expect(() => checkOnePosition({ beforeSeq: 3, afterSeq: undefined, aroundSeq: 2 })).toThrow(
      /one of beforeSeq, afterSeq, aroundSeq; got beforeSeq and aroundSeq/,
    );
    expect(() => checkOnePosition({ beforeSeq: undefined, afterSeq: undefined, aroundSeq: 2 })).not.toThrow();
  });
});
