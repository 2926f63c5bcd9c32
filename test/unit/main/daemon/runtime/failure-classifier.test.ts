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
    // Codex relays the provider's OpenAI-style body with codexErrorInfo "other".
    ['{"error":{"message":"bad","type":"invalid_request_error","code":null}}', 'provider_error'],
    [
      '{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}',
      'context_overflow',
    ],
    ['Could not start "claude" (spawn claude ENOENT).', 'cli_missing'],
    ['Claude Code exited during a turn (code 1, signal null)', 'cli_exited'],
    // issue 15: the wordings of Codex and OpenCode too, one row per reason at least.
    ['unexpected status 401 Unauthorized: invalid_api_key', 'auth_required'],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'provider_rate_limited'],
    ['usageLimitExceeded: You have hit your usage limit', 'provider_rate_limited'],
    ['contextWindowExceeded: Your input exceeds the context window of this model', 'context_overflow'],
    ['APIError: context_length_exceeded', 'context_overflow'],
    ['unexpected status 500 Internal Server Error', 'provider_error'],
    ['APIError statusCode: 502 Bad Gateway', 'provider_error'],
    // Codex reports a provider's 400 as `codexErrorInfo: "other"` with the provider's body, no status.
    ['{"error":{"message":"fake: scripted 400","type":"invalid_request_error","code":null}}', 'provider_error'],
    ['/bin/sh: 1: opencode: command not found', 'cli_missing'],
    ['codex app-server exited with code 1', 'cli_exited'],
    ['opencode serve terminated by signal SIGKILL', 'cli_exited'],
    ['something odd', 'runtime_error'],
  ])('%s → %s', (detail, reason) => {
    expect(classifyRuntimeFailure(detail)).toBe(reason);
  });
});
