/**
 * `audit`: cross-scope proactive sends, declared and audited (contract §8.3), each with the wakes
 * the agent was handling when it sent (issue 24: their timelines show it).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { AuditInput, AuditKind, AuditRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

export class AuditTable {
  private readonly insertStmt: StatementSync;
  private readonly newestStmt: StatementSync;
  private readonly ofWakeStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(
      'INSERT INTO audit (agent_id, kind, target, message_id, detail, wake_tokens, at) VALUES ($agentId, $kind, $target, $messageId, $detail, $wakeTokens, $at)',
    );
    this.newestStmt = db.prepare('SELECT * FROM audit ORDER BY id DESC LIMIT $limit');
    this.ofWakeStmt = db.prepare(
      'SELECT * FROM audit WHERE EXISTS (SELECT 1 FROM json_each(audit.wake_tokens) WHERE value = $token) ORDER BY id',
    );
  }

  append(a: AuditInput, at: string): void {
    this.insertStmt.run({
      agentId: a.agentId,
      kind: a.kind,
      target: a.target,
      messageId: a.messageId,
      detail: a.detail ?? null,
      wakeTokens: JSON.stringify(a.wakeTokens ?? []),
      at,
    });
  }

  /** Newest first; `limit` rows at most (all when absent). */
  newest(limit?: number): AuditRecord[] {
    return this.newestStmt.all({ limit: limit ?? -1 }).map(toAudit);
  }

  /** The records naming this wake among the wakes being handled, oldest first (its timeline order). */
  ofWake(token: string): AuditRecord[] {
    return this.ofWakeStmt.all({ token }).map(toAudit);
  }
}

function toAudit(r: Row): AuditRecord {
  return {
    id: Number(r.id),
    agentId: String(r.agent_id),
    kind: String(r.kind) as AuditKind,
    target: String(r.target) as TargetKey,
    messageId: String(r.message_id),
    detail: str(r.detail),
    wakeTokens: JSON.parse(String(r.wake_tokens ?? '[]')) as string[],
    at: String(r.at),
  };
}
