/**
 * issue 27: usage in words, one place for the Usage view, the inspector and the agent detail:
 * token counts in the language's digits grouping ("1,000,000"), cost in US dollars or "not
 * reported" (Codex reports none), a limit window ("5-hour window 72 % · resets 14:05") and a
 * budget ("Daily budget 80 % of 1,000,000 tokens").
 */
import type { Budget, LimitWindow, TurnUsage, UsageBudgetState } from '../../../shared/usage.js';
import { copy, type Language } from '../i18n/copy.js';
import { formatTime, localeOf } from '../i18n/format.js';

export const formatCount = (n: number, language: Language): string =>
  new Intl.NumberFormat(localeOf(language)).format(n);

/** "$0.0123" (four decimals below a dollar, where per-turn costs live), or "not reported". */
export function formatCost(costUsd: number | null, language: Language): string {
  if (costUsd === null) return copy(language, 'usage.notReported');
  return new Intl.NumberFormat(localeOf(language), {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: costUsd < 1 ? 4 : 2,
  }).format(costUsd);
}

const percent = (n: number): number => Math.round(n);

/** The window's name: "5-hour window", "Weekly window", else the runtime's name for it. */
export function windowName(w: LimitWindow, language: Language): string {
  if (w.windowMinutes === 10080) return copy(language, 'usage.window.week');
  if (w.windowMinutes !== null && w.windowMinutes % 60 === 0)
    return copy(language, 'usage.window.minutes', { hours: w.windowMinutes / 60 });
  return copy(language, 'usage.window.named', { name: w.window });
}

/** "5-hour window 72 % · resets 14:05" (a reset on another local day shows that day too). */
export function limitWindowText(w: LimitWindow, language: Language, now: Date = new Date()): string {
  const name = windowName(w, language);
  const head =
    w.usedPercent === null
      ? copy(language, 'usage.window.limitReached', { window: name })
      : copy(language, 'usage.window.percent', { window: name, percent: percent(w.usedPercent) });
  if (w.resetsAt === null) return head;
  const at = new Date(w.resetsAt);
  const sameDay = at.toDateString() === now.toDateString();
  const time = sameDay
    ? formatTime(w.resetsAt, language)
    : `${new Intl.DateTimeFormat(localeOf(language), { month: 'short', day: 'numeric' }).format(at)} ${formatTime(w.resetsAt, language)}`;
  return `${head} · ${copy(language, 'usage.window.resets', { time })}`;
}

/** "Daily budget 80 % of 1,000,000 tokens" (or of "$5.00"), "· daily budget reached" at 100 %. */
export function budgetText(budget: Budget | null, state: UsageBudgetState, language: Language): string {
  if (budget === null || state.limit === null) return copy(language, 'usage.budget.none');
  const share = percent((state.used / state.limit) * 100);
  const text =
    state.kind === 'tokens'
      ? copy(language, 'usage.budget.tokens', { percent: share, limit: formatCount(state.limit, language) })
      : copy(language, 'usage.budget.cost', { percent: share, limit: formatCost(state.limit, language) });
  return state.reached ? `${text} · ${copy(language, 'usage.budget.reached')}` : text;
}

/** "1,200 in · 300 cached · 80 out · $0.0123" */
export const usageLine = (u: TurnUsage, language: Language): string =>
  copy(language, 'usage.summaryLine', {
    input: formatCount(u.inputTokens, language),
    cached: formatCount(u.cachedTokens, language),
    output: formatCount(u.outputTokens, language),
    cost: formatCost(u.costUsd, language),
  });
