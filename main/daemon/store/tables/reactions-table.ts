/**
 * `reactions` (contract §5, §9.2): a confirmed reaction to the triggering message is a visible
 * reply. One row per (message, author, emoji): reacting twice is a no-op.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ReactionRecord } from '../store-records.js';

export class ReactionsTable {
  private readonly insertStmt: StatementSync;
  private readonly ofMessagesStmt: StatementSync;

  constructor(
    db: DatabaseSync,
    private readonly nameOf: (memberId: string) => string,
  ) {
    this.insertStmt = db.prepare(
      'INSERT INTO reactions (message_id, author_id, emoji, created_at) VALUES ($messageId, $authorId, $emoji, $at) ON CONFLICT DO NOTHING',
    );
    this.ofMessagesStmt = db.prepare(
      'SELECT * FROM reactions WHERE message_id IN (SELECT value FROM json_each($ids)) ORDER BY created_at, rowid',
    );
  }

  /** `already` when this author had put this emoji on this message before. */
  add(
    r: { readonly messageId: string; readonly authorId: string; readonly emoji: string },
    at: string,
  ): 'added' | 'already' {
    const result = this.insertStmt.run({ messageId: r.messageId, authorId: r.authorId, emoji: r.emoji, at });
    return Number(result.changes) > 0 ? 'added' : 'already';
  }

  /** Reactions of the given messages, oldest first per message. */
  ofMessages(messageIds: readonly string[]): Map<string, ReactionRecord[]> {
    const out = new Map<string, ReactionRecord[]>();
    if (messageIds.length === 0) return out;
    for (const row of this.ofMessagesStmt.all({ ids: JSON.stringify(messageIds) })) {
      const authorId = String(row.author_id);
      const rec: ReactionRecord = {
        messageId: String(row.message_id),
        authorId,
        authorName: this.nameOf(authorId),
        emoji: String(row.emoji),
        createdAt: String(row.created_at),
      };
      const list = out.get(rec.messageId);
      if (list === undefined) out.set(rec.messageId, [rec]);
      else list.push(rec);
    }
    return out;
  }
}
