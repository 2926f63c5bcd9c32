/**
 * `chains` (issue 25): one row per chain — the operator message that started it (its id), its
 * conversation, the agent-caused wakes it has had (`hops`) against its budget, and, while paused,
 * the first agent message whose wakes were held and the agents it addressed. The service decides
 * (teams/team-service.ts); this only reads and writes rows.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import type { ChainRecord, HeldWake } from '../store-records.js';
import { clampLimit, str, type Row } from './table-row.js';

export class ChainsTable {
  private readonly insertStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly saveStmt: StatementSync;
  private readonly listStmts = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {
    this.insertStmt = db.prepare(`INSERT INTO chains (id, target, status, hops, budget, started_at, updated_at)
      VALUES ($id, $target, 'open', 0, $budget, $at, $at) ON CONFLICT (id) DO NOTHING`);
    this.getStmt = db.prepare('SELECT * FROM chains WHERE id = $id');
    this.saveStmt = db.prepare(`UPDATE chains SET status = $status, hops = $hops, budget = $budget,
      continues = $continues, held_message_id = $heldMessageId, held_for = $heldFor, paused_at = $pausedAt,
      updated_at = $at WHERE id = $id`);
  }

  /** A new open chain (nothing when it exists). */
  insert(id: string, target: TargetKey, budget: number, at: string): void {
    this.insertStmt.run({ id, target, budget, at });
  }

  get(id: string): ChainRecord | undefined {
    const row = this.getStmt.get({ id });
    return row === undefined ? undefined : toChain(row);
  }

  /** Writes the chain's mutable fields. */
  save(c: ChainRecord, at: string): void {
    this.saveStmt.run({
      id: c.id,
      status: c.status,
      hops: c.hops,
      budget: c.budget,
      continues: c.continues,
      heldMessageId: c.heldMessageId,
      heldFor: JSON.stringify(c.heldFor),
      pausedAt: c.pausedAt,
      at,
    });
  }

  /** Newest first. */
  list(filter: { readonly target?: TargetKey; readonly pausedOnly?: boolean; readonly limit?: number }): ChainRecord[] {
    const where: string[] = [];
    const params: Record<string, SQLInputValue> = { limit: clampLimit(filter.limit) };
    if (filter.target !== undefined) {
      where.push('target = $target');
      params.target = filter.target;
    }
    if (filter.pausedOnly === true) where.push("status = 'paused'");
    const sql = `SELECT * FROM chains ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, rowid DESC LIMIT $limit`;
    let stmt = this.listStmts.get(sql);
    if (stmt === undefined) this.listStmts.set(sql, (stmt = this.db.prepare(sql)));
    return stmt.all(params).map(toChain);
  }
}

function toChain(r: Row): ChainRecord {
  const heldFor: unknown = JSON.parse(String(r.held_for ?? '[]'));
  return {
    id: String(r.id),
    target: String(r.target) as TargetKey,
    status: String(r.status) === 'paused' ? 'paused' : 'open',
    hops: Number(r.hops),
    budget: Number(r.budget),
    continues: Number(r.continues),
    heldMessageId: str(r.held_message_id),
    heldFor: Array.isArray(heldFor) ? heldFor.filter(isHeldWake) : [],
    startedAt: String(r.started_at),
    pausedAt: str(r.paused_at),
    updatedAt: String(r.updated_at),
  };
}

function isHeldWake(v: unknown): v is HeldWake {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.agentId === 'string' && (o.cause === 'agent_mention' || o.cause === 'hand_back');
}
