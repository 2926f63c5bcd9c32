/**
 * `agent_cursors` (issue 16): per agent and canonical target, SeenUpToSeq (the highest TargetSeq
 * made runtime-visible to the agent, DESIGN.md "TargetSeq") and RepliedUpToSeq (the highest
 * TargetSeq a stored reply of the agent covered). Both only grow; both are bumped inside the
 * transaction of the fact they follow (the wake's `delivered` event, the reply's append), so a
 * restart finds exactly what was durable: a recovery never asks again for a reply that landed
 * (contract §6.6) and a send after a restart reports the SeenUpToSeq the agent really had.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TargetKey } from '../../../../shared/target.js';

export class AgentCursorsTable {
  private readonly seenStmt: StatementSync;
  private readonly repliedStmt: StatementSync;
  private readonly getStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.seenStmt =
      db.prepare(`INSERT INTO agent_cursors (agent_id, target, seen_up_to_seq) VALUES ($agentId, $target, $seq)
      ON CONFLICT (agent_id, target) DO UPDATE SET seen_up_to_seq = max(seen_up_to_seq, excluded.seen_up_to_seq)`);
    this.repliedStmt =
      db.prepare(`INSERT INTO agent_cursors (agent_id, target, replied_up_to_seq) VALUES ($agentId, $target, $seq)
      ON CONFLICT (agent_id, target) DO UPDATE SET replied_up_to_seq = max(replied_up_to_seq, excluded.replied_up_to_seq)`);
    this.getStmt = db.prepare(
      'SELECT seen_up_to_seq, replied_up_to_seq FROM agent_cursors WHERE agent_id = $agentId AND target = $target',
    );
  }

  /** Inside a transaction only. */
  seen(agentId: string, target: TargetKey, seq: number): void {
    this.seenStmt.run({ agentId, target, seq });
  }

  /** Inside a transaction only. */
  replied(agentId: string, target: TargetKey, seq: number): void {
    this.repliedStmt.run({ agentId, target, seq });
  }

  get(agentId: string, target: TargetKey): { readonly seenUpToSeq: number; readonly repliedUpToSeq: number } {
    const row = this.getStmt.get({ agentId, target });
    return {
      seenUpToSeq: row === undefined ? 0 : Number(row.seen_up_to_seq),
      repliedUpToSeq: row === undefined ? 0 : Number(row.replied_up_to_seq),
    };
  }
}
