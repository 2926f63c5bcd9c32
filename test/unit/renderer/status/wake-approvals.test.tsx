// @vitest-environment happy-dom
/** issue 14: the inspector's approval requests of one wake: status in words, the full command or diff as text. */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../../shared/api/contract.js';
import { WakeApprovals } from '../../../../renderer/src/status/wake-approvals.js';
import { approvalOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const diff = approvalOf({
  id: 'ap_diff',
  kind: 'file_change',
  tool: 'Edit',
  summary: 'src/a.ts (+1 −1)',
  detail: '--- src/a.ts\n-old <b>line</b>\n+new line\n same',
  status: 'denied',
  reason: 'not now',
  createdAt: '2026-03-02T09:04:00.000Z',
});

function setup(list: Approval[], language: 'en' | 'zh-CN' = 'en') {
  const fake = scriptedClientApi({ 'approvals.list': () => ok(list) });
  const view = render(<WakeApprovals api={fake.api} wakeToken="wk_1" language={language} />);
  return { fake, view };
}
const item = (id: string) => document.querySelector(`li[data-approval="${id}"]`) as HTMLElement;

describe('WakeApprovals', () => {
  it('shows nothing for a wake that asked for nothing', async () => {
    const { fake, view } = setup([]);
    await vi.waitFor(() => expect(fake.requestsOf('approvals.list')).toEqual([{ wakeToken: 'wk_1' }]));
    expect(view.container.innerHTML).toBe('');
  });

  it("lists the wake's requests oldest first, each with its status, tool, summary and reason", async () => {
    setup([approvalOf({ status: 'allowed', scope: 'session' }), diff]);
    expect((await screen.findByRole('heading')).textContent).toBe('Approval requests (2)');
    expect([...document.querySelectorAll('li[data-approval]')].map((l) => l.getAttribute('data-approval'))).toEqual([
      'ap_diff',
      'ap_1',
    ]);
    expect(item('ap_1').querySelector('.wake-approval-status')?.textContent).toBe('Allowed · for this session');
    expect(item('ap_1').querySelector('.wake-approval-tool')?.textContent).toBe('Bash');
    expect(item('ap_diff').getAttribute('data-approval-status')).toBe('denied');
    expect(item('ap_diff').querySelector('.wake-approval-summary')?.textContent).toBe('src/a.ts (+1 −1)');
    expect(item('ap_diff').querySelector('.wake-approval-reason')?.textContent).toBe('Reason: not now');
    expect(item('ap_1').querySelector('.wake-approval-reason')).toBeNull();
  });

  it('shows the full diff as text, colouring only its +/- lines', async () => {
    setup([diff]);
    await screen.findByRole('heading');
    const pre = item('ap_diff').querySelector('pre') as HTMLElement;
    expect(pre.getAttribute('aria-label')).toBe('Full command or change');
    expect(pre.textContent).toBe('--- src/a.ts\n-old <b>line</b>\n+new line\n same\n');
    expect(pre.querySelector('b')).toBeNull();
    expect([...pre.children].map((s) => s.className)).toEqual(['', 'diff-del', 'diff-add', '']);
  });

  it('issue 41: bidi overrides and control characters in the summary, reason and detail are shown as codes', async () => {
    setup([
      approvalOf({
        id: 'ap_bidi',
        summary: 'rm -rf ~ #\u202etxt.doc',
        detail: 'rm -rf ~ #\u202etxt.doc\necho ok\rrm -rf /\x1b[2K',
        status: 'denied',
        reason: 'no\u2066pe',
      }),
    ]);
    await screen.findByRole('heading');
    expect(item('ap_bidi').querySelector('.wake-approval-summary')?.textContent).toBe('rm -rf ~ #\\u{202e}txt.doc');
    expect(item('ap_bidi').querySelector('.wake-approval-reason')?.textContent).toBe('Reason: no\\u{2066}pe');
    expect(item('ap_bidi').querySelector('pre')?.textContent).toBe(
      'rm -rf ~ #\\u{202e}txt.doc\necho ok\\x0drm -rf /\\x1b[2K\n',
    );
  });

  it('a command is never coloured as a diff', async () => {
    setup([approvalOf({ detail: 'echo a\n-rf\n+x' })]);
    await screen.findByRole('heading');
    expect([...(item('ap_1').querySelector('pre')?.children ?? [])].map((s) => s.className)).toEqual(['', '', '']);
  });

  it('a pending request can be answered here; a settled one cannot', async () => {
    setup([approvalOf(), diff]);
    await screen.findByRole('heading');
    expect(
      within(item('ap_1'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Allow once', 'For this session', 'Always', 'Deny']);
    expect(within(item('ap_diff')).queryAllByRole('button')).toEqual([]);
  });

  it("follows approval.updated events of this wake's requests only", async () => {
    const { fake } = setup([approvalOf()]);
    await screen.findByRole('heading');
    act(() => fake.emit({ name: 'approval.updated', payload: approvalOf({ status: 'expired' }) }));
    expect(item('ap_1').querySelector('.wake-approval-status')?.textContent).toBe('Expired — answered as denied');
    act(() => fake.emit({ name: 'approval.updated', payload: approvalOf({ id: 'ap_x', wakeTokens: ['wk_2'] }) }));
    expect(document.querySelectorAll('li[data-approval]')).toHaveLength(1);
  });

  it('speaks 简体中文', async () => {
    setup([approvalOf()], 'zh-CN');
    expect((await screen.findByRole('heading')).textContent).toBe('批准请求（1）');
    expect(item('ap_1').querySelector('.wake-approval-status')?.textContent).toBe('等待你的批准');
  });
});
