import { describe, expect, it } from 'vitest';
import { codexFailure } from '../../../../../../main/daemon/runtime/codex/codex-failure.js';

const turnError = (codexErrorInfo: unknown) =>
  ({ message: 'm', codexErrorInfo, additionalDetails: null, misalignment: null }) as Parameters<typeof codexFailure>[0];

describe("a failed Codex turn's reason from its structured codexErrorInfo (issue 15)", () => {
  it.each([
    ['unauthorized', { reason: 'auth_required', status: null }],
    ['usageLimitExceeded', { reason: 'provider_rate_limited', status: null }],
    ['contextWindowExceeded', { reason: 'context_overflow', status: null }],
    ['internalServerError', { reason: 'provider_error', status: null }],
    [{ responseStreamConnectionFailed: { httpStatusCode: 429 } }, { reason: 'provider_rate_limited', status: 429 }],
    [{ httpConnectionFailed: { httpStatusCode: 401 } }, { reason: 'auth_required', status: 401 }],
    [{ responseTooManyFailedAttempts: { httpStatusCode: 502 } }, { reason: 'provider_error', status: 502 }],
  ])('%j → %j', (info, expected) => {
    expect(codexFailure(turnError(info))).toEqual(expected);
  });

  it('gives no reason where Codex names none (the detail is classified instead)', () => {
    expect(codexFailure(turnError('other'))).toBeNull();
    expect(codexFailure(turnError(null))).toBeNull();
    expect(codexFailure(turnError({ httpConnectionFailed: { httpStatusCode: null } }))).toBeNull();
    expect(codexFailure(null)).toBeNull();
  });
});
