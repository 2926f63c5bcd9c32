/** `audit`: cross-scope proactive sends, declared and audited (contract §8.3). */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { AuditInput, AuditKind, AuditRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

export class AuditTable {
  private readonly insertStmt: StatementSync;
  private readonly allStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(
      'INSERT INTO audit (agent_id, kind, target, message_id, detail, at) VALUES ($agentId, $kind, $target, $messageId, $detail, $at)',
    );
    this.allStmt = db.prepare('SELECT * FROM audit ORDER BY id');
  }

  append(a: AuditInput, at: string): void {
    this.insertStmt.run({
      agentId: a.agentId,
      kind: a.kind,
      target: a.target,
      messageId: a.messageId,
      detail: a.detail ?? null,
      at,
    });
  }

  list(): AuditRecord[] {
    return this.allStmt.all().map(toAudit);
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
    at: String(r.at),
  };
}
