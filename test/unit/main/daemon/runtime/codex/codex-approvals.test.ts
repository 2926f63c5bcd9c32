/** issue 14: the permission policy on Codex's thread settings, and its approval requests in and out. */
import { describe, expect, it } from 'vitest';
import type { ApprovalAsk } from '../../../../../../main/daemon/runtime/approval-port.js';
import { CodexApprovals, codexThreadPolicy } from '../../../../../../main/daemon/runtime/codex/codex-approvals.js';
import type { DriverContext, DriverEvent } from '../../../../../../main/daemon/runtime/driver-session.js';

describe('Codex permission policy', () => {
  it.each([
    ['read-only', { approvalPolicy: 'never', sandbox: 'read-only' }],
    ['ask', { approvalPolicy: 'on-request', sandbox: 'read-only' }],
    ['auto-edit', { approvalPolicy: 'on-request', sandbox: 'workspace-write' }],
    ['full', { approvalPolicy: 'never', sandbox: 'danger-full-access' }],
  ] as const)('%s → %j', (policy, expected) => {
    expect(codexThreadPolicy(policy)).toEqual(expected);
  });

  it('a command approval asks the operator with the command line and answers accept / decline', async () => {
    const asked: ApprovalAsk[] = [];
    let allow = true;
    const ctx = {
      askApproval: async (a: ApprovalAsk) => {
        asked.push(a);
        return {
          decision: allow ? 'allow' : 'deny',
          scope: 'once',
          status: allow ? 'allowed' : 'denied',
          reason: null,
        };
      },
    } as unknown as DriverContext;
    const approvals = new CodexApprovals(ctx);
    const request = {
      id: 1,
      method: 'item/commandExecution/requestApproval',
      params: { threadId: 't', turnId: 'u', itemId: 'i', command: 'touch a.txt', cwd: '/w', kind: 'command' },
    } as never;
    await expect(approvals.answer(request)).resolves.toEqual({ result: { decision: 'accept' } });
    allow = false;
    await expect(approvals.answer(request)).resolves.toEqual({ result: { decision: 'decline' } });
    expect(asked[0]).toMatchObject({
      kind: 'command',
      tool: 'Bash',
      summary: 'touch a.txt',
      rule: 'Bash(touch a.txt)',
    });
    expect(approvals.answer({ id: 2, method: 'item/tool/call', params: {} } as never)).toBeNull();
  });

  it('a file-change approval shows the announced paths and line counts', async () => {
    const asked: ApprovalAsk[] = [];
    const ctx = {
      askApproval: async (a: ApprovalAsk) => {
        asked.push(a);
        return { decision: 'allow', scope: 'once', status: 'allowed', reason: null };
      },
      log: undefined,
    } as unknown as DriverContext;
    const approvals = new CodexApprovals(ctx);
    approvals.observe({
      method: 'item/started',
      params: {
        threadId: 't',
        turnId: 'u',
        item: {
          type: 'fileChange',
          id: 'fc1',
          status: 'inProgress',
          changes: [{ path: '/w/a.txt', kind: { type: 'add' }, diff: '+one\n+two' }],
        },
      },
    } as never);
    await approvals.answer({
      id: 3,
      method: 'item/fileChange/requestApproval',
      params: { threadId: 't', turnId: 'u', itemId: 'fc1', startedAtMs: 0 },
    } as never);
    expect(asked[0]).toMatchObject({ kind: 'file_change', summary: '/w/a.txt (+2 −0)', rule: 'Edit(/w/a.txt)' });
    expect(asked[0]?.detail).toContain('+one');
  });
});

describe("Codex's own liveness signal (issue 14)", () => {
  const status = (type: 'active' | 'idle', activeFlags: string[] = []) =>
    ({
      method: 'thread/status/changed',
      params: { threadId: 't', status: type === 'active' ? { type, activeFlags } : { type } },
    }) as never;

  it('thread/status/changed waitingOnApproval becomes operator_wait, on each change only', () => {
    const emitted: DriverEvent[] = [];
    const approvals = new CodexApprovals({ emit: (e: DriverEvent) => emitted.push(e), log: undefined } as never);
    approvals.observe(status('active'));
    approvals.observe(status('active', ['waitingOnApproval']));
    approvals.observe(status('active', ['waitingOnApproval']));
    approvals.observe(status('active', ['waitingOnApproval', 'waitingOnUserInput']));
    approvals.observe(status('active'));
    approvals.observe(status('idle'));
    approvals.observe(status('active', ['waitingOnApproval']));
    approvals.observe(status('idle'));
    expect(emitted).toEqual([
      { type: 'operator_wait', waiting: true },
      { type: 'operator_wait', waiting: false },
      { type: 'operator_wait', waiting: true },
      { type: 'operator_wait', waiting: false },
    ]);
  });
});

describe('issue 29: every Codex approval request kind, as Codex defines it; "always" only when exact', () => {
  function setup(decision: 'allow' | 'deny' = 'allow') {
    const asked: ApprovalAsk[] = [];
    const ctx = {
      askApproval: async (a: ApprovalAsk) => {
        asked.push(a);
        return {
          decision,
          scope: 'once',
          status: decision === 'allow' ? 'allowed' : 'denied',
          reason: decision === 'deny' ? 'not now' : null,
        };
      },
    } as unknown as DriverContext;
    return { asked, approvals: new CodexApprovals(ctx) };
  }
  const commandRequest = (params: Record<string, unknown>) =>
    ({
      id: 1,
      method: 'item/commandExecution/requestApproval',
      params: { threadId: 't', turnId: 'u', itemId: 'i', cwd: '/w', ...params },
    }) as never;

  it('writeStdin: input to a running terminal — shown in full, only "once" (no rule)', async () => {
    const s = setup();
    await expect(s.approvals.answer(commandRequest({ kind: 'writeStdin', command: 'y\n' }))).resolves.toEqual({
      result: { decision: 'accept' },
    });
    expect(s.asked[0]).toEqual({
      kind: 'other',
      tool: 'Stdin',
      summary: 'input to a running command: y\n',
      detail: 'y\n\nin /w',
      rule: null,
    });
  });

  it('humanCommand: a command for a person — the command, only "once"', async () => {
    const s = setup('deny');
    await expect(
      s.approvals.answer(commandRequest({ kind: 'humanCommand', command: 'git push --force' })),
    ).resolves.toEqual({ result: { decision: 'decline' } });
    expect(s.asked[0]).toMatchObject({ kind: 'command', tool: 'Bash', summary: 'git push --force', rule: null });
  });

  it('a command Codex did not name is never "always"; a network prompt is exactly its host', async () => {
    const s = setup();
    await s.approvals.answer(commandRequest({ kind: 'command', command: null }));
    expect(s.asked[0]).toMatchObject({ kind: 'command', rule: null, summary: '(a command Codex did not show)' });
    await s.approvals.answer(
      commandRequest({
        kind: 'command',
        command: 'curl example.org',
        networkApprovalContext: { host: 'example.org', protocol: 'https' },
      }),
    );
    expect(s.asked[1]).toMatchObject({
      kind: 'other',
      tool: 'Network',
      summary: 'network access to https://example.org for: curl example.org',
      rule: 'Network(https://example.org)',
    });
  });

  it('a file change Codex did not announce, or a grantRoot, is only "once" (never "Edit(files)")', async () => {
    const s = setup();
    const fileRequest = (params: Record<string, unknown>) =>
      ({
        id: 2,
        method: 'item/fileChange/requestApproval',
        params: { threadId: 't', turnId: 'u', itemId: 'unknown', ...params },
      }) as never;
    await s.approvals.answer(fileRequest({}));
    expect(s.asked[0]).toMatchObject({ kind: 'file_change', summary: 'files Codex did not name', rule: null });
    await s.approvals.answer(fileRequest({ grantRoot: '/w/src' }));
    expect(s.asked[1]).toMatchObject({ summary: 'writes under /w/src', rule: null });
    expect(s.asked.map((a) => a.rule)).not.toContain('Edit(files)');
  });

  it('item/permissions/requestApproval: asked, granted as requested for the turn, or none', async () => {
    const permissions = { network: { enabled: true }, fileSystem: null };
    const request = {
      id: 3,
      method: 'item/permissions/requestApproval',
      params: {
        threadId: 't',
        turnId: 'u',
        itemId: 'i',
        environmentId: null,
        cwd: '/w',
        reason: 'fetch deps',
        permissions,
      },
    } as never;
    const allowed = setup();
    await expect(allowed.approvals.answer(request)).resolves.toEqual({
      result: { permissions: { network: { enabled: true } }, scope: 'turn' },
    });
    expect(allowed.asked[0]).toMatchObject({ kind: 'other', tool: 'Permissions', rule: null });
    expect(allowed.asked[0]?.detail).toBe(`${JSON.stringify(permissions)}\nin /w\nfetch deps`);
    await expect(setup('deny').approvals.answer(request)).resolves.toEqual({
      result: { permissions: {}, scope: 'turn' },
    });
  });

  it('legacy execCommandApproval / applyPatchApproval: the exact argv and the named files, ReviewDecision answers', async () => {
    const s = setup();
    await expect(
      s.approvals.answer({
        id: 4,
        method: 'execCommandApproval',
        params: {
          conversationId: 'c',
          callId: 'x',
          approvalId: null,
          command: ['bash', '-lc', "echo 'hi there'"],
          cwd: '/w',
          reason: null,
          parsedCmd: [],
        },
      } as never),
    ).resolves.toEqual({ result: { decision: 'approved' } });
    expect(s.asked[0]).toMatchObject({ summary: `bash -lc 'echo '\\''hi there'\\'''`, tool: 'Bash' });
    expect(s.asked[0]?.rule).toBe(`Bash(${s.asked[0]?.summary})`);
    const denied = setup('deny');
    await expect(
      denied.approvals.answer({
        id: 5,
        method: 'applyPatchApproval',
        params: {
          conversationId: 'c',
          callId: 'y',
          fileChanges: { '/w/a.txt': { type: 'add', content: '+one\n' } },
          reason: null,
          grantRoot: null,
        },
      } as never),
    ).resolves.toEqual({ result: { decision: { denied: { rejection: 'not now' } } } });
    expect(denied.asked[0]).toMatchObject({
      kind: 'file_change',
      summary: '/w/a.txt (+1 −0)',
      rule: 'Edit(/w/a.txt)',
    });
  });
});
