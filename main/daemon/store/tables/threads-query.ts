/**
 * Read-only queries over threads (issue 17): the threads under a parent conversation with their
 * reply counts, and a thread's root message (the message of the parent whose id the thread's short
 * id was derived from, shared/thread-root.ts). No table of its own: a thread is a `conversations`
 * row with a parent (DESIGN.md "Targets").
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import { str } from './table-row.js';

export interface ThreadRecord {
  readonly target: TargetKey;
  readonly parent: TargetKey;
  readonly replyCount: number;
  readonly lastReplyAt: string | null;
}

export class ThreadsQuery {
  private readonly underStmt: StatementSync;
  private readonly rootStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.underStmt = db.prepare(`SELECT c.target, c.parent,
        (SELECT count(*) FROM messages m WHERE m.target = c.target) AS replies,
        (SELECT max(created_at) FROM messages m WHERE m.target = c.target) AS last_at
      FROM conversations c WHERE c.parent = $parent ORDER BY c.created_at, c.target`);
    this.rootStmt = db.prepare(
      'SELECT id FROM messages WHERE target = $parent AND substr(id, 5, length($short)) = $short ORDER BY seq LIMIT 1',
    );
  }

  /** Threads whose parent is `parent`, oldest first. */
  under(parent: TargetKey): ThreadRecord[] {
    return this.underStmt.all({ parent }).map((r) => ({
      target: String(r.target) as TargetKey,
      parent: String(r.parent) as TargetKey,
      replyCount: Number(r.replies),
      lastReplyAt: str(r.last_at),
    }));
  }

  /** Id of the message in `parent` a thread short id was derived from, if any. */
  rootId(parent: TargetKey, shortId: string): string | undefined {
    const row = this.rootStmt.get({ parent, short: shortId });
    return row === undefined ? undefined : String(row.id);
  }
}
