/**
 * `messages`: TargetSeq = max(seq) + 1 of the target, read and written by the caller inside one
 * IMMEDIATE transaction (UNIQUE (target, seq) as a backstop), so per target it is monotonic and
 * gap-free. A response chunk's id is deterministic (store-ids.ts), so UNIQUE (id) stores one
 * chunk of one response of one author once (watchdog spec B).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { AppendMessageInput, ListMessagesOptions, MemberKind, MessageRecord } from '../store-records.js';
import { clampLimit, type Row } from './table-row.js';

export class MessagesTable {
  private readonly insertStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly nextSeqStmt: StatementSync;
  private readonly lastSeqStmt: StatementSync;
  private readonly rangeStmt: StatementSync;
  private readonly tailStmt: StatementSync;
  private readonly setChainStmt: StatementSync;

  constructor(
    db: DatabaseSync,
    private readonly nameOf: (memberId: string) => string,
  ) {
    this.insertStmt =
      db.prepare(`INSERT INTO messages (id, target, seq, author_id, author_kind, content, created_at, response_id, chunk_index, redelivered)
      VALUES ($id, $target, $seq, $authorId, $authorKind, $content, $createdAt, $responseId, $chunkIndex, $redelivered)`);
    this.getStmt = db.prepare('SELECT * FROM messages WHERE id = $id');
    this.setChainStmt = db.prepare('UPDATE messages SET chain_id = $chainId WHERE id = $id');
    this.nextSeqStmt = db.prepare('SELECT coalesce(max(seq), 0) + 1 AS seq FROM messages WHERE target = $target');
    this.lastSeqStmt = db.prepare('SELECT coalesce(max(seq), 0) AS last_seq FROM messages WHERE target = $target');
    this.rangeStmt = db.prepare(
      'SELECT * FROM messages WHERE target = $target AND seq > $after AND seq < $before ORDER BY seq ASC LIMIT $limit',
    );
    this.tailStmt = db.prepare(
      'SELECT * FROM messages WHERE target = $target AND seq > $after AND seq < $before ORDER BY seq DESC LIMIT $limit',
    );
  }

  /** Stores a message with the next TargetSeq of its target. Inside a transaction only. */
  insertNext(m: AppendMessageInput, id: string, chunkIndex: number | null, createdAt: string): MessageRecord {
    const seq = Number(this.nextSeqStmt.get({ target: m.target })?.seq);
    const message: MessageRecord = {
      id,
      target: m.target,
      seq,
      authorId: m.authorId,
      authorName: this.nameOf(m.authorId),
      authorKind: m.authorKind,
      content: m.content,
      createdAt,
      responseId: m.responseId ?? null,
      chunkIndex,
      redelivered: m.redelivered ?? false,
    };
    this.insertStmt.run({
      id: message.id,
      target: message.target,
      seq,
      authorId: message.authorId,
      authorKind: message.authorKind,
      content: message.content,
      createdAt: message.createdAt,
      responseId: message.responseId,
      chunkIndex,
      redelivered: message.redelivered ? 1 : 0,
    });
    return message;
  }

  /** issue 25: the chain a stored message belongs to. */
  setChain(id: string, chainId: string): void {
    this.setChainStmt.run({ id, chainId });
  }

  get(id: string): MessageRecord | undefined {
    const row = this.getStmt.get({ id });
    return row === undefined ? undefined : this.toMessage(row);
  }

  /** Messages of a target in ascending TargetSeq, within `afterSeq < seq < beforeSeq`. */
  list(target: TargetKey, opts: ListMessagesOptions): MessageRecord[] {
    const limit = clampLimit(opts.limit);
    const params = { target, after: opts.afterSeq ?? 0, before: opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, limit };
    // Paging back through history (beforeSeq only) wants the newest page, still shown ascending.
    const rows =
      opts.beforeSeq !== undefined && opts.afterSeq === undefined
        ? this.tailStmt.all(params).reverse()
        : this.rangeStmt.all(params);
    return rows.map((r) => this.toMessage(r));
  }

  /** Highest TargetSeq of a target; 0 when it has no message (or does not exist). */
  lastSeq(target: TargetKey): number {
    return Number(this.lastSeqStmt.get({ target })?.last_seq ?? 0);
  }

  /** A `messages` row (also from a join, e.g. search) → its record. */
  toMessage(row: Row): MessageRecord {
    const authorId = String(row.author_id);
    return {
      id: String(row.id),
      target: String(row.target) as TargetKey,
      seq: Number(row.seq),
      authorId,
      authorName: this.nameOf(authorId),
      authorKind: String(row.author_kind) as MemberKind,
      content: String(row.content),
      createdAt: String(row.created_at),
      responseId: row.response_id === null ? null : String(row.response_id),
      chunkIndex: row.chunk_index === null ? null : Number(row.chunk_index),
      redelivered: Number(row.redelivered) === 1,
      chainId: row.chain_id === undefined || row.chain_id === null ? null : String(row.chain_id),
    };
  }
}
