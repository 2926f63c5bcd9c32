/**
 * `agent_pauses` (issue 27, migration 13): the agents whose work is paused — a usage or rate limit
 * until its reset, or a daily budget reached — so a pause survives a daemon restart (the recovery
 * service re-arms its reset). One row per agent; written FULL (autocommit), cleared on resume.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { PAUSE_KINDS, type PauseKind } from '../../../../shared/wake-status.js';
import { str, type Row } from './table-row.js';

export interface AgentPauseRecord {
  readonly agentId: string;
  readonly kind: PauseKind;
  /** Epoch milliseconds of the reset; null when only the budget port can release it. */
  readonly resetsAt: number | null;
  readonly detail: string | null;
  readonly pausedAt: string;
}

export class AgentPausesTable {
  private readonly upsertStmt: StatementSync;
  private readonly deleteStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly allStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.upsertStmt = db.prepare(
      `INSERT INTO agent_pauses (agent_id, kind, resets_at, detail, paused_at)
       VALUES ($agentId, $kind, $resetsAt, $detail, $pausedAt)
       ON CONFLICT (agent_id) DO UPDATE SET kind = excluded.kind, resets_at = excluded.resets_at,
         detail = excluded.detail, paused_at = excluded.paused_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM agent_pauses WHERE agent_id = $agentId');
    this.getStmt = db.prepare('SELECT * FROM agent_pauses WHERE agent_id = $agentId');
    this.allStmt = db.prepare('SELECT * FROM agent_pauses ORDER BY paused_at, agent_id');
  }

  save(p: AgentPauseRecord): void {
    this.upsertStmt.run({
      agentId: p.agentId,
      kind: p.kind,
      resetsAt: p.resetsAt,
      detail: p.detail,
      pausedAt: p.pausedAt,
    });
  }

  /** Clears the agent's pause; false when it had none. */
  clear(agentId: string): boolean {
    return Number(this.deleteStmt.run({ agentId }).changes) > 0;
  }

  get(agentId: string): AgentPauseRecord | undefined {
    const r = this.getStmt.get({ agentId }) as Row | undefined;
    return r === undefined ? undefined : record(r);
  }

  all(): AgentPauseRecord[] {
    return (this.allStmt.all() as Row[]).map(record);
  }
}

function record(r: Row): AgentPauseRecord {
  const kind = String(r.kind);
  if (!(PAUSE_KINDS as readonly string[]).includes(kind))
    throw new Error(`internal: agent_pauses row of "${String(r.agent_id)}" has kind "${kind}"`);
  return {
    agentId: String(r.agent_id),
    kind: kind as PauseKind,
    resetsAt: r.resets_at === null || r.resets_at === undefined ? null : Number(r.resets_at),
    detail: str(r.detail),
    pausedAt: String(r.paused_at),
  };
}
