/**
 * issue 27: each runtime's own usage report, normalised to the three disjoint token kinds of
 * shared/usage.ts (`input` uncached prompt incl. cache writes, `cached` prompt read from the
 * cache, `output` completion incl. reasoning) — never estimated. A report that lacks the fields
 * answers null (nothing is stored), never zeros.
 */
import type { LimitWindow, TurnUsage } from '../../../shared/usage.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : null;
const money = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * Claude Code's `result` message: `usage` {input_tokens, cache_creation_input_tokens,
 * cache_read_input_tokens, output_tokens} (Anthropic's disjoint counts) and `total_cost_usd`.
 */
export function claudeResultUsage(result: unknown): TurnUsage | null {
  const usage = obj(obj(result)?.usage);
  if (usage === null) return null;
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (input === null || output === null) return null;
  return {
    inputTokens: input + (count(usage.cache_creation_input_tokens) ?? 0),
    outputTokens: output,
    cachedTokens: count(usage.cache_read_input_tokens) ?? 0,
    costUsd: money(obj(result)?.total_cost_usd),
  };
}

/**
 * Codex app-server `thread/tokenUsage/updated`: `tokenUsage.last` is the latest turn's
 * breakdown; OpenAI's `inputTokens` include the cached ones, `outputTokens` the reasoning ones.
 * Codex reports no cost.
 */
export function codexTokenUsage(params: unknown): TurnUsage | null {
  const last = obj(obj(obj(params)?.tokenUsage)?.last);
  if (last === null) return null;
  const input = count(last.inputTokens);
  const output = count(last.outputTokens);
  if (input === null || output === null) return null;
  const cached = Math.min(input, count(last.cachedInputTokens) ?? 0);
  return { inputTokens: input - cached, outputTokens: output, cachedTokens: cached, costUsd: null };
}

/** The windows a Codex `account/rateLimits/updated` announces (primary, secondary); reset is Unix seconds. */
export function codexRateLimitWindows(params: unknown): Array<Omit<LimitWindow, 'agentId' | 'observedAt'>> {
  const snapshot = obj(obj(params)?.rateLimits);
  if (snapshot === null) return [];
  const out: Array<Omit<LimitWindow, 'agentId' | 'observedAt'>> = [];
  for (const name of ['primary', 'secondary'] as const) {
    const w = obj(snapshot[name]);
    if (w === null || typeof w.usedPercent !== 'number') continue;
    const minutes = count(w.windowDurationMins);
    const resets = count(w.resetsAt);
    out.push({
      runtime: 'codex',
      window: name,
      windowMinutes: minutes === null || minutes === 0 ? null : minutes,
      usedPercent: Math.max(0, Math.min(100, w.usedPercent)),
      resetsAt: resets === null ? null : new Date(resets * 1000).toISOString(),
    });
  }
  return out;
}

/** The windows of Claude Code's `rateLimitType` (2.1.x): the 5-hour one and the weekly ones; `overage` has no length. */
const CLAUDE_WINDOW_MINUTES: Record<string, number> = {
  five_hour: 300,
  seven_day: 10_080,
  seven_day_opus: 10_080,
  seven_day_sonnet: 10_080,
  seven_day_overage_included: 10_080,
};

/**
 * Claude Code's `rate_limit_event` {rate_limit_info: {status: allowed | allowed_warning | rejected,
 * resetsAt (Unix seconds), rateLimitType, utilization?}} — checked against the 2.1.197 binary: its
 * schema, and `resetsAt` / `utilization` read from the `anthropic-ratelimit-unified-*` headers
 * (reset in epoch seconds, utilization a fraction 0–1). The window's reset, and its use when
 * announced; `status: "rejected"` is the limit hit (100 %).
 */
export function claudeRateLimitWindow(message: unknown): Omit<LimitWindow, 'agentId' | 'observedAt'> | null {
  const info = obj(obj(message)?.rate_limit_info);
  if (info === null) return null;
  const type = typeof info.rateLimitType === 'string' ? info.rateLimitType : 'session';
  const resets = count(info.resetsAt);
  const utilization = typeof info.utilization === 'number' ? Math.max(0, Math.min(100, info.utilization * 100)) : null;
  return {
    runtime: 'claude-code',
    window: type,
    windowMinutes: CLAUDE_WINDOW_MINUTES[type] ?? null,
    usedPercent: info.status === 'rejected' ? 100 : utilization,
    resetsAt: resets === null ? null : new Date(resets * 1000).toISOString(),
  };
}

/**
 * OpenCode's assistant message (`message.updated` info, the `/session/:id/message` reply):
 * `tokens` {input, output, reasoning, cache: {read, write}} and `cost` (USD).
 */
export function openCodeMessageUsage(info: unknown): TurnUsage | null {
  const message = obj(info);
  const tokens = obj(message?.tokens);
  if (message === null || tokens === null || message.role !== 'assistant') return null;
  const input = count(tokens.input);
  const output = count(tokens.output);
  if (input === null || output === null) return null;
  const cache = obj(tokens.cache);
  return {
    inputTokens: input + (count(cache?.write) ?? 0),
    outputTokens: output + (count(tokens.reasoning) ?? 0),
    cachedTokens: count(cache?.read) ?? 0,
    costUsd: money(message.cost),
  };
}

/**
 * issue 41: an ACP agent's `session/prompt` answer. Two shapes, the first one present wins:
 * - ACP's own (unstable) `usage` {inputTokens, outputTokens, thoughtTokens?, cachedReadTokens?,
 *   cachedWriteTokens?} — disjoint counts (`totalTokens` is their sum): input plus cache writes is
 *   ours `input`, cache reads `cached`, output plus thoughts `output`;
 * - Gemini CLI's (0.61; Qwen Code is its fork) `_meta.quota.token_count` {input_tokens,
 *   output_tokens}: the prompt's `promptTokenCount` (cached ones inside, not split out) and
 *   `candidatesTokenCount` summed over the prompt's model requests.
 * An agent that reports neither (Copilot) answers null: nothing is stored, never zeros. No cost:
 * ACP's `usage_update` carries only a cumulative session cost, and only some agents send it.
 */
export function acpPromptUsage(response: unknown): TurnUsage | null {
  const res = obj(response);
  const usage = obj(res?.usage);
  if (usage !== null) {
    const input = count(usage.inputTokens);
    const output = count(usage.outputTokens);
    if (input !== null && output !== null)
      return {
        inputTokens: input + (count(usage.cachedWriteTokens) ?? 0),
        outputTokens: output + (count(usage.thoughtTokens) ?? 0),
        cachedTokens: count(usage.cachedReadTokens) ?? 0,
        costUsd: null,
      };
  }
  const tokens = obj(obj(obj(res?._meta)?.quota)?.token_count);
  const input = count(tokens?.input_tokens);
  const output = count(tokens?.output_tokens);
  if (input === null || output === null) return null;
  return { inputTokens: input, outputTokens: output, cachedTokens: 0, costUsd: null };
}
