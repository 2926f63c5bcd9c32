/**
 * `grants` (issue 29): the "always" rules the daemon granted — the one source an approval is
 * answered from without asking. A rule enters only through an operator's answer ("Always") or
 * the operator confirming a rule found in agentteam.json; agentteam.json lists them for reading,
 * and a rule written there by anyone else is never applied until confirmed.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { str, type Row } from './table-row.js';

export interface GrantRecord {
  readonly agentId: string;
  readonly rule: string;
  readonly grantedAt: string;
  /** The approval answered "always" that granted it; null for a rule the operator confirmed from the file. */
  readonly approvalId: string | null;
}

export class GrantsTable {
  private readonly insertStmt: StatementSync;
  private readonly deleteStmt: StatementSync;
  private readonly ofAgentStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(
      `INSERT INTO grants (agent_id, rule, granted_at, approval_id) VALUES ($agentId, $rule, $grantedAt, $approvalId)
       ON CONFLICT (agent_id, rule) DO NOTHING`,
    );
    this.deleteStmt = db.prepare('DELETE FROM grants WHERE agent_id = $agentId AND rule = $rule');
    this.ofAgentStmt = db.prepare('SELECT * FROM grants WHERE agent_id = $agentId ORDER BY granted_at, rowid');
  }

  /** Grants the rule; false when the agent already had it (nothing changed). */
  add(g: GrantRecord): boolean {
    return (
      Number(
        this.insertStmt.run({ agentId: g.agentId, rule: g.rule, grantedAt: g.grantedAt, approvalId: g.approvalId })
          .changes,
      ) > 0
    );
  }

  /** Takes the rule back; false when the agent did not have it. */
  remove(agentId: string, rule: string): boolean {
    return Number(this.deleteStmt.run({ agentId, rule }).changes) > 0;
  }

  /** The agent's grants, oldest first. */
  ofAgent(agentId: string): GrantRecord[] {
    return (this.ofAgentStmt.all({ agentId }) as Row[]).map((r) => ({
      agentId: String(r.agent_id),
      rule: String(r.rule),
      grantedAt: String(r.granted_at),
      approvalId: str(r.approval_id),
    }));
  }
}
