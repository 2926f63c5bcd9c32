/**
 * issue 27: `agentteam usage [--data-dir DIR] [--agent ID] [--since DATE] [--json]` — what each
 * agent consumed per UTC day (tokens as the runtime reported them: input, cached, output; cost
 * where the CLI reports one), the provider's limit windows and the daily budgets. `--since` is a
 * UTC day `YYYY-MM-DD` (default: the daemon's, 6 days before today). `--json` prints the API's
 * `usage.summary` object as is: `today`, `days`, `limits`, `budgets` (shared/usage.ts). Exit codes
 * as every command: 0 answered, 1 no daemon / unknown agent, 2 bad input.
 */
import type { LimitWindow, UsageSummary } from '../../shared/usage.js';
import { utcDay } from '../../shared/usage.js';
import { commandOptions } from './cli-options.js';
import { failed, withDaemon } from './daemon-client.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';

export class UsageCliError extends Error {}

export const USAGE_CLI_USAGE =
  '  agentteam usage [--data-dir DIR] [--agent ID] [--since YYYY-MM-DD] [--json]   tokens and cost per agent per UTC day, limit windows, budgets';

/** A real UTC calendar day `YYYY-MM-DD`, not after today. */
function sinceDay(value: string, now: Date): string {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (at === null || Number.isNaN(at.getTime()) || utcDay(at) !== value)
    throw new UsageCliError(`--since must be a UTC day YYYY-MM-DD (e.g. ${utcDay(now)}), not "${value}"`);
  if (value > utcDay(now)) throw new UsageCliError(`--since ${value} is after today (${utcDay(now)} UTC)`);
  return value;
}

const WINDOW_WORDS: Record<number, string> = { 300: '5-hour', 10_080: 'weekly' };

function windowLine(w: LimitWindow): string {
  const length = w.windowMinutes === null ? '' : ` (${WINDOW_WORDS[w.windowMinutes] ?? `${w.windowMinutes} min`})`;
  const used = w.usedPercent === null ? 'limit reached' : `${Math.round(w.usedPercent)} %`;
  const reset = w.resetsAt === null ? '' : ` · resets ${w.resetsAt}`;
  return `${w.agentId}  ${w.runtime}  ${w.window}${length}  ${used}${reset}`;
}

/** Rows as columns padded to their widest cell (numbers right-aligned). */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i >= 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** The summary as text: one line per agent per day, then the windows, then the budgets. */
export function usageLines(s: UsageSummary): string[] {
  const lines =
    s.days.length === 0
      ? [`no usage reported since the first day asked (UTC days; today ${s.today})`]
      : columns([
          ['day (UTC)', 'agent', 'runtime', 'input', 'cached', 'output', 'cost', 'wakes', 'turns'],
          ...s.days.map((d) => [
            d.day,
            d.agentId,
            d.runtime,
            String(d.inputTokens),
            String(d.cachedTokens),
            String(d.outputTokens),
            d.costUsd === null ? '-' : `$${d.costUsd.toFixed(4)}`,
            String(d.wakes),
            String(d.turns),
          ]),
        ]);
  for (const w of s.limits) lines.push(`limit   ${windowLine(w)}`);
  for (const b of s.budgets) {
    if (b.budget === null || b.state.limit === null) continue;
    const used =
      b.state.kind === 'cost'
        ? `$${b.state.used.toFixed(4)} of $${b.state.limit}`
        : `${b.state.used} of ${b.state.limit} tokens`;
    const pct = Math.round((b.state.used / b.state.limit) * 100);
    lines.push(
      `budget  ${b.agentId}  ${used} today (${pct} %)${b.state.reached ? ' · reached: new wakes wait until the next UTC day' : ''}`,
    );
  }
  return lines.map(escapeForTerminal);
}

export async function usageCommand(argv: readonly string[], io: CliIo, now: Date = new Date()): Promise<number> {
  const o = commandOptions(
    argv,
    { agent: { type: 'string' }, since: { type: 'string' }, json: { type: 'boolean' } },
    UsageCliError,
  );
  const agentId = o.text('agent');
  const given = o.text('since');
  const since = given === undefined ? undefined : sinceDay(given, now);
  return withDaemon(o.dataDir, io, async (client) => {
    const r = await client.call('usage.summary', {
      ...(agentId === undefined ? {} : { agentId }),
      ...(since === undefined ? {} : { since }),
    });
    if (!r.ok) return failed(io, r);
    if (o.values.json === true) io.out(JSON.stringify(r.value));
    else for (const line of usageLines(r.value)) io.out(line);
    return 0;
  });
}
