/**
 * issue 27: the words of a usage warning (80 % of a provider's limit window or of a daily budget),
 * neutral status copy led by the agent's name, in English and Simplified Chinese: the alert's
 * message (English, the log line and the fallback), and the notice in a bound Telegram chat.
 * Times are UTC, the one clock every surface agrees on (shared/usage.ts).
 */
import type { PromptLanguage } from '../../../shared/config.js';
import type { LimitWindow, UsageBudgetState } from '../../../shared/usage.js';

/** What a warning is about (the usage service's `UsageWarning` fits it). */
export type UsageWarningFacts =
  | { readonly kind: 'limit_window'; readonly window: LimitWindow }
  | { readonly kind: 'budget'; readonly state: UsageBudgetState };

const WINDOW_NAMES: Record<PromptLanguage, Record<number, string>> = {
  en: { 300: '5-hour window', 10_080: 'weekly window' },
  'zh-CN': { 300: '5 小时窗口', 10_080: '每周窗口' },
};

const hhmm = (iso: string): string => iso.slice(11, 16);

export function usageWarningWords(agentName: string, warning: UsageWarningFacts, language: PromptLanguage): string {
  const zh = language === 'zh-CN';
  if (warning.kind === 'limit_window') {
    const w = warning.window;
    const name =
      (w.windowMinutes === null ? undefined : WINDOW_NAMES[language][w.windowMinutes]) ??
      (zh ? `${w.window} 窗口` : `${w.window} window`);
    const pct = Math.round(w.usedPercent ?? 100);
    const reset =
      w.resetsAt === null ? '' : zh ? ` · ${hhmm(w.resetsAt)} UTC 重置` : ` · resets ${hhmm(w.resetsAt)} UTC`;
    return zh ? `${agentName} · ${name}已用 ${pct}%${reset}` : `${agentName} · ${name} at ${pct} %${reset}`;
  }
  const s = warning.state;
  const limit = s.limit ?? 0;
  const pct = limit === 0 ? 100 : Math.round((s.used / limit) * 100);
  const amounts = s.kind === 'cost' ? `$${s.used.toFixed(2)} / $${limit}` : `${s.used} / ${limit}`;
  if (zh) return `${agentName} · 每日${s.kind === 'cost' ? '费用' : '令牌'}预算已用 ${pct}%（${amounts}）`;
  return `${agentName} · daily ${s.kind === 'cost' ? 'cost' : 'token'} budget at ${pct} % (${amounts})`;
}
