/**
 * `undelivered`: replies whose delivery finally failed, kept for re-delivery on the next inbound
 * (watchdog spec B, preserveUndelivered). One row per agent+response+chunk; saving it again re-arms it.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { UndeliveredInput, UndeliveredRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

export class UndeliveredTable {
  private readonly saveStmt: StatementSync;
  private readonly openStmt: StatementSync;
  private readonly takeStmt: StatementSync;
  private readonly anyOpenStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.saveStmt =
      db.prepare(`INSERT INTO undelivered (agent_id, target, turn_id, response_id, chunk_index, content, reason, created_at, channel)
      VALUES ($agentId, $target, $turnId, $responseId, $chunkIndex, $content, $reason, $at, $channel)
      ON CONFLICT (agent_id, response_id, chunk_index) DO UPDATE SET
        target = excluded.target, turn_id = excluded.turn_id, content = excluded.content, reason = excluded.reason,
        channel = excluded.channel, taken_at = NULL`);
    this.openStmt = db.prepare(
      'SELECT * FROM undelivered WHERE target = $target AND taken_at IS NULL AND ($agentId IS NULL OR agent_id = $agentId) ORDER BY id',
    );
    this.takeStmt = db.prepare('UPDATE undelivered SET taken_at = $at WHERE id = $id');
    this.anyOpenStmt = db.prepare(
      'SELECT 1 FROM undelivered WHERE target = $target AND taken_at IS NULL AND ($agentId IS NULL OR agent_id = $agentId) LIMIT 1',
    );
  }

  /** Whether `take` would find anything (a read: no transaction, no commit). */
  anyOpen(target: TargetKey, agentId: string | undefined): boolean {
    return this.anyOpenStmt.get({ target, agentId: agentId ?? null }) !== undefined;
  }

  save(u: UndeliveredInput, at: string): void {
    this.saveStmt.run({ ...u, channel: u.channel ?? 'local', at });
  }

  /** The open replies of a target (optionally of one agent), oldest first, now taken. Inside a transaction only. */
  take(target: TargetKey, agentId: string | undefined, at: string): UndeliveredRecord[] {
    const rows = this.openStmt.all({ target, agentId: agentId ?? null });
    for (const row of rows) this.takeStmt.run({ id: Number(row.id), at });
    return rows.map((r) => ({ ...toUndelivered(r), takenAt: at }));
  }
}

function toUndelivered(r: Row): UndeliveredRecord {
  return {
    id: Number(r.id),
    agentId: String(r.agent_id),
    target: String(r.target) as TargetKey,
    turnId: String(r.turn_id),
    responseId: String(r.response_id),
    chunkIndex: Number(r.chunk_index),
    content: String(r.content),
    reason: String(r.reason),
    channel: String(r.channel),
    createdAt: String(r.created_at),
    takenAt: str(r.taken_at),
  };
}
