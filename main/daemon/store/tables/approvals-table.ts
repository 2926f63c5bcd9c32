/** `approvals` (issue 14): the runtime's permission questions, asked of the operator. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ApprovalKind, ApprovalScope, ApprovalStatus } from '../../../../shared/approvals.js';
import { clampLimit, str, type Row } from './table-row.js';

export interface ApprovalInput {
  readonly id: string;
  readonly agentId: string;
  readonly runtime: string;
  readonly turnId: string | null;
  readonly wakeTokens: readonly string[];
  readonly kind: ApprovalKind;
  readonly tool: string;
  readonly summary: string;
  readonly detail: string;
  /** issue 29: null when the request has no exact rule (stored as '', never a valid rule). */
  readonly rule: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface ApprovalRecord extends ApprovalInput {
  readonly status: ApprovalStatus;
  readonly scope: ApprovalScope | null;
  readonly reason: string | null;
  readonly answeredAt: string | null;
}

export interface ApprovalSettle {
  readonly id: string;
  readonly status: Exclude<ApprovalStatus, 'pending'>;
  readonly scope: ApprovalScope | null;
  readonly reason: string | null;
  readonly answeredAt: string;
}

export class ApprovalsTable {
  private readonly insertStmt: StatementSync;
  private readonly settleStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly listStmt: StatementSync;
  private readonly pendingStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(`INSERT INTO approvals
      (id, agent_id, runtime, turn_id, wake_tokens, kind, tool, summary, detail, rule, status, created_at, expires_at)
      VALUES ($id, $agentId, $runtime, $turnId, $wakeTokens, $kind, $tool, $summary, $detail, $rule, 'pending', $createdAt, $expiresAt)`);
    // Only a pending request can be answered: a second answer (a race between two surfaces) changes nothing.
    this.settleStmt = db.prepare(
      `UPDATE approvals SET status = $status, scope = $scope, reason = $reason, answered_at = $answeredAt
       WHERE id = $id AND status = 'pending'`,
    );
    this.getStmt = db.prepare('SELECT * FROM approvals WHERE id = $id');
    this.listStmt = db.prepare(
      `SELECT * FROM approvals WHERE ($status IS NULL OR status = $status)
       AND ($wake IS NULL OR EXISTS (SELECT 1 FROM json_each(approvals.wake_tokens) WHERE json_each.value = $wake))
       ORDER BY created_at DESC, id DESC LIMIT $limit`,
    );
    this.pendingStmt = db.prepare(`SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at, id`);
  }

  insert(a: ApprovalInput): void {
    this.insertStmt.run({
      id: a.id,
      agentId: a.agentId,
      runtime: a.runtime,
      turnId: a.turnId,
      wakeTokens: JSON.stringify(a.wakeTokens),
      kind: a.kind,
      tool: a.tool,
      summary: a.summary,
      detail: a.detail,
      rule: a.rule ?? '',
      createdAt: a.createdAt,
      expiresAt: a.expiresAt,
    });
  }

  /** Whether the request was pending and is now settled. */
  settle(s: ApprovalSettle): boolean {
    const { id, status, scope, reason, answeredAt } = s;
    return Number(this.settleStmt.run({ id, status, scope, reason, answeredAt }).changes) === 1;
  }

  get(id: string): ApprovalRecord | undefined {
    const row = this.getStmt.get({ id });
    return row === undefined ? undefined : toApproval(row);
  }

  /** Newest first; `wakeToken`: only the requests whose turn carried that wake. */
  list(status: ApprovalStatus | null, limit: number | undefined, wakeToken: string | null = null): ApprovalRecord[] {
    return this.listStmt.all({ status, limit: clampLimit(limit), wake: wakeToken }).map(toApproval);
  }

  pending(): ApprovalRecord[] {
    return this.pendingStmt.all().map(toApproval);
  }
}

function toApproval(r: Row): ApprovalRecord {
  return {
    id: String(r.id),
    agentId: String(r.agent_id),
    runtime: String(r.runtime),
    turnId: str(r.turn_id),
    wakeTokens: JSON.parse(String(r.wake_tokens)) as string[],
    kind: String(r.kind) as ApprovalKind,
    tool: String(r.tool),
    summary: String(r.summary),
    detail: String(r.detail),
    rule: String(r.rule) === '' ? null : String(r.rule),
    status: String(r.status) as ApprovalStatus,
    scope: str(r.scope) as ApprovalScope | null,
    reason: str(r.reason),
    createdAt: String(r.created_at),
    expiresAt: String(r.expires_at),
    answeredAt: str(r.answered_at),
  };
}
