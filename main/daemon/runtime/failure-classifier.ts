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
    // `invalid_request_error`: the OpenAI error body Codex forwards as is (codexErrorInfo "other", no HTTP status).
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
