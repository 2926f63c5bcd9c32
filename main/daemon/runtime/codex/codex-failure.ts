/**
 * A failed Codex turn's reason (issue 15, shared/wake-status.ts FAILURE_REASONS) from the app-server's
 * own structured `codexErrorInfo` (generated protocol types), so no message text needs probing; a
 * status-bearing variant keeps the HTTP status for the detail.
 */
import type { FailureReason } from '../../../../shared/wake-status.js';
import type { CodexErrorInfo, TurnError } from './codex-protocol.js';

const BY_KIND: Readonly<Partial<Record<string, FailureReason>>> = {
  unauthorized: 'auth_required',
  usageLimitExceeded: 'provider_rate_limited',
  rateLimitExceeded: 'provider_rate_limited',
  sessionBudgetExceeded: 'provider_rate_limited',
  contextWindowExceeded: 'context_overflow',
  badRequest: 'provider_error',
  internalServerError: 'provider_error',
  serverOverloaded: 'provider_error',
  modelNotFound: 'provider_error',
  flexUnavailable: 'provider_error',
  policyCapacityUnavailable: 'provider_error',
};

/** The HTTP status a connection-failure variant carries, if any. */
function httpStatusOf(info: CodexErrorInfo): number | null {
  if (typeof info !== 'object' || info === null) return null;
  for (const value of Object.values(info)) {
    const status = (value as { httpStatusCode?: unknown } | null)?.httpStatusCode;
    if (typeof status === 'number') return status;
  }
  return null;
}

/** The reason and a detail prefix naming the HTTP status; null when Codex gave no structured kind. */
export function codexFailure(error: TurnError | null | undefined): {
  readonly reason: FailureReason;
  readonly status: number | null;
} | null {
  const info = error?.codexErrorInfo;
  if (info === null || info === undefined) return null;
  if (typeof info === 'string') {
    const reason = BY_KIND[info];
    return reason === undefined ? null : { reason, status: null };
  }
  const status = httpStatusOf(info);
  if (status === null) return null;
  if (status === 401 || status === 403) return { reason: 'auth_required', status };
  if (status === 429) return { reason: 'provider_rate_limited', status };
  return { reason: 'provider_error', status };
}
