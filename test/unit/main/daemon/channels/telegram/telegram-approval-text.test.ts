/** issue 14 from the phone: the approval question's copy and its buttons' callback data. */
import { describe, expect, it } from 'vitest';
import {
  alreadySettled,
  approvalButtonData,
  approvalFitsChat,
  approvalOutcome,
  approvalQuestion,
  approvalScopesFitChat,
  parseApprovalButton,
} from '../../../../../../main/daemon/channels/telegram/telegram-approval-text.js';
import type { ApprovalRecord } from '../../../../../../main/daemon/store/index.js';

const record = (partial: Partial<ApprovalRecord>): ApprovalRecord => ({
  id: 'ap_0123456789ab',
  agentId: 'claude',
  runtime: 'claude-code',
  turnId: 't1',
  wakeTokens: ['w1'],
  kind: 'command',
  tool: 'Bash',
  summary: 'npm test',
  detail: 'npm test',
  rule: 'Bash(npm test)',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:15:00.000Z',
  status: 'pending',
  scope: null,
  reason: null,
  answeredAt: null,
  ...partial,
});

describe('approval buttons and copy for Telegram', () => {
  it('callback data round-trips, fits Telegram’s 64 bytes, and anything else is not an answer', () => {
    for (const [decision, scope] of [
      ['allow', 'once'],
      ['allow', 'session'],
      ['allow', 'always'],
      ['deny', 'once'],
    ] as const) {
      const data = approvalButtonData(decision, 'ap_0123456789ab', scope);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
      expect(parseApprovalButton(data)).toEqual({ decision, scope, id: 'ap_0123456789ab' });
    }
    expect(new Set(['once', 'session', 'always'].map((s) => approvalButtonData('allow', 'x', s as 'once'))).size).toBe(
      3,
    );
    // The longest id the parser accepts still fits.
    expect(Buffer.byteLength(approvalButtonData('deny', 'x'.repeat(56)))).toBe(61);
    for (const junk of [undefined, '', 'ap:x:ap_1', 'ap:a:', 'ap:a:id with space', `ap:a:${'x'.repeat(57)}`, 'a:ap_1'])
      expect(parseApprovalButton(junk)).toBeNull();
  });

  it('issue 40: with an exact rule the question ends with the rule "for this session" and "always" add', () => {
    expect(approvalQuestion('en', 'Claude', { summary: 'npm test', rule: 'Bash(npm test)' })).toBe(
      '✋ Claude asks: npm test\nFor this session or always, exactly: Bash(npm test)',
    );
    expect(approvalQuestion('zh-CN', 'Claude', { summary: 'npm test', rule: 'Bash(npm test)' })).toBe(
      '✋ Claude 请求批准：npm test\n本次会话内或始终允许的规则：Bash(npm test)',
    );
    expect(approvalScopesFitChat({ summary: 'npm test', rule: null })).toBe(false);
    expect(approvalScopesFitChat({ summary: 'npm test', rule: `Bash(${'x'.repeat(1000)})` })).toBe(false);
    expect(approvalQuestion('en', 'Claude', { summary: 'ls', rule: `Bash(${'x'.repeat(1000)})` })).toBe(
      '✋ Claude asks: ls',
    );
  });

  it('issue 41: the question shows bidi overrides and controls as codes, and the fit is measured on what is shown', () => {
    expect(approvalQuestion('en', 'Claude', { summary: 'rm -rf ~ #\u202etxt.doc\x1b[2K', rule: null })).toBe(
      '✋ Claude asks: rm -rf ~ #\\u{202e}txt.doc\\x1b[2K',
    );
    // 200 overrides are 200 characters raw but 1,600 shown: too long to show whole, so no Allow here.
    expect(approvalFitsChat('\u202e'.repeat(200))).toBe(false);
  });

  it('the question is neutral, plain text, and bounded; the outcome keeps it and says who and how', () => {
    const q = approvalQuestion('en', 'Claude', { summary: 'npm test', rule: null });
    expect(q).toBe('✋ Claude asks: npm test');
    const long = approvalQuestion('en', 'Claude', { summary: 'x'.repeat(5000), rule: null });
    expect(long.length).toBeLessThan(1100);
    // issue 29: cut, and it says where to answer (its buttons are left off: telegram-approvals.ts).
    expect(long.split('\n')).toEqual([
      `✋ Claude asks: ${'x'.repeat(999)}…`,
      'This command is too long to show here in full: open AgentTeam to answer.',
    ]);
    expect(approvalQuestion('zh-CN', 'Claude', { summary: 'x'.repeat(1001), rule: null }).split('\n')[1]).toBe(
      '此命令太长，无法在此完整显示：请打开 AgentTeam 回答。',
    );
    expect(approvalFitsChat('x'.repeat(1000))).toBe(true);
    expect(approvalQuestion('en', 'Claude', { summary: 'x'.repeat(1000), rule: null })).toBe(
      `✋ Claude asks: ${'x'.repeat(1000)}`,
    );
    expect(approvalFitsChat('x'.repeat(1001))).toBe(false);
    expect(approvalOutcome('en', q, record({ status: 'allowed', scope: 'once' }), '@ann')).toBe(
      '✋ Claude asks: npm test\n✅ Allowed by @ann',
    );
    expect(approvalOutcome('en', q, record({ status: 'allowed', scope: 'always' }), null)).toBe(
      '✋ Claude asks: npm test\n✅ Allowed (always: Bash(npm test))',
    );
    expect(approvalOutcome('en', q, record({ status: 'cancelled' }), null)).toContain('⏹ Cancelled');
    const zh = approvalQuestion('zh-CN', 'Claude', { summary: 'npm test', rule: null });
    expect(zh).toBe('✋ Claude 请求批准：npm test');
    expect(approvalOutcome('zh-CN', zh, record({ status: 'denied', scope: 'once' }), '@ann')).toBe(
      '✋ Claude 请求批准：npm test\n🚫 @ann 已拒绝',
    );
    expect(alreadySettled('zh-CN', 'expired')).toBe('此请求已过期，未做任何更改。');
    expect(alreadySettled('en', 'allowed')).toBe('This request is already allowed; nothing was changed.');
  });
});
