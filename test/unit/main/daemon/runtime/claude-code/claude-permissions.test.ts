/** issue 14: the permission policy on Claude Code's own flags, and can_use_tool in and out. */
import { describe, expect, it } from 'vitest';
import {
  claudeApprovalAsk,
  claudePermissionArgs,
  claudePermissionResult,
} from '../../../../../../main/daemon/runtime/claude-code/claude-permissions.js';

describe('Claude Code permission policy', () => {
  it.each([
    ['read-only', ['--permission-mode', 'dontAsk']],
    ['ask', ['--permission-mode', 'default', '--permission-prompt-tool', 'stdio']],
    ['auto-edit', ['--permission-mode', 'acceptEdits', '--permission-prompt-tool', 'stdio']],
    ['full', ['--permission-mode', 'bypassPermissions', '--allow-dangerously-skip-permissions']],
  ] as const)('%s → %j', (policy, args) => {
    expect(claudePermissionArgs(policy)).toEqual(args);
  });

  it('a Bash request is shown as its command line and its rule is exactly that command', () => {
    const req = {
      subtype: 'can_use_tool' as const,
      tool_name: 'Bash',
      input: { command: 'npm test', description: 'x' },
    };
    expect(claudeApprovalAsk(req)).toEqual({
      kind: 'command',
      tool: 'Bash',
      summary: 'npm test',
      detail: 'npm test',
      rule: 'Bash(npm test)',
    });
  });

  it('an Edit is shown as the path with added/removed line counts and the diff', () => {
    const ask = claudeApprovalAsk({
      subtype: 'can_use_tool',
      tool_name: 'Edit',
      input: { file_path: '/w/a.ts', old_string: 'a\nb', new_string: 'c' },
    });
    expect(ask).toMatchObject({ kind: 'file_change', summary: '/w/a.ts (+1 −2)', rule: 'Edit(/w/a.ts)' });
    expect(ask.detail).toBe('/w/a.ts\n-a\n-b\n+c');
  });

  it('issue 40 item 9: lines an Edit keeps are context, never counted; MultiEdit sums its edits; a final newline is no extra line', () => {
    const edit = claudeApprovalAsk({
      subtype: 'can_use_tool',
      tool_name: 'Edit',
      input: {
        file_path: '/w/a.ts',
        old_string: 'const a = 1;\nconst b = 2;\n',
        new_string: 'const a = 1;\nconst b = 3;\n',
      },
    });
    expect(edit.summary).toBe('/w/a.ts (+1 −1)');
    expect(edit.detail).toBe('/w/a.ts\n const a = 1;\n-const b = 2;\n+const b = 3;');
    const multi = claudeApprovalAsk({
      subtype: 'can_use_tool',
      tool_name: 'MultiEdit',
      input: {
        file_path: '/w/b.ts',
        edits: [
          { old_string: 'x\ny', new_string: 'x\nz' },
          { old_string: 'p', new_string: 'p\nq\nr' },
        ],
      },
    });
    expect(multi.summary).toBe('/w/b.ts (+3 −1)');
    const write = claudeApprovalAsk({
      subtype: 'can_use_tool',
      tool_name: 'Write',
      input: { file_path: '/w/c.txt', content: 'one\ntwo\n' },
    });
    expect(write.summary).toBe('/w/c.txt (+2 −0)');
    expect(write.detail).toBe('/w/c.txt\n+one\n+two');
  });

  it('answers allow with the input unchanged, deny with the reason the model reads', () => {
    const req = { subtype: 'can_use_tool' as const, tool_name: 'Bash', input: { command: 'ls' } };
    expect(claudePermissionResult(req, { decision: 'allow', scope: 'once', status: 'allowed', reason: null })).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'ls' },
    });
    expect(
      claudePermissionResult(req, { decision: 'deny', scope: 'once', status: 'expired', reason: 'No answer' }),
    ).toEqual({ behavior: 'deny', message: 'No answer' });
  });
});
