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
