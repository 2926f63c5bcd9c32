/**
 * `prompt_inputs` + `prompt_input_wakes`: the prompt_input trajectory (contract §8.4), one entry
 * per text sent to a runtime, linked to every wake it carried. The caller inserts an entry and
 * its links in one transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { PromptInputKind, PromptInputRecord } from '../store-records.js';
import type { Row } from './table-row.js';

export class PromptInputsTable {
  private readonly insertStmt: StatementSync;
  private readonly linkStmt: StatementSync;
  private readonly ofWakeStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.insertStmt = db.prepare(
      'INSERT INTO prompt_inputs (id, agent_id, kind, wake_tokens, text, at) VALUES ($id, $agentId, $kind, $tokens, $text, $at) RETURNING seq',
    );
    this.linkStmt = db.prepare(
      'INSERT OR IGNORE INTO prompt_input_wakes (wake_token, prompt_input_seq) VALUES ($token, $seq)',
    );
    this.ofWakeStmt =
      db.prepare(`SELECT p.* FROM prompt_input_wakes w JOIN prompt_inputs p ON p.seq = w.prompt_input_seq
      WHERE w.wake_token = $token ORDER BY p.seq`);
  }

  /** Stores an entry; returns its seq (the trajectory order). */
  insert(p: Omit<PromptInputRecord, 'seq'>): number {
    const row = this.insertStmt.get({
      id: p.id,
      agentId: p.agentId,
      kind: p.kind,
      tokens: JSON.stringify(p.wakeTokens),
      text: p.text,
      at: p.at,
    });
    return Number(row?.seq);
  }

  /** Links an entry to a wake it carried. */
  link(token: string, seq: number): void {
    this.linkStmt.run({ token, seq });
  }

  /** The entries that carried a wake, in the order they were sent. */
  ofWake(token: string): PromptInputRecord[] {
    return this.ofWakeStmt.all({ token }).map(toPromptInput);
  }
}

function toPromptInput(r: Row): PromptInputRecord {
  return {
    id: String(r.id),
    seq: Number(r.seq),
    agentId: String(r.agent_id),
    wakeTokens: JSON.parse(String(r.wake_tokens)) as string[],
    kind: String(r.kind) as PromptInputKind,
    text: String(r.text),
    at: String(r.at),
  };
}
