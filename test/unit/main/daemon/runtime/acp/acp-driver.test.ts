/**
 * issue 28: the ACP driver's pure parts — config validation of `runtime: "acp"`, the tool names
 * each preset's prompt uses, each CLI's error shape → the closed failure vocabulary, the
 * permission answer (never an "always" to the agent), and Gemini's session-minute lookup.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../../../../shared/config.js';
import {
  acpApprovalAsk,
  acpFailure,
  acpLogFailure,
  acpPermissionOutcome,
  geminiSessionMinute,
} from '../../../../../../main/daemon/runtime/acp/acp-driver.js';
import { sendSurfaceFor, sendToolRef } from '../../../../../../main/daemon/prompt/tool-names.js';
import { namingFor } from '../../../../../fixtures/prompt-agents.js';

const agent = (extra: Record<string, unknown>) => ({ id: 'a1', name: 'A1', ...extra });

describe('config: runtime "acp"', () => {
  it('accepts one line per preset and a custom command', () => {
    const parsed = ConfigSchema.parse({
      agents: [
        agent({ id: 'gemini', runtime: 'acp', preset: 'gemini' }),
        agent({ id: 'goose', runtime: 'acp', command: 'goose', args: ['acp'] }),
      ],
    });
    expect(parsed.agents.map((a) => [a.runtime, a.preset ?? null, a.command])).toEqual([
      ['acp', 'gemini', null],
      ['acp', null, 'goose'],
    ]);
  });

  it('rejects an acp agent with neither preset nor command, naming the field and the fix', () => {
    const res = ConfigSchema.safeParse({ agents: [agent({ runtime: 'acp' })] });
    expect(res.success).toBe(false);
    const issue = res.error?.issues[0];
    expect(issue?.path).toEqual(['agents', 0, 'command']);
    expect(issue?.message).toMatch(/needs "preset" \(one of gemini, qwen, copilot\) or "command"/);
  });

  it('rejects a preset on another runtime and an unknown preset', () => {
    const other = ConfigSchema.safeParse({ agents: [agent({ runtime: 'codex', preset: 'qwen' })] });
    expect(other.error?.issues[0]?.path).toEqual(['agents', 0, 'preset']);
    expect(other.error?.issues[0]?.message).toMatch(/only for "runtime": "acp"/);
    const unknown = ConfigSchema.safeParse({ agents: [agent({ runtime: 'acp', preset: 'cline' })] });
    expect(unknown.error?.issues[0]?.path).toEqual(['agents', 0, 'preset']);
  });
});

describe('prompt tool names per preset', () => {
  it('names the tool as each CLI presents it, and the bare tool with its server for a custom agent', () => {
    const ref = (preset?: 'gemini' | 'qwen' | 'copilot') =>
      sendToolRef(sendSurfaceFor(namingFor('acp', preset), 'mcp'), 'en');
    expect(ref('gemini')).toBe('`mcp_agentteam_message_send`');
    expect(ref('qwen')).toBe('`mcp__agentteam__message_send`');
    expect(ref('copilot')).toBe('`agentteam-message_send`');
    expect(ref()).toBe('`message_send` (MCP server `agentteam`)');
  });
});

describe('error shapes → failure reasons', () => {
  it('Gemini: the JSON-RPC code is the HTTP status', () => {
    expect(acpFailure({ code: 401, message: '{"error":{"code":401,"status":"UNAUTHENTICATED"}}' }).reason).toBe(
      'auth_required',
    );
    expect(acpFailure({ code: 429, message: 'fake: rate limited' })).toMatchObject({
      reason: 'provider_rate_limited',
      message: 'HTTP 429: fake: rate limited',
    });
    expect(acpFailure({ code: 500, message: 'INTERNAL' }).reason).toBe('provider_error');
  });

  it('Qwen: -32603 with the status leading data.details', () => {
    expect(
      acpFailure({ code: -32603, message: 'Internal error', data: { details: '401 fake: invalid API key' } }),
    ).toEqual({
      reason: 'auth_required',
      message: 'HTTP 401: 401 fake: invalid API key',
    });
    expect(
      acpFailure({ code: -32603, message: 'Internal error', data: { details: '500 fake: internal error' } }).reason,
    ).toBe('provider_error');
    expect(acpFailure({ code: -32603, message: 'Internal error' }).reason).toBe('runtime_error');
  });

  it('Copilot: the session.error events the CLI appended to its session event log (issue 38)', () => {
    // As Copilot CLI 1.0.102 wrote them against the fake model (HTTP 401, 429, 500).
    const log = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ type: 'session.error', data, id: 'e1', timestamp: '2026-12-05T05:48:52.793Z', ...extra });
    expect(
      acpLogFailure(
        log({
          errorType: 'authentication',
          message: 'Authentication failed with provider at http://127.0.0.1:1/v1 (HTTP 401).',
          statusCode: 401,
        }),
      ),
    ).toEqual({
      reason: 'auth_required',
      message: 'HTTP 401: Authentication failed with provider at http://127.0.0.1:1/v1 (HTTP 401).',
    });
    const limited = log({
      errorType: 'rate_limit',
      message: 'Failed to get response from the AI model; retried 5 times Last error: 429 fake: scripted 429',
      statusCode: 429,
    });
    expect(acpLogFailure(limited)?.reason).toBe('provider_rate_limited');
    expect(acpLogFailure(log({ errorType: 'query', message: 'Last error: 500', statusCode: 500 }))?.reason).toBe(
      'provider_error',
    );
    // No status: the error type says it; neither: a runtime error.
    expect(acpLogFailure(log({ errorType: 'quota', message: 'quota exceeded' }))?.reason).toBe('provider_rate_limited');
    expect(acpLogFailure(log({ errorType: 'session', message: 'Turn error: x' }))?.reason).toBe('runtime_error');
    // Not the turn's failure: a sub-agent's, an ephemeral one, a line still being written.
    expect(
      acpLogFailure(log({ errorType: 'rate_limit', statusCode: 429, message: 'm' }, { agentId: 'sub' })),
    ).toBeNull();
    expect(
      acpLogFailure(log({ errorType: 'rate_limit', statusCode: 429, message: 'm' }, { ephemeral: true })),
    ).toBeNull();
    expect(acpLogFailure(limited.slice(0, 40))).toBeNull();
  });

  it('Copilot: what the model says is never a failure, even the words of one (contract §6.5, §9.3)', () => {
    const said = 'Error: 429 too many requests, try again in 5 hours';
    const jsonl = [
      { type: 'user.message', data: { content: said, messageId: 'u1' } },
      { type: 'assistant.message', data: { content: said, messageId: 'a1', toolRequests: [] } },
      { type: 'assistant.turn_end', data: { turnId: '0' } },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(acpLogFailure(jsonl)).toBeNull();
  });
});

describe('permissions', () => {
  const qwenOptions = [
    { optionId: 'proceed_always_project', name: 'Always Allow in project', kind: 'allow_always' as const },
    { optionId: 'proceed_always_user', name: 'Always Allow for user', kind: 'allow_always' as const },
    { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' as const },
    { optionId: 'cancel', name: 'Reject', kind: 'reject_once' as const },
  ];

  it('an "always" allow is told to the agent as once (the grant stays the daemon\'s, never the repository\'s)', () => {
    const always = { decision: 'allow', scope: 'always', status: 'allowed', reason: null } as const;
    expect(acpPermissionOutcome(qwenOptions, always)).toEqual({
      outcome: { outcome: 'selected', optionId: 'proceed_once' },
    });
    const deny = { decision: 'deny', scope: 'once', status: 'denied', reason: 'no' } as const;
    expect(acpPermissionOutcome(qwenOptions, deny)).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' } });
    expect(acpPermissionOutcome([], deny)).toEqual({ outcome: { outcome: 'cancelled' } });
  });

  it('a shell tool call becomes a command approval with its exact rule', () => {
    const ask = acpApprovalAsk({
      sessionId: 's',
      options: qwenOptions,
      toolCall: { toolCallId: 't1', title: 'touch x.flag', kind: 'execute', rawInput: { command: 'touch x.flag' } },
    });
    expect(ask).toMatchObject({ kind: 'command', tool: 'Bash', summary: 'touch x.flag', rule: 'Bash(touch x.flag)' });
  });
});

describe('Gemini session minute', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('finds the creation minute of a stored session by its id', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-tmp-'));
    await mkdir(join(dir, 'proj', 'chats'), { recursive: true });
    await writeFile(join(dir, 'proj', 'chats', 'session-2026-12-02T15-07-0a1b2c3d.jsonl'), '{}\n');
    expect(geminiSessionMinute(dir, '0a1b2c3d-1111-2222-3333-444455556666')).toBe('2026-12-02T15:07');
    expect(geminiSessionMinute(dir, 'ffffffff-0000')).toBeNull();
    expect(geminiSessionMinute(join(dir, 'missing'), '0a1b2c3d')).toBeNull();
  });
});
