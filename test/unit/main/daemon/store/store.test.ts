import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE, SCHEMA_VERSION, Store, StoreError, type WakeRecord } from '../../../../../main/daemon/store/index.js';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { DETAIL_MAX } from '../../../../../main/daemon/diagnostics.js';

const general = targetKey('#general');
const thread = targetKey('#general:ab12');
const dm = targetKey('dm:@claude');
const dmThread = targetKey('dm:@claude:zz99');

let dir: TempDir;
let store: Store;
let clock: number;
const now = () => new Date(Date.UTC(2026, 10, 30, 8, 0, 0) + clock++ * 1000);

beforeEach(() => {
  dir = makeTempDir('agentteam-store-');
  clock = 0;
  store = Store.open(dir.path, { now });
});
afterEach(() => {
  store.close();
  dir.remove();
});

const op = (target: TargetKey, content: string) =>
  store.appendMessage({ target, authorId: 'operator', authorKind: 'operator', content });

describe('Store.open', () => {
  it('creates the database in WAL mode with synchronous=FULL and the current schema version', () => {
    expect(readdirSync(dir.path)).toContain(DB_FILE);
    const db = new DatabaseSync(join(dir.path, DB_FILE), { readOnly: true });
    expect(db.prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
    expect(db.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    db.close();
    // synchronous is per connection: read the store's own.
    expect((store as unknown as { db: DatabaseSync }).db.prepare('PRAGMA synchronous').get()?.synchronous).toBe(2);
  });

  it('keeps data across close and reopen and re-running migrations is a no-op', () => {
    op(general, 'one');
    store.close();
    store = Store.open(dir.path, { now });
    expect(store.lastSeq(general)).toBe(1);
    expect(store.listMessages(general).map((m) => m.content)).toEqual(['one']);
  });

  it('close is idempotent', () => {
    store.close();
    expect(() => store.close()).not.toThrow();
  });

  it('refuses a store written by a newer schema, naming the file', () => {
    store.close();
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    let err: unknown;
    try {
      store = Store.open(dir.path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('store_too_new');
    expect((err as StoreError).message).toContain(join(dir.path, DB_FILE));
    // The lock was released on failure: a compatible open works again once fixed.
    const fix = new DatabaseSync(join(dir.path, DB_FILE));
    fix.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    fix.close();
    store = Store.open(dir.path);
  });

  it('refuses a file that is not a database with store_unopenable', () => {
    store.close();
    const other = makeTempDir('agentteam-store-bad-');
    try {
      writeFileSync(
        join(other.path, DB_FILE),
        'this is not sqlite, it is a text file that is long enough to be read as a header',
      );
      expect(() => Store.open(other.path)).toThrow(expect.objectContaining({ code: 'store_unopenable' }));
    } finally {
      other.remove();
    }
    store = Store.open(dir.path);
  });
});

describe('Store.openReadOnly', () => {
  it('reads what the live writer committed, without its lock, and refuses writes', () => {
    op(general, 'one');
    const reader = Store.openReadOnly(dir.path);
    try {
      expect(reader.readOnly).toBe(true);
      expect(reader.listMessages(general).map((m) => m.content)).toEqual(['one']);
      op(general, 'two');
      expect(reader.lastSeq(general)).toBe(2);
      expect(() =>
        reader.appendMessage({ target: general, authorId: 'x', authorKind: 'operator', content: 'no' }),
      ).toThrow(/readonly/i);
    } finally {
      reader.close();
    }
    expect(store.lastSeq(general)).toBe(2);
  });

  it('answers store_missing for a data dir without a store, creating nothing', () => {
    const empty = makeTempDir('agentteam-store-empty-');
    try {
      expect(() => Store.openReadOnly(empty.path)).toThrow(expect.objectContaining({ code: 'store_missing' }));
      expect(readdirSync(empty.path)).toEqual([]);
    } finally {
      empty.remove();
    }
  });
});

describe('members and conversations', () => {
  it('upserts members and lists them', () => {
    store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
    store.upsertMember({ id: 'claude', kind: 'agent', name: 'Claude' });
    store.upsertMember({ id: 'claude', kind: 'agent', name: 'Claude Code' });
    expect(store.listMembers().map((m) => [m.id, m.kind, m.name])).toEqual([
      ['operator', 'operator', 'You'],
      ['claude', 'agent', 'Claude Code'],
    ]);
    // The agents' names from memory (issue 30), as stored, and again after a reopen.
    store.upsertMember({ id: 'codex', kind: 'agent', name: 'Codex' });
    expect([...store.agentNames()]).toEqual([
      ['claude', 'Claude Code'],
      ['codex', 'Codex'],
    ]);
    store.close();
    store = Store.open(dir.path, { now });
    expect([...store.agentNames()]).toEqual([
      ['claude', 'Claude Code'],
      ['codex', 'Codex'],
    ]);
  });

  it('creates a thread together with its parent, for channels and DMs', () => {
    const t = store.ensureConversation(thread);
    expect(t).toMatchObject({ target: '#general:ab12', kind: 'thread', parent: '#general', lastSeq: 0 });
    expect(store.getConversation(general)).toMatchObject({ kind: 'channel', parent: null });
    store.ensureConversation(dmThread);
    expect(store.getConversation(dm)).toMatchObject({ kind: 'dm', parent: null });
    expect(store.listConversations().map((c) => c.target)).toEqual([
      '#general',
      '#general:ab12',
      'dm:@claude',
      'dm:@claude:zz99',
    ]);
  });

  it('auto-creates conversations on first message and reports lastSeq', () => {
    op(thread, 'in a thread');
    const byTarget = Object.fromEntries(store.listConversations().map((c) => [c.target, c.lastSeq]));
    expect(byTarget).toEqual({ '#general': 0, '#general:ab12': 1 });
  });

  it('rejects a non-canonical key as a bug and writes nothing', () => {
    expect(() => op('#General' as TargetKey, 'x')).toThrow(/not a canonical TargetKey/);
    expect(() => op('general' as TargetKey, 'x')).toThrow(/not a canonical TargetKey/);
    expect(store.listConversations()).toEqual([]);
  });
});

describe('messages', () => {
  it('assigns per-target, gap-free TargetSeq from 1, and a thread never shares its parent sequence', () => {
    expect(op(general, 'a').message.seq).toBe(1);
    expect(op(general, 'b').message.seq).toBe(2);
    expect(op(thread, 'c').message.seq).toBe(1);
    expect(op(dm, 'd').message.seq).toBe(1);
    expect(op(general, 'e').message.seq).toBe(3);
    expect(store.lastSeq(general)).toBe(3);
    expect(store.lastSeq(thread)).toBe(1);
    expect(store.lastSeq(targetKey('#nowhere'))).toBe(0);
    expect(store.listMessages(thread).map((m) => m.target)).toEqual(['#general:ab12']);
  });

  it('returns the stored record, readable by id, with the member name and times as ISO strings', () => {
    store.upsertMember({ id: 'claude', kind: 'agent', name: 'Claude' });
    const r = store.appendMessage({
      target: dm,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'hello',
      responseId: 'r1',
      chunkIndex: 0,
    });
    expect(r.status).toBe('sent');
    expect(store.getMessage(r.message.id)).toEqual(r.message);
    expect(r.message).toMatchObject({ authorName: 'Claude', responseId: 'r1', chunkIndex: 0, redelivered: false });
    expect(new Date(r.message.createdAt).toISOString()).toBe(r.message.createdAt);
    expect(store.getMessage('msg_missing')).toBeUndefined();
  });

  it('stores one chunk of one response of one author once and answers already_sent with the original', () => {
    const first = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'part 1',
      responseId: 'resp-1',
      chunkIndex: 0,
    });
    const again = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'part 1',
      responseId: 'resp-1',
      chunkIndex: 0,
    });
    expect(again).toEqual({ status: 'already_sent', message: first.message });
    const chunk2 = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'part 2',
      responseId: 'resp-1',
      chunkIndex: 1,
    });
    expect(chunk2.status).toBe('sent');
    // Another agent may use the same response id: idempotency is per author.
    const other = store.appendMessage({
      target: general,
      authorId: 'codex',
      authorKind: 'agent',
      content: 'x',
      responseId: 'resp-1',
      chunkIndex: 0,
    });
    expect(other.status).toBe('sent');
    // The sequence did not move for the duplicate: gap-free.
    expect(store.listMessages(general).map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it('finds a response chunk by author, response id and chunk (delivery confirmation lookups)', () => {
    const r = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'c1',
      responseId: 'resp-7',
      chunkIndex: 1,
    });
    expect(store.getMessageByResponse('claude', 'resp-7', 1)).toEqual(r.message);
    expect(store.getMessageByResponse('claude', 'resp-7', 0)).toBeUndefined();
    expect(store.getMessageByResponse('codex', 'resp-7', 1)).toBeUndefined();
  });

  it('defaults chunkIndex to 0 when a responseId is given', () => {
    const a = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'x',
      responseId: 'r',
    });
    const b = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'x',
      responseId: 'r',
      chunkIndex: 0,
    });
    expect(a.message.chunkIndex).toBe(0);
    expect(b.status).toBe('already_sent');
  });

  it('keeps the redelivered flag', () => {
    const r = store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'late',
      responseId: 'r9',
      redelivered: true,
    });
    expect(store.getMessage(r.message.id)?.redelivered).toBe(true);
  });

  it('lists pages ascending: after, before (newest page), both, limit', () => {
    for (let i = 1; i <= 10; i++) op(general, `m${i}`);
    const seqs = (o: Parameters<Store['listMessages']>[1]) => store.listMessages(general, o).map((m) => m.seq);
    expect(seqs({ limit: 3 })).toEqual([1, 2, 3]);
    expect(seqs({ afterSeq: 8 })).toEqual([9, 10]);
    expect(seqs({ beforeSeq: 6, limit: 2 })).toEqual([4, 5]);
    expect(seqs({ afterSeq: 2, beforeSeq: 6 })).toEqual([3, 4, 5]);
    expect(store.listMessages(targetKey('#empty'))).toEqual([]);
  });
});

describe('wakes', () => {
  const wake = (token: string, over: Partial<Parameters<Store['insertWake']>[0]> = {}): WakeRecord =>
    store.insertWake({
      wakeToken: token,
      messageId: 'msg_1',
      agentId: 'claude',
      runtime: 'claude-code',
      target: general,
      targetSeq: 1,
      deliveryClass: 'visible_reply',
      ...over,
    });

  it('inserts a queued wake with its first status event', () => {
    const w = wake('w1');
    expect(w).toMatchObject({
      wakeToken: 'w1',
      status: 'queued',
      reason: null,
      beacons: 0,
      escalated: false,
      finalCheck: false,
      endedAt: null,
      lastBeaconAt: null,
    });
    expect(store.listWakeEvents('w1').map((e) => [e.kind, e.status])).toEqual([['status', 'queued']]);
  });

  it('journals the §10.1 fields it was given (names, model) and null for a wake recorded without them', () => {
    const named = wake('w1', { agentName: 'claude', agentDisplayName: 'Claude', model: 'claude-sonnet-4-5' });
    expect(named).toMatchObject({ agentName: 'claude', agentDisplayName: 'Claude', model: 'claude-sonnet-4-5' });
    expect(store.getWake('w1')).toMatchObject({ agentName: 'claude', agentDisplayName: 'Claude' });
    expect(wake('w2', { model: null })).toMatchObject({ agentName: null, agentDisplayName: null, model: null });
  });

  it('rejects a duplicate wake token as a bug', () => {
    wake('w1');
    expect(() => wake('w1')).toThrow();
    expect(store.listWakeEvents('w1')).toHaveLength(1);
  });

  it('mirrors events on the row: beacons count, escalation, final-check, terminal end time', () => {
    wake('w1');
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'delivered' })).toBe(true);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'beacon' })).toBe(true);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'beacon' })).toBe(true);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'escalation' })).toBe(true);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'final_check', status: 'final_check_sent' })).toBe(true);
    const mid = store.getWake('w1');
    expect(mid).toMatchObject({
      status: 'final_check_sent',
      beacons: 2,
      escalated: true,
      finalCheck: true,
      endedAt: null,
    });
    expect(mid?.lastBeaconAt).not.toBeNull();
    expect(
      store.appendWakeEvent({
        wakeToken: 'w1',
        kind: 'status',
        status: 'completed_without_visible_reply',
        reason: 'no_reply',
      }),
    ).toBe(true);
    const end = store.getWake('w1');
    expect(end).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply', beacons: 2 });
    expect(end?.endedAt).toBe(store.listWakeEvents('w1').at(-1)?.at);
    expect(store.listWakeEvents('w1').map((e) => e.kind)).toEqual([
      'status',
      'status',
      'beacon',
      'beacon',
      'escalation',
      'final_check',
      'status',
    ]);
  });

  it('refuses any status, beacon, escalation or final-check after a terminal status and writes nothing (contract §6.2)', () => {
    wake('w1');
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' })).toBe(true);
    const before = store.listWakeEvents('w1');
    const row = store.getWake('w1');
    for (const status of [
      'reply_sent',
      'failed',
      'completed_without_visible_reply',
      'delivered',
      'queued',
      'final_check_sent',
    ] as const) {
      expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status })).toBe(false);
    }
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'beacon' })).toBe(false);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'escalation' })).toBe(false);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'final_check' })).toBe(false);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'alert', status: 'failed' })).toBe(false);
    expect(store.listWakeEvents('w1')).toEqual(before);
    expect(store.getWake('w1')).toEqual(row);
  });

  it('records a compaction on an active wake without changing its status, and refuses it after the end (issue 24)', () => {
    wake('w1');
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'delivered' });
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'compaction' })).toBe(true);
    expect(store.getWake('w1')?.status).toBe('delivered');
    expect(store.listWakeEvents('w1').at(-1)).toMatchObject({ kind: 'compaction', status: null, reason: null });
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' });
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'compaction' })).toBe(false);
    expect(store.listWakeEvents('w1').map((e) => e.kind)).toEqual(['status', 'status', 'compaction', 'status']);
  });

  it('migration 7 rebuilds wake_events for the compaction kind: every event and id kept, still append-only (issue 24)', () => {
    wake('w1');
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'delivered' });
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'beacon', detail: 'still working' });
    const before = store.listWakeEvents('w1');
    store.close();
    // Take the table back to version 6 (its CHECK without `compaction`), as an older AgentTeam left it.
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(`
      DROP TRIGGER wake_events_append_only_update; DROP TRIGGER wake_events_append_only_delete;
      CREATE TABLE old_events (
        id INTEGER PRIMARY KEY, wake_token TEXT NOT NULL REFERENCES wakes (token),
        kind TEXT NOT NULL CHECK (kind IN ('status', 'beacon', 'escalation', 'final_check', 'delivery', 'alert')),
        status TEXT, reason TEXT, detail TEXT, at TEXT NOT NULL
      ) STRICT;
      INSERT INTO old_events SELECT * FROM wake_events;
      DROP TABLE wake_events;
      ALTER TABLE old_events RENAME TO wake_events;
      CREATE INDEX wake_events_token ON wake_events (wake_token, id);
      CREATE TRIGGER wake_events_append_only_update BEFORE UPDATE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
      CREATE TRIGGER wake_events_append_only_delete BEFORE DELETE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
      -- and without migration 8's columns, so 7 and 8 both run again
      ALTER TABLE wakes DROP COLUMN agent_name; ALTER TABLE wakes DROP COLUMN agent_display_name;
      ALTER TABLE wakes DROP COLUMN model; ALTER TABLE audit DROP COLUMN wake_tokens; DROP TABLE grants;
      -- and without migration 11's table (issue 26)
      DROP TABLE wake_changes;
      -- and without migration 10's (issue 25)
      DROP TABLE chains; ALTER TABLE messages DROP COLUMN chain_id;
      ALTER TABLE wakes DROP COLUMN chain_id; ALTER TABLE wakes DROP COLUMN cause; ALTER TABLE wakes DROP COLUMN hop;
      ALTER TABLE wakes DROP COLUMN hop_budget; ALTER TABLE wakes DROP COLUMN asked_by;
      ALTER TABLE wakes DROP COLUMN asked_by_name;
      -- and without migration 14's day sums (issue 30)
      DROP TABLE usage_days;
      -- and without migration 13's table (issue 27)
      DROP TABLE agent_pauses;
      -- and without migration 12's tables (issue 27)
      DROP TABLE wake_usage; DROP TABLE limit_windows; DROP TABLE usage_warnings;
      PRAGMA user_version = 6;
    `);
    expect(() => db.exec(`INSERT INTO wake_events (wake_token, kind, at) VALUES ('w1', 'compaction', 'x')`)).toThrow(
      /CHECK constraint failed/,
    );
    db.close();
    store = Store.open(dir.path, { now });
    expect(store.listWakeEvents('w1')).toEqual(before);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'compaction' })).toBe(true);
    store.close();
    const after = new DatabaseSync(join(dir.path, DB_FILE));
    try {
      expect(() => after.exec(`UPDATE wake_events SET detail = 'changed'`)).toThrow(/append-only/);
      expect(() => after.exec(`DELETE FROM wake_events`)).toThrow(/append-only/);
      expect(after.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    } finally {
      after.close();
    }
    store = Store.open(dir.path, { now });
  });

  it('migration 15 rebuilds prompt_inputs for the continuation kind: every entry, seq and wake link kept (issue 38)', () => {
    wake('w1');
    store.appendPromptInput({ agentId: 'a1', wakeTokens: ['w1'], kind: 'delivery', text: 'the task' });
    store.appendPromptInput({ agentId: 'a1', wakeTokens: ['w1'], kind: 'final_check', text: 'FINAL-CHECK' });
    const before = store.listPromptInputs('w1');
    store.close();
    // Take the table back to version 14 (its CHECK without `continuation`), as an older AgentTeam left it.
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(`
      PRAGMA foreign_keys = OFF;
      CREATE TABLE old_inputs (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('turn_context', 'delivery', 'final_check', 'recovery')),
        wake_tokens TEXT NOT NULL, text TEXT NOT NULL, at TEXT NOT NULL
      ) STRICT;
      INSERT INTO old_inputs SELECT * FROM prompt_inputs;
      DROP TABLE prompt_inputs;
      ALTER TABLE old_inputs RENAME TO prompt_inputs;
      PRAGMA user_version = 14;
    `);
    expect(() =>
      db.exec(
        `INSERT INTO prompt_inputs (id, agent_id, kind, wake_tokens, text, at) VALUES ('p', 'a1', 'continuation', '[]', 'x', 'x')`,
      ),
    ).toThrow(/CHECK constraint failed/);
    db.close();
    store = Store.open(dir.path, { now });
    expect(store.listPromptInputs('w1')).toEqual(before);
    store.appendPromptInput({ agentId: 'a1', wakeTokens: ['w1'], kind: 'continuation', text: 'CONTEXT-COMPACTED' });
    expect(store.listPromptInputs('w1').map((p) => p.kind)).toEqual(['delivery', 'final_check', 'continuation']);
    store.close();
    const after = new DatabaseSync(join(dir.path, DB_FILE));
    try {
      expect(after.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
      expect(after.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    } finally {
      after.close();
    }
    store = Store.open(dir.path, { now });
  });

  it('still records delivery and alert events after the end, without changing the status', () => {
    wake('w1');
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' });
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'alert', detail: 'delivery uncertain' })).toBe(true);
    expect(store.getWake('w1')?.status).toBe('reply_sent');
    expect(store.listWakeEvents('w1').at(-1)).toMatchObject({
      kind: 'alert',
      detail: 'delivery uncertain',
      status: null,
    });
  });

  it('answers false for an unknown wake and throws for a status event without status (a bug)', () => {
    expect(store.appendWakeEvent({ wakeToken: 'nope', kind: 'beacon' })).toBe(false);
    expect(() => store.appendWakeEvent({ wakeToken: 'nope', kind: 'status' })).toThrow(/needs a status/);
  });

  it('bounds the failure detail', () => {
    wake('w1');
    store.appendWakeEvent({
      wakeToken: 'w1',
      kind: 'status',
      status: 'failed',
      reason: 'runtime_error',
      detail: 'x'.repeat(10_000),
    });
    expect(store.getWake('w1')?.detail?.length).toBe(DETAIL_MAX);
    expect(store.listWakeEvents('w1').at(-1)?.detail?.length).toBe(DETAIL_MAX);
  });

  it('lists by target, agent, status and activeOnly, oldest first (admission order) or newest first', () => {
    wake('w1');
    wake('w2', { agentId: 'codex', runtime: 'codex' });
    wake('w3', { target: thread });
    wake('w4');
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' });
    store.appendWakeEvent({ wakeToken: 'w4', kind: 'status', status: 'delivered' });
    const tokens = (f: Parameters<Store['listWakes']>[0]) => store.listWakes(f).map((w) => w.wakeToken);
    expect(tokens({})).toEqual(['w1', 'w2', 'w3', 'w4']);
    expect(tokens({ target: general })).toEqual(['w1', 'w2', 'w4']);
    expect(tokens({ target: thread })).toEqual(['w3']);
    expect(tokens({ agentId: 'codex' })).toEqual(['w2']);
    expect(tokens({ activeOnly: true })).toEqual(['w2', 'w3', 'w4']);
    expect(tokens({ status: 'queued' })).toEqual(['w2', 'w3']);
    expect(tokens({ status: 'queued', limit: 1 })).toEqual(['w2']);
    expect(tokens({ order: 'newest', limit: 2 })).toEqual(['w4', 'w3']);
    expect(tokens({ target: general, activeOnly: true, agentId: 'claude' })).toEqual(['w4']);
  });
});

describe('prompt_input trajectory (contract §8.4)', () => {
  it('records entries and lists those of a wake in order, one entry carrying several wakes', () => {
    const a = store.appendPromptInput({
      agentId: 'claude',
      wakeTokens: ['w1'],
      kind: 'turn_context',
      text: 'contract block',
    });
    store.appendPromptInput({ agentId: 'claude', wakeTokens: ['w2'], kind: 'delivery', text: 'other' });
    const c = store.appendPromptInput({
      agentId: 'claude',
      wakeTokens: ['w1', 'w2', 'w1'],
      kind: 'final_check',
      text: 'Final delivery check',
    });
    expect(c.wakeTokens).toEqual(['w1', 'w2']);
    expect(store.listPromptInputs('w1').map((p) => [p.kind, p.text])).toEqual([
      ['turn_context', 'contract block'],
      ['final_check', 'Final delivery check'],
    ]);
    expect(store.listPromptInputs('w2').map((p) => p.kind)).toEqual(['delivery', 'final_check']);
    expect(store.listPromptInputs('w1')[0]).toEqual(a);
    expect(c.seq).toBeGreaterThan(a.seq);
  });
});

describe('undelivered responses (watchdog spec B)', () => {
  const u = (responseId: string, target: TargetKey = general, agentId = 'claude') =>
    store.saveUndelivered({
      agentId,
      target,
      turnId: 't1',
      responseId,
      chunkIndex: 0,
      content: `body ${responseId}`,
      reason: 'timeout',
    });

  it('takes the open ones of a target oldest first, once', () => {
    u('r1');
    u('r2', thread);
    u('r3');
    const taken = store.takeUndelivered(general);
    expect(taken.map((x) => x.responseId)).toEqual(['r1', 'r3']);
    expect(taken.every((x) => x.takenAt !== null)).toBe(true);
    expect(store.takeUndelivered(general)).toEqual([]);
    expect(store.takeUndelivered(thread).map((x) => x.content)).toEqual(['body r2']);
  });

  it('filters by agent and re-arms a response saved again after it was taken', () => {
    u('r1');
    u('r2', general, 'codex');
    expect(store.takeUndelivered(general, 'codex').map((x) => x.responseId)).toEqual(['r2']);
    u('r2', general, 'codex');
    u('r1');
    expect(store.takeUndelivered(general).map((x) => x.responseId)).toEqual(['r1', 'r2']);
  });
});

describe('channel bindings (issue 18; keyed by channel since issue 39)', () => {
  it("keeps each channel's bindings apart: a chat and a conversation are bound once per channel", () => {
    store.addBinding('telegram', { chatId: '777', target: general, allowFrom: [1, 2] });
    store.addBinding('other', { chatId: '777', target: general, allowFrom: ['U1'] });
    expect(() => store.addBinding('telegram', { chatId: '777', target: dm, allowFrom: [] })).toThrow(/UNIQUE/);
    expect(() => store.addBinding('telegram', { chatId: '778', target: general, allowFrom: [] })).toThrow(/UNIQUE/);
    expect(
      store.listBindings('telegram').map(({ chatId, target, allowFrom }) => ({ chatId, target, allowFrom })),
    ).toEqual([{ chatId: '777', target: general, allowFrom: [1, 2] }]);
    expect(store.removeBinding('other', '777')).toBe(true);
    expect(store.removeBinding('other', '777')).toBe(false);
    expect(store.listBindings('other')).toEqual([]);
    expect(store.listBindings('telegram')).toHaveLength(1);
  });

  it('migration 16 moves the Telegram bindings a version-15 store holds into channel_bindings, every one kept in order', () => {
    store.close();
    // The store as AgentTeam up to version 15 wrote it: telegram_bindings, chat ids as integers.
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(`
      DROP TABLE channel_bindings;
      CREATE TABLE telegram_bindings (
        chat_id INTEGER PRIMARY KEY, target TEXT NOT NULL UNIQUE, allow_from TEXT NOT NULL, created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO telegram_bindings VALUES (10, '#ops', '[7]', '2026-11-30T08:00:01.000Z');
      INSERT INTO telegram_bindings VALUES (42, '#general', '[1,2]', '2026-11-30T08:00:00.000Z');
      INSERT INTO telegram_bindings VALUES (9, 'dm:@claude', '[]', '2026-11-30T08:00:01.000Z');
      PRAGMA user_version = 15;
    `);
    db.close();
    store = Store.open(dir.path, { now });
    expect(store.listBindings('telegram')).toEqual([
      { chatId: '42', target: '#general', allowFrom: [1, 2], createdAt: '2026-11-30T08:00:00.000Z' },
      // Same time: in chat id order as version 15 listed them (9 before 10, though "10" < "9" as text).
      { chatId: '9', target: 'dm:@claude', allowFrom: [], createdAt: '2026-11-30T08:00:01.000Z' },
      { chatId: '10', target: '#ops', allowFrom: [7], createdAt: '2026-11-30T08:00:01.000Z' },
    ]);
    // Still bound once: the migrated chat cannot be bound again on the same channel.
    expect(() => store.addBinding('telegram', { chatId: '42', target: thread, allowFrom: [] })).toThrow(/UNIQUE/);
    store.close();
    const after = new DatabaseSync(join(dir.path, DB_FILE));
    try {
      expect(after.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
      expect(after.prepare(`SELECT name FROM sqlite_master WHERE name = 'telegram_bindings'`).all()).toEqual([]);
    } finally {
      after.close();
    }
    store = Store.open(dir.path, { now });
  });
});

describe('context recovery markers (contract §6.6)', () => {
  it('keeps one marker per canonical target with the highest frontier, with deterministic ids, threads kept exact', () => {
    const batch = store.saveRecoveryBatch('claude', [
      { target: general, frontierSeq: 3, wakeTokens: ['w1'] },
      { target: thread, frontierSeq: 7, wakeTokens: ['w2'] },
      { target: general, frontierSeq: 5, wakeTokens: ['w3'] },
      { target: dmThread, frontierSeq: 2 },
    ]);
    expect(batch.map((m) => [m.target, m.frontierSeq, m.state])).toEqual([
      ['#general', 5, 'pending'],
      ['#general:ab12', 7, 'pending'],
      ['dm:@claude:zz99', 2, 'pending'],
    ]);
    expect(batch[0]?.wakeTokens).toEqual(['w1', 'w3']);
    expect(new Set(batch.map((m) => m.syntheticMessageId)).size).toBe(3);
    // Same frontier again: the same marker, nothing new.
    const again = store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 5 }]);
    expect(again[0]?.id).toBe(batch[0]?.id);
    expect(store.listRecoveryMarkers('claude')).toHaveLength(3);
  });

  it('a higher frontier supersedes a pending marker but never rewrites a launched one', () => {
    const [first] = store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 3 }]);
    const [higher] = store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 4 }]);
    expect(higher?.id).not.toBe(first?.id);
    expect(store.listRecoveryMarkers('claude').map((m) => [m.frontierSeq, m.state])).toEqual([
      [3, 'superseded'],
      [4, 'pending'],
    ]);
    // A lower frontier than the pending one keeps the pending one.
    expect(store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 2 }])[0]?.id).toBe(higher?.id);

    const launched = store.takeRecoveryMarker('claude');
    expect(launched).toMatchObject({ id: higher?.id, state: 'replay_pending' });
    const [newer] = store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 9 }]);
    expect(newer?.state).toBe('pending');
    expect(store.listRecoveryMarkers('claude').map((m) => [m.frontierSeq, m.state])).toEqual([
      [3, 'superseded'],
      [4, 'replay_pending'],
      [9, 'pending'],
    ]);
    // The old process boundary settles only the old marker.
    expect(store.settleRecoveryMarker(higher?.id ?? '')).toBe(true);
    expect(store.settleRecoveryMarker(higher?.id ?? '')).toBe(false);
    expect(store.settleRecoveryMarker(newer?.id ?? '')).toBe(false);
    expect(store.takeRecoveryMarker('claude')?.id).toBe(newer?.id);
  });

  it('each fresh runtime takes one marker, oldest first, per agent; ids survive a restart', () => {
    const batch = store.saveRecoveryBatch('claude', [
      { target: general, frontierSeq: 1 },
      { target: dm, frontierSeq: 1 },
    ]);
    store.saveRecoveryBatch('codex', [{ target: general, frontierSeq: 1 }]);
    expect(store.takeRecoveryMarker('claude')?.target).toBe('#general');
    store.close();
    store = Store.open(dir.path, { now });
    const second = store.takeRecoveryMarker('claude');
    expect(second?.id).toBe(batch[1]?.id);
    expect(second?.target).toBe('dm:@claude');
    expect(store.takeRecoveryMarker('claude')).toBeUndefined();
    expect(store.takeRecoveryMarker('codex')?.agentId).toBe('codex');
  });
});

describe('audit of cross-target sends (contract §8.3)', () => {
  it('appends, lists newest first (at most limit) and finds the records of a sending wake', () => {
    store.appendAudit({
      agentId: 'claude',
      kind: 'cross_target_send',
      target: thread,
      messageId: 'msg_1',
      detail: 'from #general',
      wakeTokens: ['wk_a', 'wk_b'],
    });
    store.appendAudit({ agentId: 'codex', kind: 'cross_target_send', target: dm, messageId: 'msg_2' });
    store.appendAudit({
      agentId: 'claude',
      kind: 'cross_target_send',
      target: dm,
      messageId: 'msg_3',
      wakeTokens: ['wk_b'],
    });
    expect(store.listAudit().map((a) => [a.agentId, a.target, a.messageId, a.detail, a.wakeTokens])).toEqual([
      ['claude', 'dm:@claude', 'msg_3', null, ['wk_b']],
      ['codex', 'dm:@claude', 'msg_2', null, []],
      ['claude', '#general:ab12', 'msg_1', 'from #general', ['wk_a', 'wk_b']],
    ]);
    expect(store.listAudit(1).map((a) => a.messageId)).toEqual(['msg_3']);
    expect(store.auditOfWake('wk_b').map((a) => a.messageId)).toEqual(['msg_1', 'msg_3']);
    expect(store.auditOfWake('wk_a').map((a) => a.messageId)).toEqual(['msg_1']);
    expect(store.auditOfWake('wk_none')).toEqual([]);
  });
});

describe('reactions', () => {
  it('stores a reaction once per author and emoji, and lists them per message in order', () => {
    store.upsertMember({ id: 'claude', kind: 'agent', name: 'Claude' });
    const m = op(general, 'hi').message;
    const other = op(general, 'again').message;
    expect(store.addReaction({ messageId: m.id, authorId: 'claude', emoji: '👍' })).toBe('added');
    expect(store.addReaction({ messageId: m.id, authorId: 'claude', emoji: '👍' })).toBe('already');
    expect(store.addReaction({ messageId: m.id, authorId: 'claude', emoji: '✅' })).toBe('added');
    const byMessage = store.reactionsOf([m.id, other.id]);
    expect(byMessage.get(m.id)?.map((r) => [r.emoji, r.authorName])).toEqual([
      ['👍', 'Claude'],
      ['✅', 'Claude'],
    ]);
    expect(byMessage.has(other.id)).toBe(false);
  });

  it('refuses a reaction to a message that does not exist (nothing written)', () => {
    expect(() => store.addReaction({ messageId: 'msg_missing', authorId: 'claude', emoji: '👍' })).toThrow();
    expect(store.reactionsOf(['msg_missing']).size).toBe(0);
  });
});

describe('durable commits (issue 19: fewer fsyncs per wake)', () => {
  it('counts one commit per write transaction; a batch of prompt inputs is one; an empty takeUndelivered is none', () => {
    const c0 = store.commits;
    op(general, 'hello');
    expect(store.commits).toBe(c0 + 1);
    store.appendPromptInputs([
      { agentId: 'claude', wakeTokens: ['w1'], kind: 'turn_context', text: 'context' },
      { agentId: 'claude', wakeTokens: ['w1'], kind: 'delivery', text: 'delivery' },
    ]);
    expect(store.commits).toBe(c0 + 2);
    expect(store.takeUndelivered(general)).toEqual([]);
    expect(store.commits).toBe(c0 + 2);
    store.saveUndelivered({
      agentId: 'claude',
      target: general,
      turnId: 't1',
      responseId: 'r1',
      chunkIndex: 0,
      content: 'kept',
      reason: 'timeout',
    });
    expect(store.takeUndelivered(general).map((u) => u.content)).toEqual(['kept']);
    expect(store.takeUndelivered(general)).toEqual([]);
  });
});

describe('durability classes (issue 19, store/durability.ts)', () => {
  const sync = () => (store as unknown as { db: DatabaseSync }).db.prepare('PRAGMA synchronous').get()?.synchronous;
  const wakeOn = (token: string, targetSeq: number) =>
    store.insertWake({
      wakeToken: token,
      messageId: `msg_${token}`,
      agentId: 'claude',
      runtime: 'claude-code',
      target: general,
      targetSeq,
      deliveryClass: 'visible_reply',
    });

  it('syncs admission and replies; a wake’s progress and timeline commit NORMAL; the connection is FULL again after', () => {
    const message = op(general, 'hello').message;
    wakeOn('w1', message.seq);
    const d0 = store.durableCommits;
    const c0 = store.commits;
    store.appendPromptInputs([
      { agentId: 'claude', wakeTokens: ['w1'], kind: 'turn_context', text: 'context' },
      { agentId: 'claude', wakeTokens: ['w1'], kind: 'delivery', text: 'delivery' },
    ]);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'delivered' })).toBe(true);
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'beacon', detail: 'Working…' })).toBe(true);
    expect(store.commits - c0).toBe(3);
    expect(store.durableCommits).toBe(d0);
    // An autocommit write after a NORMAL transaction is FULL again (the pragma is per connection).
    expect(sync()).toBe(2);
    // The reply and its RepliedUpToSeq: FULL.
    store.appendMessage({
      target: general,
      authorId: 'claude',
      authorKind: 'agent',
      content: 'answer',
      responseId: 'r1',
      repliedUpToSeq: message.seq,
    });
    expect(store.durableCommits).toBe(d0 + 1);
    // reply_sent covered by that durable RepliedUpToSeq: the restart re-derives it, so NORMAL.
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' })).toBe(true);
    expect(store.durableCommits).toBe(d0 + 1);
    expect(store.getWake('w1')?.status).toBe('reply_sent');
    // The reply's delivery line on the timeline, after the end: NORMAL.
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'delivery', detail: 'local · delivered' })).toBe(true);
    expect(store.durableCommits).toBe(d0 + 1);
    expect(sync()).toBe(2);
  });

  it('syncs a reply_sent no stored reply covers, the other terminal statuses and alerts', () => {
    const a = op(general, 'one').message;
    const b = op(general, 'two').message;
    const c = op(general, 'three').message;
    wakeOn('wa', a.seq);
    wakeOn('wb', b.seq);
    wakeOn('wc', c.seq);
    const d0 = store.durableCommits;
    // e.g. a confirmed reaction as the reply: nothing durable would re-derive it after a power loss.
    store.appendWakeEvent({ wakeToken: 'wa', kind: 'status', status: 'reply_sent' });
    expect(store.durableCommits).toBe(d0 + 1);
    store.appendWakeEvent({ wakeToken: 'wb', kind: 'status', status: 'failed', reason: 'runtime_error' });
    expect(store.durableCommits).toBe(d0 + 2);
    store.appendWakeEvent({ wakeToken: 'wc', kind: 'status', status: 'completed_without_visible_reply' });
    expect(store.durableCommits).toBe(d0 + 3);
    store.appendWakeEvent({ wakeToken: 'wc', kind: 'alert', detail: 'uncertain: the reply may not have arrived' });
    expect(store.durableCommits).toBe(d0 + 4);
  });

  it('a NORMAL commit survives closing and reopening the store (a process end loses no committed write)', () => {
    const message = op(general, 'hello').message;
    wakeOn('w1', message.seq);
    store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'delivered' });
    store.close();
    store = Store.open(dir.path, { now });
    expect(store.getWake('w1')?.status).toBe('delivered');
    expect(store.agentCursor('claude', general).seenUpToSeq).toBe(message.seq);
  });
});
