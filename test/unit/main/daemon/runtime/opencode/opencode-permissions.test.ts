/** issue 14: the permission policy on OpenCode's `permission` config, its permission.asked event and its reply body. */
import { describe, expect, it } from 'vitest';
import {
  opencodeApprovalAsk,
  opencodePermissionConfig,
  opencodeReply,
} from '../../../../../../main/daemon/runtime/opencode/opencode-permissions.js';

/** issue 41: the policy's edit action, with git metadata denied after it (the last matching key wins). */
const editBut = (a: string) => ({ '*': a, '.git': 'deny', '.git/*': 'deny', '*/.git': 'deny', '*/.git/*': 'deny' });

describe('OpenCode permission policy', () => {
  it.each([
    ['read-only', { edit: 'deny', bash: 'deny', webfetch: 'deny', external_directory: 'deny' }],
    ['ask', { edit: editBut('ask'), bash: 'ask', webfetch: 'ask', external_directory: 'ask' }],
    ['auto-edit', { edit: editBut('allow'), bash: 'ask', webfetch: 'ask', external_directory: 'ask' }],
    ['full', { edit: editBut('allow'), bash: 'allow', webfetch: 'allow', external_directory: 'allow' }],
  ] as const)('%s → %j', (policy, expected) => {
    expect(opencodePermissionConfig(policy)).toEqual(expected);
  });

  it('issue 41: under every policy that edits, git metadata is denied to the edit tool, last so it wins', () => {
    for (const policy of ['ask', 'auto-edit', 'full'] as const) {
      const rules = Object.entries(opencodePermissionConfig(policy).edit as Record<string, string>);
      expect(rules[0]?.[0]).toBe('*');
      expect(rules.slice(1)).toEqual([
        ['.git', 'deny'],
        ['.git/*', 'deny'],
        ['*/.git', 'deny'],
        ['*/.git/*', 'deny'],
      ]);
    }
  });

  it("issue 29: the data dir is an external directory denied under every policy, the policy's action elsewhere", () => {
    for (const policy of ['read-only', 'ask', 'auto-edit', 'full'] as const) {
      const plain = opencodePermissionConfig(policy).external_directory;
      expect(opencodePermissionConfig(policy, ['/home/p/.config/agentteam/data/']).external_directory).toEqual({
        '*': plain,
        '/home/p/.config/agentteam/data/*': 'deny',
      });
    }
  });

  it('a bash permission.asked is shown as its command', () => {
    const asked = {
      id: 'per_1',
      sessionID: 'ses_1',
      permission: 'bash',
      patterns: ['touch a.txt'],
      metadata: {},
      always: ['touch *'],
    };
    expect(opencodeApprovalAsk(asked)).toEqual({
      kind: 'command',
      tool: 'Bash',
      summary: 'touch a.txt',
      detail: 'touch a.txt',
      rule: 'Bash(touch a.txt)',
    });
  });

  it('an edit permission.asked is shown as the path with added/removed line counts and the diff', () => {
    const ask = opencodeApprovalAsk({
      id: 'per_2',
      sessionID: 'ses_1',
      permission: 'edit',
      patterns: ['a.txt'],
      metadata: { filepath: '/w/a.txt', diff: '--- a.txt\n+++ a.txt\n-old\n+new\n+more' },
    });
    expect(ask).toMatchObject({ kind: 'file_change', summary: '/w/a.txt (+2 −1)', rule: 'Edit(/w/a.txt)' });
    expect(ask.detail).toBe('/w/a.txt\n--- a.txt\n+++ a.txt\n-old\n+new\n+more');
  });

  it('replies once on allow; a reject always carries the message the model reads', () => {
    expect(opencodeReply({ decision: 'allow', scope: 'once', status: 'allowed', reason: null })).toEqual({
      reply: 'once',
    });
    expect(opencodeReply({ decision: 'deny', scope: 'once', status: 'denied', reason: null })).toEqual({
      reply: 'reject',
      message: 'The operator denied this request.',
    });
  });
});
