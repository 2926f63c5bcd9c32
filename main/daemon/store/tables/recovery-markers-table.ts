/**
 * `recovery_markers`: context-recovery markers (contract §6.6), one per canonical target per
 * batch, `pending` → `replay_pending` (launched in a fresh runtime) → `settled`, or `superseded`
 * by a higher frontier while still pending.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';
import { recoveryMarkerId } from '../store-ids.js';
import type { RecoveryMarkerRecord, RecoveryMarkerState } from '../store-records.js';
import { str, type Row } from './table-row.js';

/** Most original wake tokens a marker keeps (contract §6.6: bounded wake identity). */
const RECOVERY_WAKE_TOKENS_MAX = 32;

export class RecoveryMarkersTable {
  private readonly getStmt: StatementSync;
  private readonly pendingOfTargetStmt: StatementSync;
  private readonly supersedeStmt: StatementSync;
  private readonly insertStmt: StatementSync;
  private readonly oldestPendingStmt: StatementSync;
  private readonly launchStmt: StatementSync;
  private readonly settleStmt: StatementSync;
  private readonly ofAgentStmt: StatementSync;
  private readonly coveringStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.getStmt = db.prepare('SELECT * FROM recovery_markers WHERE id = $id');
    this.pendingOfTargetStmt = db.prepare(
      `SELECT * FROM recovery_markers WHERE agent_id = $agentId AND target = $target AND state = 'pending' ORDER BY ord`,
    );
    this.supersedeStmt = db.prepare(
      `UPDATE recovery_markers SET state = 'superseded' WHERE id = $id AND state = 'pending'`,
    );
    this.insertStmt =
      db.prepare(`INSERT INTO recovery_markers (id, agent_id, batch_id, target, frontier_seq, wake_tokens, state, cause, created_at)
      VALUES ($id, $agentId, $batchId, $target, $frontierSeq, $tokens, 'pending', $cause, $at)`);
    this.oldestPendingStmt = db.prepare(
      `SELECT id FROM recovery_markers WHERE agent_id = $agentId AND state = 'pending' ORDER BY ord LIMIT 1`,
    );
    this.launchStmt = db.prepare(
      `UPDATE recovery_markers SET state = 'replay_pending', launched_at = $at WHERE id = $id AND state = 'pending'`,
    );
    this.settleStmt = db.prepare(
      `UPDATE recovery_markers SET state = 'settled', settled_at = $at WHERE id = $id AND state = 'replay_pending'`,
    );
    this.ofAgentStmt = db.prepare('SELECT * FROM recovery_markers WHERE agent_id = $agentId ORDER BY ord');
    this.coveringStmt = db.prepare(
      `SELECT * FROM recovery_markers WHERE agent_id = $agentId AND state != 'superseded'
        AND EXISTS (SELECT 1 FROM json_each(wake_tokens) WHERE value = $token) ORDER BY ord DESC LIMIT 1`,
    );
  }

  /**
   * The marker of one target of a batch. Ids are deterministic (agent, target, frontier): the same
   * frontier again keeps the one marker; a pending marker with an equal or higher frontier wins;
   * a higher frontier supersedes the pending ones but never rewrites a launched (`replay_pending`)
   * one: it is stored as a new marker beside it. Inside a transaction only.
   */
  save(
    agentId: string,
    batchId: string,
    target: TargetKey,
    frontierSeq: number,
    wakeTokens: readonly string[],
    at: string,
    cause: string | null = null,
  ): RecoveryMarkerRecord {
    return this.saveNew(agentId, batchId, target, frontierSeq, wakeTokens, at, cause).marker;
  }

  /** `save`, telling whether this call stored the marker (`inserted`) or kept an existing one. */
  saveNew(
    agentId: string,
    batchId: string,
    target: TargetKey,
    frontierSeq: number,
    wakeTokens: readonly string[],
    at: string,
    cause: string | null,
  ): { readonly marker: RecoveryMarkerRecord; readonly inserted: boolean } {
    const id = recoveryMarkerId(agentId, target, frontierSeq);
    const same = this.getStmt.get({ id });
    if (same !== undefined) return { marker: toMarker(same), inserted: false };
    const pending = this.pendingOfTargetStmt.all({ agentId, target }).map(toMarker);
    const higher = pending.find((p) => p.frontierSeq >= frontierSeq);
    if (higher !== undefined) return { marker: higher, inserted: false };
    for (const p of pending) this.supersedeStmt.run({ id: p.id });
    const tokens = [...new Set(wakeTokens)].slice(0, RECOVERY_WAKE_TOKENS_MAX);
    this.insertStmt.run({ id, agentId, batchId, target, frontierSeq, tokens: JSON.stringify(tokens), cause, at });
    return { marker: toMarker(this.getStmt.get({ id }) as Row), inserted: true };
  }

  get(id: string): RecoveryMarkerRecord | undefined {
    const row = this.getStmt.get({ id });
    return row === undefined ? undefined : toMarker(row);
  }

  /** The oldest `pending` marker of an agent, now `replay_pending`. Inside a transaction only. */
  launchOldest(agentId: string, at: string): RecoveryMarkerRecord | undefined {
    const row = this.oldestPendingStmt.get({ agentId });
    if (row === undefined) return undefined;
    const id = String(row.id);
    this.launchStmt.run({ id, at });
    return toMarker(this.getStmt.get({ id }) as Row);
  }

  /** False if the marker is not `replay_pending`. */
  settle(id: string, at: string): boolean {
    return Number(this.settleStmt.run({ id, at }).changes) === 1;
  }

  /** issue 24: the latest live marker of an agent that covers an original wake, if any. */
  covering(agentId: string, wakeToken: string): RecoveryMarkerRecord | undefined {
    const row = this.coveringStmt.get({ agentId, token: wakeToken });
    return row === undefined ? undefined : toMarker(row);
  }

  ofAgent(agentId: string): RecoveryMarkerRecord[] {
    return this.ofAgentStmt.all({ agentId }).map(toMarker);
  }
}

function toMarker(r: Row): RecoveryMarkerRecord {
  const id = String(r.id);
  return {
    id,
    syntheticMessageId: `msg_recovery_${id.slice('rm_'.length)}`,
    agentId: String(r.agent_id),
    batchId: String(r.batch_id),
    target: String(r.target) as TargetKey,
    frontierSeq: Number(r.frontier_seq),
    wakeTokens: JSON.parse(String(r.wake_tokens)) as string[],
    state: String(r.state) as RecoveryMarkerState,
    cause: str(r.cause),
    createdAt: String(r.created_at),
    launchedAt: str(r.launched_at),
    settledAt: str(r.settled_at),
  };
}
