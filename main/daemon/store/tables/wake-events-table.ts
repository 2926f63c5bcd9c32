/** `wake_events`: append-only (triggers refuse UPDATE and DELETE) history of every wake. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { WakeStatus } from '../../../../shared/wake-status.js';
import type { WakeEventKind, WakeEventRecord } from '../store-records.js';
import { str, type Row } from './table-row.js';

export interface WakeEventRow {
  readonly token: string;
  readonly kind: WakeEventKind;
  readonly status: WakeStatus | null;
  readonly reason: string | null;
  /** Already bounded by the caller (diagnostics.ts DETAIL_MAX). */
  readonly detail: string | null;
  readonly at: string;
}

export class WakeEventsTable {
  private readonly insertStmt: StatementSync;
  private readonly ofWakeStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(
      'INSERT INTO wake_events (wake_token, kind, status, reason, detail, at) VALUES ($token, $kind, $status, $reason, $detail, $at)',
    );
    this.ofWakeStmt = db.prepare('SELECT * FROM wake_events WHERE wake_token = $token ORDER BY id');
  }

  append(e: WakeEventRow): void {
    this.insertStmt.run({ ...e });
  }

  /** A wake's events in the order they were appended. */
  ofWake(token: string): WakeEventRecord[] {
    return this.ofWakeStmt.all({ token }).map(toWakeEvent);
  }
}

function toWakeEvent(r: Row): WakeEventRecord {
  return {
    id: Number(r.id),
    wakeToken: String(r.wake_token),
    kind: String(r.kind) as WakeEventKind,
    status: str(r.status) as WakeStatus | null,
    reason: str(r.reason),
    detail: str(r.detail),
    at: String(r.at),
  };
}
