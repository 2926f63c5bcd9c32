import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { DB_FILE, Store } from '../../../../../main/daemon/store/index.js';
import { parseSearch, snippetOf } from '../../../../../main/daemon/store/tables/message-search.js';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const general = targetKey('#general');
const build = targetKey('#build');

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = makeTempDir('agentteam-search-');
  store = Store.open(dir.path);
});
afterEach(() => {
  store.close();
  dir.remove();
});

const post = (target: TargetKey, content: string) =>
  store.appendMessage({ target, authorId: 'operator', authorKind: 'operator', content }).message;
const found = (query: string, limit = 20) => store.searchMessages(query, { limit }).hits.map((h) => h.message.content);
const marked = (query: string) =>
  store
    .searchMessages(query, { limit: 1 })
    .hits[0]?.snippet.filter((p) => p.match)
    .map((p) => p.text);

describe('message search (issue 17: SQLite FTS5, trigram)', () => {
  it('finds messages across conversations, newest first, every term required, case-insensitive', () => {
    post(general, 'The retry loop never stops');
    post(build, 'build failed: retry budget exhausted');
    post(general, 'lunch?');
    expect(found('retry')).toEqual(['build failed: retry budget exhausted', 'The retry loop never stops']);
    expect(found('RETRY loop')).toEqual(['The retry loop never stops']);
    expect(found('nothing-like-this')).toEqual([]);
    const hit = store.searchMessages('budget', { limit: 5 }).hits[0]!;
    expect(hit.message).toMatchObject({ target: '#build', seq: 1, authorId: 'operator' });
  });

  it('finds Chinese words inside a sentence (unicode61 would not split CJK; trigram does), also 2-character words', () => {
    post(general, '我们今天讨论部署问题，然后再看日志');
    post(build, '部署完成');
    post(general, 'deploy finished');
    expect(found('部署问题')).toEqual(['我们今天讨论部署问题，然后再看日志']);
    // Two characters are shorter than a trigram: matched with LIKE on the same rows.
    expect(found('部署')).toEqual(['部署完成', '我们今天讨论部署问题，然后再看日志']);
    expect(found('日志')).toEqual(['我们今天讨论部署问题，然后再看日志']);
    expect(found('部署 日志')).toEqual(['我们今天讨论部署问题，然后再看日志']);
    expect(marked('部署问题')).toEqual(['部署问题']);
  });

  it('treats FTS5 syntax and LIKE wildcards in the input as plain text, never as an error', () => {
    post(general, 'say "hello" AND (goodbye) near: 100% done_ok \\ back*slash');
    post(general, 'unrelated');
    for (const q of [
      '"hello"',
      '"',
      'AND',
      'OR NOT',
      '(goodbye)',
      'near:',
      'NEAR(a b)',
      '100%',
      'done_',
      '\\',
      'back*',
      '*',
      '^x',
      "'; DROP TABLE messages; --",
      'a\u0000b',
    ]) {
      expect(() => store.searchMessages(q, { limit: 5 }), q).not.toThrow();
    }
    expect(found('"hello"')).toHaveLength(1);
    expect(found('(goodbye)')).toHaveLength(1);
    expect(found('100%')).toHaveLength(1);
    // `%` and `_` are not wildcards: "d_" does not match "do".
    expect(found('%')).toHaveLength(1);
    expect(found('_o')).toHaveLength(1);
    expect(found('n_')).toHaveLength(0);
    expect(found('OR')).toHaveLength(0);
    expect(found('   ')).toEqual([]);
    expect(store.listMessages(general)).toHaveLength(2);
  });

  it('pages with nextBefore and indexes new messages in the write transaction', () => {
    for (let i = 1; i <= 5; i += 1) post(general, `ticket ${i}`);
    const first = store.searchMessages('ticket', { limit: 2 });
    expect(first.hits.map((h) => h.message.content)).toEqual(['ticket 5', 'ticket 4']);
    expect(first.nextBefore).not.toBeNull();
    const second = store.searchMessages('ticket', { limit: 2, before: first.nextBefore! });
    expect(second.hits.map((h) => h.message.content)).toEqual(['ticket 3', 'ticket 2']);
    const third = store.searchMessages('ticket', { limit: 2, before: second.nextBefore! });
    expect(third.hits.map((h) => h.message.content)).toEqual(['ticket 1']);
    expect(third.nextBefore).toBeNull();
  });

  it('backfills messages stored before the migration (version 4 on an older store)', () => {
    post(general, 'stored before the search index existed');
    store.close();
    // Take the store back to schema version 3: the index and everything newer than version 3 go.
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(`
      DROP TRIGGER messages_fts_insert; DROP TRIGGER messages_fts_delete; DROP TRIGGER messages_fts_update;
      DROP TABLE messages_fts;
      ALTER TABLE undelivered DROP COLUMN channel; DROP TABLE channel_cursors; DROP TABLE channel_bindings;
      ALTER TABLE wakes DROP COLUMN recoveries; ALTER TABLE recovery_markers DROP COLUMN cause; DROP TABLE agent_cursors;
      ALTER TABLE wakes DROP COLUMN agent_name; ALTER TABLE wakes DROP COLUMN agent_display_name;
      ALTER TABLE wakes DROP COLUMN model; ALTER TABLE audit DROP COLUMN wake_tokens; DROP TABLE grants;
      DROP TABLE chains; ALTER TABLE messages DROP COLUMN chain_id;
      ALTER TABLE wakes DROP COLUMN chain_id; ALTER TABLE wakes DROP COLUMN cause; ALTER TABLE wakes DROP COLUMN hop;
      ALTER TABLE wakes DROP COLUMN hop_budget; ALTER TABLE wakes DROP COLUMN asked_by;
      ALTER TABLE wakes DROP COLUMN asked_by_name;
      DROP TABLE wake_changes; DROP TABLE agent_pauses; DROP TABLE usage_days;
      DROP TABLE wake_usage; DROP TABLE limit_windows; DROP TABLE usage_warnings;
      PRAGMA user_version = 3;
    `);
    db.close();
    store = Store.open(dir.path);
    expect(found('before the search')).toEqual(['stored before the search index existed']);
  });
});

describe('parseSearch', () => {
  it('quotes each long term, doubles inner quotes, escapes LIKE wildcards of short terms', () => {
    expect(parseSearch('say "hi there"')).toEqual({
      terms: ['say', '"hi', 'there"'],
      match: '"say" AND """hi" AND "there"""',
      likes: [],
    });
    expect(parseSearch('a% 部署 x_')).toMatchObject({ match: null, likes: ['%a\\%%', '%部署%', '%x\\_%'] });
    expect(parseSearch(' \t ')).toBeNull();
  });
});

describe('snippetOf', () => {
  it('cuts around the first match, marks every occurrence, folds white space, never returns markup', () => {
    const long = `${'x '.repeat(200)}the <b>retry</b>\n\nloop${' y'.repeat(200)}`;
    const parts = snippetOf(long, ['retry', 'loop'], 60);
    expect(parts[0]).toEqual({ text: '…', match: false });
    expect(parts[parts.length - 1]).toEqual({ text: '…', match: false });
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['retry', 'loop']);
    expect(parts.map((p) => p.text).join('')).toContain('<b>retry</b> loop');
    expect(snippetOf('Retry RETRY', ['retry'])).toEqual([
      { text: 'Retry', match: true },
      { text: ' ', match: false },
      { text: 'RETRY', match: true },
    ]);
  });
});
