/**
 * `conversations`: one row per canonical TargetKey (DESIGN.md "Targets"), a thread beside its
 * parent. Keeps the set of conversations known to exist (single writer: only this process
 * creates them) so an append to a known target skips the insert; rows created inside a
 * transaction join that set only when it commits.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { formatTarget, parentOf, parseTarget, type TargetKey } from '../../../../shared/target.js';
import type { ConversationKind, ConversationRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

const WITH_LAST_SEQ =
  'SELECT c.*, (SELECT coalesce(max(seq), 0) FROM messages m WHERE m.target = c.target) AS last_seq';

export class ConversationsTable {
  private readonly insertStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly allStmt: StatementSync;
  private readonly known = new Set<string>();
  /** Created by the open transaction; known once it commits. */
  private pending: string[] = [];

  constructor(
    db: DatabaseSync,
    private readonly iso: () => string,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO conversations (target, kind, parent, created_at) VALUES ($target, $kind, $parent, $at) ON CONFLICT (target) DO NOTHING`,
    );
    this.getStmt = db.prepare(`${WITH_LAST_SEQ} FROM conversations c WHERE c.target = $target`);
    this.allStmt = db.prepare(`${WITH_LAST_SEQ} FROM conversations c
      ORDER BY coalesce(c.parent, c.target), c.parent IS NOT NULL, c.target`);
  }

  /** Creates the conversation of a target (and a thread's parent) if missing. Inside a transaction only. */
  ensure(target: TargetKey): void {
    if (this.known.has(target)) return;
    const parsed = parseTarget(target);
    if (!parsed.ok) throw new TypeError(`internal: not a TargetKey: ${JSON.stringify(target)}`);
    let parent: TargetKey | null = null;
    let kind: ConversationKind = parsed.target.kind;
    if (parsed.target.thread !== null) {
      parent = formatTarget(parentOf(parsed.target));
      kind = 'thread';
      // A thread's parent exists (issue 3).
      this.insertStmt.run({ target: parent, kind: parsed.target.kind, parent: null, at: this.iso() });
      this.pending.push(parent);
    }
    this.insertStmt.run({ target, kind, parent, at: this.iso() });
    this.pending.push(target);
  }

  /** The enclosing transaction committed: what it created exists. */
  committed(): void {
    for (const t of this.pending) this.known.add(t);
    this.pending = [];
  }

  /** The enclosing transaction rolled back: what it created does not exist. */
  rolledBack(): void {
    this.pending = [];
  }

  /** TargetKeys come only from parseTarget; anything else reaching the store is a bug. */
  checkTarget(target: TargetKey): void {
    if (this.known.has(target)) return;
    const parsed = parseTarget(target);
    if (!parsed.ok || parsed.key !== target)
      throw new TypeError(`internal: not a canonical TargetKey: ${JSON.stringify(target)}`);
  }

  get(target: TargetKey): ConversationRecord | undefined {
    const row = this.getStmt.get({ target });
    return row === undefined ? undefined : toConversation(row);
  }

  /** Every conversation with its lastSeq, parents before their threads. */
  list(): ConversationRecord[] {
    return this.allStmt.all().map(toConversation);
  }
}

function toConversation(r: Row): ConversationRecord {
  return {
    target: String(r.target) as TargetKey,
    kind: String(r.kind) as ConversationKind,
    parent: str(r.parent) as TargetKey | null,
    lastSeq: Number(r.last_seq),
    createdAt: String(r.created_at),
  };
}
