/**
 * Fault injection: every public write that touches more than one row is one transaction, so an
 * error in the middle of it leaves nothing behind (issue 3: "each public write is one short
 * transaction"). A second connection plants a trigger that RAISE(ABORT)s on a later row of the
 * write; the store's earlier rows of that write must be gone, and the store must stay usable
 * (its cache of known conversations must not keep rows that were rolled back).
 * Running the writes without their transaction makes every test here fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { DB_FILE, Store } from '../../../../../main/daemon/store/index.js';
import { targetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const general = targetKey('#general');
const thread = targetKey('#general:ab12');
const dm = targetKey('dm:@claude');

let dir: TempDir;
let store: Store;

beforeEach(() => {
  dir = makeTempDir('agentteam-store-atomicity-');
  store = Store.open(dir.path);
});
afterEach(() => {
  store.close();
  dir.remove();
});

/** Runs SQL on a second connection to the store's file (the store's statements see schema changes). */
function onFile<T>(fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(dir.path, DB_FILE));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Plants a trigger that aborts `event` on `table` when `when` holds; returns its removal. */
function failOn(event: 'INSERT' | 'UPDATE', table: string, when = '1'): () => void {
  onFile((db) =>
    db.exec(
      `CREATE TRIGGER injected_fault BEFORE ${event} ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    ),
  );
  return () => onFile((db) => db.exec('DROP TRIGGER injected_fault'));
}

const count = (table: string): number =>
  onFile((db) => Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n));

const wake = (token: string) =>
  store.insertWake({
    wakeToken: token,
    messageId: 'msg_1',
    agentId: 'claude',
    runtime: 'claude-code',
    target: general,
    targetSeq: 1,
    deliveryClass: 'visible_reply',
  });

describe('a failure in the middle of a multi-row write rolls all of it back', () => {
  it('appendMessage: the conversations it created (thread and parent) go with the message', () => {
    const heal = failOn('INSERT', 'messages');
    const append = () =>
      store.appendMessage({ target: thread, authorId: 'operator', authorKind: 'operator', content: 'hi' });
    expect(append).toThrow(/injected fault/);
    expect(count('conversations')).toBe(0);
    expect(store.listConversations()).toEqual([]);
    heal();
    // The store did not remember the rolled-back conversations: the next append creates them.
    expect(append()).toMatchObject({ status: 'sent', message: { target: thread, seq: 1 } });
    expect(store.listConversations().map((c) => [c.target, c.lastSeq])).toEqual([
      ['#general', 0],
      ['#general:ab12', 1],
    ]);
  });

  it('ensureConversation: a thread whose insert fails leaves no parent behind', () => {
    const heal = failOn('INSERT', 'conversations', `NEW.kind = 'thread'`);
    expect(() => store.ensureConversation(thread)).toThrow(/injected fault/);
    expect(count('conversations')).toBe(0);
    heal();
    expect(store.ensureConversation(thread)).toMatchObject({ target: thread, parent: general });
    expect(store.getConversation(general)).toBeDefined();
  });

  it('insertWake: no wake row without its first status event', () => {
    const heal = failOn('INSERT', 'wake_events');
    expect(() => wake('w1')).toThrow(/injected fault/);
    expect(store.getWake('w1')).toBeUndefined();
    expect(count('wakes')).toBe(0);
    heal();
    expect(wake('w1').status).toBe('queued');
  });

  it('appendWakeEvent: no event without its mirror on the wake row', () => {
    wake('w1');
    const heal = failOn('UPDATE', 'wakes');
    expect(() => store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' })).toThrow(
      /injected fault/,
    );
    expect(store.listWakeEvents('w1').map((e) => e.status)).toEqual(['queued']);
    expect(store.getWake('w1')).toMatchObject({ status: 'queued', endedAt: null });
    heal();
    expect(store.appendWakeEvent({ wakeToken: 'w1', kind: 'status', status: 'reply_sent' })).toBe(true);
  });

  it('appendPromptInput: no entry with only some of its wake links', () => {
    const heal = failOn('INSERT', 'prompt_input_wakes', `NEW.wake_token = 'w2'`);
    const append = () =>
      store.appendPromptInput({ agentId: 'claude', wakeTokens: ['w1', 'w2'], kind: 'delivery', text: 'batch' });
    expect(append).toThrow(/injected fault/);
    expect(count('prompt_inputs')).toBe(0);
    expect(count('prompt_input_wakes')).toBe(0);
    expect(store.listPromptInputs('w1')).toEqual([]);
    heal();
    append();
    expect(store.listPromptInputs('w2').map((p) => p.text)).toEqual(['batch']);
  });

  it("appendPromptInputs (issue 19: one commit for a delivery's entries): all of them or none", () => {
    const heal = failOn('INSERT', 'prompt_inputs', `NEW.text = 'delivery'`);
    const append = () =>
      store.appendPromptInputs([
        { agentId: 'claude', wakeTokens: ['w1'], kind: 'turn_context', text: 'context' },
        { agentId: 'claude', wakeTokens: ['w1'], kind: 'delivery', text: 'delivery' },
      ]);
    expect(append).toThrow(/injected fault/);
    expect(count('prompt_inputs')).toBe(0);
    expect(count('prompt_input_wakes')).toBe(0);
    heal();
    const stored = append();
    expect(stored.map((p) => p.seq)).toEqual([...stored.map((p) => p.seq)].sort((a, b) => a - b));
    expect(store.listPromptInputs('w1').map((p) => p.text)).toEqual(['context', 'delivery']);
    // The store is usable for single writes after the batch (its transaction depth is back to 0).
    store.appendPromptInput({ agentId: 'claude', wakeTokens: ['w1'], kind: 'delivery', text: 'again' });
    expect(store.listPromptInputs('w1').map((p) => p.text)).toEqual(['context', 'delivery', 'again']);
  });

  it('takeUndelivered: no reply is taken unless all of them are', () => {
    for (const responseId of ['r1', 'r2'])
      store.saveUndelivered({
        agentId: 'claude',
        target: general,
        turnId: 't1',
        responseId,
        chunkIndex: 0,
        content: `body ${responseId}`,
        reason: 'timeout',
      });
    const heal = failOn('UPDATE', 'undelivered', `OLD.response_id = 'r2'`);
    expect(() => store.takeUndelivered(general)).toThrow(/injected fault/);
    heal();
    expect(store.takeUndelivered(general).map((u) => u.responseId)).toEqual(['r1', 'r2']);
  });

  it('saveRecoveryBatch: one failing target undoes the whole batch, supersedes included', () => {
    store.saveRecoveryBatch('claude', [{ target: general, frontierSeq: 3 }]);
    const heal = failOn('INSERT', 'recovery_markers', `NEW.target = '${dm}'`);
    const batch = () =>
      store.saveRecoveryBatch('claude', [
        { target: general, frontierSeq: 5 },
        { target: dm, frontierSeq: 2 },
      ]);
    expect(batch).toThrow(/injected fault/);
    expect(store.listRecoveryMarkers('claude').map((m) => [m.target, m.frontierSeq, m.state])).toEqual([
      ['#general', 3, 'pending'],
    ]);
    heal();
    expect(batch().map((m) => [m.target, m.frontierSeq, m.state])).toEqual([
      ['#general', 5, 'pending'],
      ['dm:@claude', 2, 'pending'],
    ]);
  });
});
