/**
 * A runtime failure's reason from the closed vocabulary (shared/wake-status.ts), when the
 * driver did not name it from its wire's structure: read from the bounded detail the runtime
 * gave (HTTP statuses, the CLIs' own sign-in and context errors). Pure; table-tested.
 */
import type { FailureReason } from '../../../shared/wake-status.js';

const RULES: ReadonlyArray<readonly [RegExp, FailureReason]> = [
  [/ENOENT|command not found|not recognized as an internal/i, 'cli_missing'],
  [
    /not logged in|please run \/login|invalid api key|invalid x-api-key|authentication_error|unauthori[sz]ed|\b(?:HTTP|status|api_error_status)[\s:=]*40[13]\b|missing (?:bearer|api key)|no api key|providerautherror|token (?:has )?expired|login required/i,
    'auth_required',
  ],
  [
    /\b(?:HTTP|status|api_error_status)[\s:=]*429\b|rate.?limit|too many requests|usage limit|usagelimitexceeded|quota|overloaded_error/i,
    'provider_rate_limited',
  ],
  [
    /context (?:window|length)|prompt is too long|contextwindowexceeded|context_length_exceeded|maximum context|too many tokens|contextoverflow/i,
    'context_overflow',
  ],
  [
    /\b(?:HTTP|status|api_error_status|statusCode)[\s:=]*[45]\d\d\b|API Error|api_error|server_error|invalid_request_error|internal server error/i,
    'provider_error',
  ],
  [/exited|signal SIG|terminated/i, 'cli_exited'],
];

/** The reason a failure detail names; `runtime_error` when it names none of the others. */
export function classifyRuntimeFailure(detail: string | null | undefined): FailureReason {
  const text = detail ?? '';
  for (const [pattern, reason] of RULES) if (pattern.test(text)) return reason;
  return 'runtime_error';
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * issue 27: when a usage or rate limit the runtime reported resets (epoch ms), read from the
 * bounded detail the runtime surfaced: the provider's `retry-after` (seconds) as the CLI quotes it,
 * "try again in N seconds|minutes|hours", a reset instant (`resets_at`/`resetsAt` epoch seconds or
 * ms, or ISO time), or Claude Code's own "usage limit reached|<epoch seconds>" signal. Null when the
 * detail names none (the caller then uses the agent's configured backoff). Pure; table-tested.
 *
 * issue 38 (contract §6.5, §9.3: no classifier reads model text): the usage pause asks this only
 * when the runtime announced no structured reset (an exhausted limit window's `resetsAt`,
 * usage-service.ts `limitResetOf`). What it reads is a turn failure's detail, which each driver
 * builds from its CLI's structured error only, never from agent text (the skeleton reduces agent
 * text to counts before anything else sees it):
 * - Claude Code: an `is_error` `result`'s `api_error_status`, `terminal_reason`, `subtype`,
 *   `errors`, and its `result` only when that is one of the CLI's own error strings ("API Error: …";
 *   claude-event-mapper.ts `resultErrorDetail`);
 * - Codex: the app-server's `TurnError.message` / `error` notification (its own usage-limit message,
 *   composed by Codex from the provider's reset);
 * - OpenCode: `session.error`'s `data.message` and `statusCode` (the provider's error body, e.g.
 *   OpenAI's "Please try again in 20s");
 * - ACP: the JSON-RPC error of `session/prompt` (`message`, Qwen's `data.details`) and Copilot's
 *   `session.error` event `message` in its session event log (acp-driver.ts).
 */
export function usageLimitResetAt(detail: string | null | undefined, nowMs: number): number | null {
  const text = detail ?? '';
  const claude = /usage limit reached\|(\d{10,13})/i.exec(text);
  if (claude) return epochMs(Number(claude[1]));
  const afterMs = /retry[-_ ]after[-_ ]ms["']?\s*[:=]?\s*["']?(\d+)/i.exec(text);
  if (afterMs) return nowMs + Number(afterMs[1]);
  const after = /retry[-_ ]after["']?\s*[:=]?\s*["']?(\d+(?:\.\d+)?)/i.exec(text);
  if (after) return nowMs + Math.ceil(Number(after[1]) * 1000);
  const tryIn = /try again in\s+(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?|h|hours?)\b/i.exec(text);
  if (tryIn) {
    const unit = (tryIn[2] ?? 's').toLowerCase();
    const key = unit === 'ms' ? 'ms' : (unit[0] as string);
    return nowMs + Math.ceil(Number(tryIn[1]) * (UNIT_MS[key] ?? 1000));
  }
  const inSeconds = /resets?_in_seconds["']?\s*[:=]\s*(\d+)/i.exec(text);
  if (inSeconds) return nowMs + Number(inSeconds[1]) * 1000;
  const at = /resets?[-_ ]?at["']?\s*[:=]?\s*["']?(\d{10,13}|\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d)?)/i.exec(
    text,
  );
  if (at) {
    const v = at[1] as string;
    const ms = /^\d+$/.test(v) ? epochMs(Number(v)) : Date.parse(v);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

function epochMs(n: number): number {
  return n < 1e12 ? n * 1000 : n;
}
