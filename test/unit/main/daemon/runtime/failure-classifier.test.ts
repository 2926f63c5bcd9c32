import { describe, expect, it } from 'vitest';
import { classifyRuntimeFailure } from '../../../../../main/daemon/runtime/failure-classifier.js';

describe('classifyRuntimeFailure (issue 15)', () => {
  it.each([
    ['terminal_reason completed: Not logged in · Please run /login', 'auth_required'],
    ['APIError HTTP 401: Incorrect API key provided', 'auth_required'],
    ['ProviderAuthError: OpenAI API key is missing.', 'auth_required'],
    ['api_error_status 429: API Error: 429 rate_limit_error', 'provider_rate_limited'],
    ['Prompt is too long', 'context_overflow'],
    ['api_error_status 500: API Error: 500', 'provider_error'],
    ['{"error":{"message":"bad","type":"invalid_request_error","code":null}}', 'provider_error'],
    [
      '{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}',
      'context_overflow',
    ],
    ['Could not start "claude" (spawn claude ENOENT).', 'cli_missing'],
    ['Claude Code exited during a turn (code 1, signal null)', 'cli_exited'],
    ['something odd', 'runtime_error'],
  ])('%s → %s', (detail, reason) => {
    expect(classifyRuntimeFailure(detail)).toBe(reason);
  });
});
