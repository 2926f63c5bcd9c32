/**
 * `wake_usage`, `limit_windows`, `usage_warnings` (issue 27): what each wake's turns consumed as
 * the runtime reported it, summed per wake and per agent per UTC day (`usage_days`, kept by triggers); the
 * latest rate-limit window per agent; the warnings already given (once each).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RuntimeKind } from '../../../../shared/wake-status.js';
import type { AgentDayUsage, LimitWindow, TurnUsage, WakeUsage } from '../../../../shared/usage.js';
import { str, type Row } from './table-row.js';

const costOf = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const toWakeUsage = (r: Row): WakeUsage => ({
  wakeToken: String(r.wake_token),
  agentId: String(r.agent_id),
  runtime: String(r.runtime) as RuntimeKind,
  day: String(r.day),
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  cachedTokens: Number(r.cached_tokens),
  costUsd: costOf(r.cost_usd),
  turns: Number(r.turns),
  updatedAt: String(r.updated_at),
});

export class UsageTable {
  private readonly addStmt: StatementSync;
  private readonly wakeStmt: StatementSync;
  private readonly daysStmt: StatementSync;
  private readonly windowStmt: StatementSync;
  private readonly windowsStmt: StatementSync;
  private readonly warnStmt: StatementSync;

  constructor(db: DatabaseSync) {
    // A second turn of the same wake (the final-check turn, a recovery) adds to the first; the day stays the first's.
    this.addStmt = db.prepare(
      `INSERT INTO wake_usage (wake_token, agent_id, runtime, day, input_tokens, output_tokens, cached_tokens, cost_usd, turns, updated_at)
       VALUES ($wakeToken, $agentId, $runtime, $day, $input, $output, $cached, $cost, $turns, $at)
       ON CONFLICT (wake_token) DO UPDATE SET
         input_tokens = input_tokens + excluded.input_tokens,
         output_tokens = output_tokens + excluded.output_tokens,
         cached_tokens = cached_tokens + excluded.cached_tokens,
         cost_usd = CASE WHEN cost_usd IS NULL AND excluded.cost_usd IS NULL THEN NULL
                         ELSE COALESCE(cost_usd, 0) + COALESCE(excluded.cost_usd, 0) END,
         turns = turns + excluded.turns,
         updated_at = excluded.updated_at`,
    );
    this.wakeStmt = db.prepare('SELECT * FROM wake_usage WHERE wake_token = $wakeToken');
    // usage_days (migration 14) holds these sums, kept by triggers on wake_usage: a read is O(days).
    this.daysStmt = db.prepare(
      `SELECT agent_id, runtime, day, input_tokens, output_tokens, cached_tokens, cost_usd, wakes, turns
         FROM usage_days
        WHERE day >= $since AND ($agentId IS NULL OR agent_id = $agentId)
        ORDER BY day, agent_id, runtime`,
    );
    this.windowStmt = db.prepare(
      `INSERT INTO limit_windows (agent_id, window, runtime, window_minutes, used_percent, resets_at, observed_at)
       VALUES ($agentId, $window, $runtime, $windowMinutes, $usedPercent, $resetsAt, $observedAt)
       ON CONFLICT (agent_id, window) DO UPDATE SET runtime = excluded.runtime, window_minutes = excluded.window_minutes,
         used_percent = excluded.used_percent, resets_at = excluded.resets_at, observed_at = excluded.observed_at`,
    );
    this.windowsStmt = db.prepare(
      'SELECT * FROM limit_windows WHERE ($agentId IS NULL OR agent_id = $agentId) ORDER BY agent_id, window',
    );
    this.warnStmt = db.prepare(
      'INSERT INTO usage_warnings (agent_id, key, at) VALUES ($agentId, $key, $at) ON CONFLICT DO NOTHING',
    );
  }

  /** Adds a turn's usage report to its wake (`turns` 0: a further report of a turn already counted); answers the wake's total. */
  addTurn(
    wake: { wakeToken: string; agentId: string; runtime: RuntimeKind },
    usage: TurnUsage,
    at: Date,
    turns: 0 | 1 = 1,
  ): WakeUsage {
    this.addStmt.run({
      wakeToken: wake.wakeToken,
      agentId: wake.agentId,
      runtime: wake.runtime,
      day: at.toISOString().slice(0, 10),
      input: usage.inputTokens,
      output: usage.outputTokens,
      cached: usage.cachedTokens,
      cost: usage.costUsd,
      at: at.toISOString(),
      turns,
    });
    const total = this.ofWake(wake.wakeToken);
    if (total === null) throw new Error(`wake_usage of ${wake.wakeToken} was not stored`);
    return total;
  }

  ofWake(wakeToken: string): WakeUsage | null {
    const r = this.wakeStmt.get({ wakeToken }) as Row | undefined;
    return r === undefined ? null : toWakeUsage(r);
  }

  /** Per agent per UTC day from `since` (inclusive), oldest first. */
  days(since: string, agentId: string | null = null): AgentDayUsage[] {
    return (this.daysStmt.all({ since, agentId }) as Row[]).map((r) => ({
      agentId: String(r.agent_id),
      runtime: String(r.runtime) as RuntimeKind,
      day: String(r.day),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      cachedTokens: Number(r.cached_tokens),
      costUsd: costOf(r.cost_usd),
      wakes: Number(r.wakes),
      turns: Number(r.turns),
    }));
  }

  /** Keeps the latest announcement of a window. */
  putWindow(w: LimitWindow): void {
    this.windowStmt.run({ ...w });
  }

  windows(agentId: string | null = null): LimitWindow[] {
    return (this.windowsStmt.all({ agentId }) as Row[]).map((r) => ({
      agentId: String(r.agent_id),
      runtime: String(r.runtime) as RuntimeKind,
      window: String(r.window),
      windowMinutes: r.window_minutes === null ? null : Number(r.window_minutes),
      usedPercent: r.used_percent === null ? null : Number(r.used_percent),
      resetsAt: str(r.resets_at),
      observedAt: String(r.observed_at),
    }));
  }

  /** Records a warning; true only the first time for this agent and key (warn once). */
  warnOnce(agentId: string, key: string, at: Date): boolean {
    return Number(this.warnStmt.run({ agentId, key, at: at.toISOString() }).changes) > 0;
  }
}
