/**
 * `wakes`: one row per wake, mirroring its append-only events (wake-events-table.ts) so the
 * current status, beacon count and end time are one read. The caller appends the event and
 * mirrors it in one transaction.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { RuntimeKind, WakeStatus } from '../../../../shared/wake-status.js';
import type { DeliveryClass, InsertWakeInput, ListWakesFilter, WakeRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

/** What one accepted wake event changes on its wake's row. */
export interface WakeMirror {
  readonly token: string;
  /** The status after the event (the current one when the event carries none). */
  readonly status: WakeStatus;
  /** Reason and detail replace the row's only when the event carries a status. */
  readonly hasStatus: boolean;
  readonly reason: string | null;
  readonly detail: string | null;
  readonly beacon: boolean;
  readonly escalation: boolean;
  readonly finalCheck: boolean;
  readonly ended: boolean;
  readonly at: string;
}

export class WakesTable {
  private readonly insertStmt: StatementSync;
  private readonly statusStmt: StatementSync;
  private readonly mirrorStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly recoveredStmt: StatementSync;
  /** One prepared statement per filter shape `list` has seen. */
  private readonly listStmts = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {
    this.insertStmt =
      db.prepare(`INSERT INTO wakes (token, message_id, agent_id, agent_name, agent_display_name, runtime, model, target, target_seq, delivery_class, status, created_at, updated_at, chain_id, cause, hop, hop_budget, asked_by, asked_by_name)
      VALUES ($token, $messageId, $agentId, $agentName, $agentDisplayName, $runtime, $model, $target, $targetSeq, $deliveryClass, 'queued', $at, $at, $chainId, $cause, $hop, $hopBudget, $askedBy, $askedByName)`);
    this.statusStmt = db.prepare('SELECT status FROM wakes WHERE token = $token');
    this.mirrorStmt = db.prepare(`UPDATE wakes SET
        status = $status,
        reason = CASE WHEN $hasStatus = 1 THEN $reason ELSE reason END,
        detail = CASE WHEN $hasStatus = 1 THEN $detail ELSE detail END,
        beacons = beacons + $beacon,
        last_beacon_at = CASE WHEN $beacon = 1 THEN $at ELSE last_beacon_at END,
        escalated = max(escalated, $escalation),
        final_check = max(final_check, $finalCheck),
        ended_at = CASE WHEN $ended = 1 THEN $at ELSE ended_at END,
        updated_at = $at
      WHERE token = $token`);
    this.getStmt = db.prepare('SELECT * FROM wakes WHERE token = $token');
    this.recoveredStmt = db.prepare('UPDATE wakes SET recoveries = recoveries + 1 WHERE token = $token');
  }

  /** contract §6.6: one more recovery continuation covers this wake. */
  recovered(token: string): void {
    this.recoveredStmt.run({ token });
  }

  /** A new row in status `queued`. */
  insert(w: InsertWakeInput, at: string): void {
    this.insertStmt.run({
      token: w.wakeToken,
      messageId: w.messageId,
      agentId: w.agentId,
      agentName: w.agentName ?? null,
      agentDisplayName: w.agentDisplayName ?? null,
      runtime: w.runtime,
      model: w.model ?? null,
      target: w.target,
      targetSeq: w.targetSeq,
      deliveryClass: w.deliveryClass,
      at,
      chainId: w.chainId ?? null,
      cause: w.cause ?? 'operator',
      hop: w.hop ?? 0,
      hopBudget: w.hopBudget ?? 0,
      askedBy: w.askedById ?? null,
      askedByName: w.askedByName ?? null,
    });
  }

  /** The wake's current status, or undefined for an unknown wake. */
  statusOf(token: string): WakeStatus | undefined {
    const row = this.statusStmt.get({ token });
    return row === undefined ? undefined : (String(row.status) as WakeStatus);
  }

  mirror(m: WakeMirror): void {
    this.mirrorStmt.run({
      token: m.token,
      hasStatus: m.hasStatus ? 1 : 0,
      status: m.status,
      reason: m.reason,
      detail: m.detail,
      beacon: m.beacon ? 1 : 0,
      escalation: m.escalation ? 1 : 0,
      finalCheck: m.finalCheck ? 1 : 0,
      ended: m.ended ? 1 : 0,
      at: m.at,
    });
  }

  get(token: string): WakeRecord | undefined {
    const row = this.getStmt.get({ token });
    return row === undefined ? undefined : toWake(row);
  }

  /** Wakes matching the filter, oldest first by default (the admission order of `queued` wakes). */
  list(filter: ListWakesFilter): WakeRecord[] {
    const where: string[] = [];
    const params: Record<string, SQLInputValue> = { limit: filter.limit ?? -1 };
    const match = (column: string, name: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = $${name}`);
      params[name] = value;
    };
    match('target', 'target', filter.target);
    match('agent_id', 'agentId', filter.agentId);
    match('status', 'status', filter.status);
    match('chain_id', 'chainId', filter.chainId);
    if (filter.activeOnly === true) where.push('ended_at IS NULL');
    const sql = `SELECT * FROM wakes ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ord ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT $limit`;
    let stmt = this.listStmts.get(sql);
    if (stmt === undefined) this.listStmts.set(sql, (stmt = this.db.prepare(sql)));
    return stmt.all(params).map(toWake);
  }
}

function toWake(r: Row): WakeRecord {
  return {
    wakeToken: String(r.token),
    messageId: String(r.message_id),
    agentId: String(r.agent_id),
    agentName: str(r.agent_name),
    agentDisplayName: str(r.agent_display_name),
    runtime: String(r.runtime) as RuntimeKind,
    model: str(r.model),
    target: String(r.target) as TargetKey,
    targetSeq: Number(r.target_seq),
    deliveryClass: String(r.delivery_class) as DeliveryClass,
    status: String(r.status) as WakeStatus,
    reason: str(r.reason),
    detail: str(r.detail),
    beacons: Number(r.beacons),
    escalated: Number(r.escalated) === 1,
    lastBeaconAt: str(r.last_beacon_at),
    finalCheck: Number(r.final_check) === 1,
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
    endedAt: str(r.ended_at),
    recoveries: Number(r.recoveries ?? 0),
    chainId: str(r.chain_id),
    cause: (str(r.cause) ?? 'operator') as WakeRecord['cause'],
    hop: Number(r.hop ?? 0),
    hopBudget: Number(r.hop_budget ?? 0),
    askedById: str(r.asked_by),
    askedByName: str(r.asked_by_name),
  };
}
