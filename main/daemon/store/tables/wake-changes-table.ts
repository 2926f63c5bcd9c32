/**
 * `wake_changes` (issue 26): per wake, the snapshots of its agent's workspace when it was
 * delivered and when it ended, and the files changed between them (bounded patches, git/diff.ts).
 * Written by worktrees/wake-changes.ts; read by the API (`wakes.changes`) and `agentteam changes`.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { WakeChangeStateName } from '../../../../shared/changes.js';
import type { ChangedFile } from '../../git/diff.js';
import { str, type Row } from './table-row.js';

/**
 * `pending`: the start snapshot is taken, the wake has not ended; `tracked`: both snapshots and
 * the diff are stored; `untracked`: the workspace is not in a git work tree (`reason` says why);
 * `failed`: git could not snapshot or diff (`reason` is its message).
 */
export type WakeChangeState = Exclude<WakeChangeStateName, 'none'>;

export interface WakeChangesRecord {
  readonly wakeToken: string;
  readonly agentId: string;
  readonly state: WakeChangeState;
  /** The agent's workspace (its `cwd`, or its worktree) when the wake was delivered. */
  readonly workspace: string;
  /** The top of its git work tree, or null outside git. */
  readonly root: string | null;
  readonly reason: string | null;
  readonly startTree: string | null;
  readonly endTree: string | null;
  readonly files: readonly ChangedFile[];
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export class WakeChangesTable {
  private readonly startStmt: StatementSync;
  private readonly endStmt: StatementSync;
  private readonly getStmt: StatementSync;
  private readonly ofAgentStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.startStmt = db.prepare(
      `INSERT INTO wake_changes (wake_token, agent_id, state, workspace, root, reason, start_tree, started_at)
       VALUES ($wakeToken, $agentId, $state, $workspace, $root, $reason, $startTree, $at)
       ON CONFLICT (wake_token) DO NOTHING`,
    );
    this.endStmt = db.prepare(
      `UPDATE wake_changes SET state = $state, reason = $reason, end_tree = $endTree, files = $files, ended_at = $at
       WHERE wake_token = $wakeToken AND ended_at IS NULL`,
    );
    this.getStmt = db.prepare('SELECT * FROM wake_changes WHERE wake_token = $wakeToken');
    this.ofAgentStmt = db.prepare(
      'SELECT * FROM wake_changes WHERE agent_id = $agentId ORDER BY started_at DESC, rowid DESC LIMIT $limit',
    );
  }

  /** The start of a wake's record; false when the wake already has one (a redelivery keeps the first snapshot). */
  start(r: {
    wakeToken: string;
    agentId: string;
    state: WakeChangeState;
    workspace: string;
    root: string | null;
    reason: string | null;
    startTree: string | null;
    at: string;
  }): boolean {
    return Number(this.startStmt.run(r).changes) > 0;
  }

  /** The end of a wake's record; false when it has none or already ended. */
  end(r: {
    wakeToken: string;
    state: WakeChangeState;
    reason: string | null;
    endTree: string | null;
    files: readonly ChangedFile[];
    at: string;
  }): boolean {
    return (
      Number(
        this.endStmt.run({
          wakeToken: r.wakeToken,
          state: r.state,
          reason: r.reason,
          endTree: r.endTree,
          files: JSON.stringify(r.files),
          at: r.at,
        }).changes,
      ) > 0
    );
  }

  get(wakeToken: string): WakeChangesRecord | undefined {
    const row = this.getStmt.get({ wakeToken });
    return row === undefined ? undefined : toRecord(row);
  }

  /** The agent's wakes with changes recorded, newest first. */
  ofAgent(agentId: string, limit = 100): WakeChangesRecord[] {
    return (this.ofAgentStmt.all({ agentId, limit }) as Row[]).map(toRecord);
  }
}

function toRecord(r: Row): WakeChangesRecord {
  return {
    wakeToken: String(r.wake_token),
    agentId: String(r.agent_id),
    state: String(r.state) as WakeChangeState,
    workspace: String(r.workspace),
    root: str(r.root),
    reason: str(r.reason),
    startTree: str(r.start_tree),
    endTree: str(r.end_tree),
    files: JSON.parse(String(r.files)) as ChangedFile[],
    startedAt: String(r.started_at),
    endedAt: str(r.ended_at),
  };
}
