// @vitest-environment happy-dom
/** issue 14: the approval chip (Allow/Deny, opens its wake's inspector) and the pending approvals kept from events. */
import { act, cleanup, render, renderHook, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Approval, ApiResult } from '../../../../shared/api/contract.js';
import {
  ApprovalChips,
  usePendingApprovals,
  waitingWakes,
  type ApprovalChipsProps,
} from '../../../../renderer/src/status/approval-chip.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { approvalOf, wakeOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi, type CallScript } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

function setup(over: Partial<ApprovalChipsProps> = {}, script: CallScript = {}) {
  const fake = scriptedClientApi(script);
  const wakes = new WakeBook();
  wakes.apply(wakeOf({ wakeToken: 'wk_1', target: '#general' }));
  wakes.apply(wakeOf({ wakeToken: 'wk_2', target: '#other' }));
  const props: ApprovalChipsProps = {
    api: fake.api,
    approvals: [approvalOf()],
    wakes,
    target: '#general',
    language: 'en',
    ...over,
  };
  render(<ApprovalChips {...props} />);
  return { fake, props };
}
const chip = (id: string) => document.querySelector(`[data-approval="${id}"]`) as HTMLElement;

describe('ApprovalChips', () => {
  it('says who waits for what, with Allow and Deny (en and 简体中文)', () => {
    setup();
    const c = chip('ap_1');
    expect(c.getAttribute('data-status')).toBe('waiting_approval');
    expect(c.getAttribute('data-wake')).toBe('wk_1');
    expect(c.querySelector('.chip-icon')?.textContent).toBe('✋');
    expect(c.querySelector('.chip-agent')?.textContent).toBe('Claude');
    expect(c.querySelector('.chip-text')?.textContent).toBe('Waiting for your approval: npm test');
    expect(
      within(c)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['✋Claude·Waiting for your approval: npm test', 'Allow once', 'For this session', 'Always', 'Deny']);
    cleanup();
    setup({ language: 'zh-CN' });
    expect(chip('ap_1').querySelector('.chip-text')?.textContent).toBe('等待你的批准：npm test');
    expect(within(chip('ap_1')).getByRole('button', { name: '允许一次' })).toBeTruthy();
    expect(within(chip('ap_1')).getByRole('button', { name: '本次会话内允许：Bash(npm test)' })).toBeTruthy();
    expect(within(chip('ap_1')).getByRole('button', { name: '始终允许：Bash(npm test)' })).toBeTruthy();
    expect(chip('ap_1').querySelector('.approval-rule')?.textContent).toBe(
      '本次会话内或始终允许的规则： Bash(npm test)',
    );
  });

  it('issue 40: "for this session" and "always" name the exact rule they add, and answer with that scope', async () => {
    const { fake } = setup({}, { 'approvals.answer': () => ok(approvalOf({ status: 'allowed' })) });
    const c = chip('ap_1');
    const rule = c.querySelector('.approval-rule') as HTMLElement;
    expect(rule.textContent).toBe('For this session or always, exactly: Bash(npm test)');
    const session = within(c).getByRole('button', { name: 'Allow for this session: Bash(npm test)' });
    const always = within(c).getByRole('button', { name: 'Always allow: Bash(npm test)' });
    for (const b of [session, always]) expect(b.getAttribute('aria-describedby')).toBe(rule.id);
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    await userEvent.click(session);
    await userEvent.click(always);
    expect(fake.requestsOf('approvals.answer')).toEqual([
      { id: 'ap_1', decision: 'allow', scope: 'once' },
      { id: 'ap_1', decision: 'allow', scope: 'session' },
      { id: 'ap_1', decision: 'allow', scope: 'always' },
    ]);
  });

  it('a request with no exact rule can be allowed once only (no rule shown)', () => {
    setup({ approvals: [approvalOf({ rule: null })] });
    const c = chip('ap_1');
    expect(
      within(c)
        .getAllByRole('button')
        .slice(1)
        .map((b) => b.textContent),
    ).toEqual(['Allow once', 'Deny']);
    expect(c.querySelector('.approval-rule')).toBeNull();
  });

  it('a rule with a control character shows it as its code', () => {
    setup({ approvals: [approvalOf({ rule: 'Bash(ls\u001b[2J)' })] });
    expect(chip('ap_1').querySelector('.approval-rule code')?.textContent).toBe('Bash(ls\\x1b[2J)');
  });

  it('a refused answer shows its refusal at the chip, and the chip stays answerable', async () => {
    setup(
      {},
      {
        'approvals.answer': () => ({
          ok: false,
          code: 'operator_only',
          message: 'This page no longer holds the operator key.',
        }),
      },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Always allow: Bash(npm test)' }));
    const alert = within(chip('ap_1')).getByRole('alert');
    expect(alert.textContent).toBe('Not answered: This page no longer holds the operator key.');
    await vi.waitFor(() =>
      expect((screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('issue 41: a bidi override or a control character in the summary or detail is shown as its code', async () => {
    setup({
      approvals: [approvalOf({ summary: 'cat notes #\u202egpj.exe', detail: 'cat notes\rrm -rf ~' })],
      onOpenWake: undefined,
    });
    const c = chip('ap_1');
    expect(c.querySelector('.chip-text')?.textContent).toBe('Waiting for your approval: cat notes #\\u{202e}gpj.exe');
    await userEvent.click(within(c).getAllByRole('button')[0] as HTMLElement);
    expect(c.querySelector('pre')?.textContent).toBe('cat notes\\x0drm -rf ~');
  });

  it("shows on its wakes' conversation only; one asked between turns shows everywhere", () => {
    setup({
      approvals: [
        approvalOf({ id: 'here' }),
        approvalOf({ id: 'there', wakeTokens: ['wk_2'] }),
        approvalOf({ id: 'between', wakeTokens: [] }),
      ],
    });
    expect([...document.querySelectorAll('[data-approval]')].map((c) => c.getAttribute('data-approval'))).toEqual([
      'here',
      'between',
    ]);
  });

  it('Allow once answers the request; every button waits for the answer', async () => {
    const answer = Promise.withResolvers<ApiResult<Approval>>();
    const { fake } = setup({}, { 'approvals.answer': () => answer.promise });
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect(fake.requestsOf('approvals.answer')).toEqual([{ id: 'ap_1', decision: 'allow', scope: 'once' }]);
    expect((screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve(ok(approvalOf({ status: 'allowed', scope: 'once' })));
    await vi.waitFor(() =>
      expect((screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('Deny answers deny', async () => {
    const { fake } = setup({}, { 'approvals.answer': () => ok(approvalOf({ status: 'denied' })) });
    await userEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(fake.requestsOf('approvals.answer')).toEqual([{ id: 'ap_1', decision: 'deny' }]);
  });

  it("opens its wake's inspector from the chip", async () => {
    const onOpenWake = vi.fn();
    setup({ onOpenWake });
    const main = chip('ap_1').querySelector('.chip-main') as HTMLElement;
    expect(main.getAttribute('aria-expanded')).toBeNull();
    await userEvent.click(main);
    expect(onOpenWake).toHaveBeenCalledExactlyOnceWith('wk_1', main);
  });

  it('without a wake, expands the full command in place, as text never markup', async () => {
    setup({ approvals: [approvalOf({ wakeTokens: [], detail: '<img src=x onerror=alert(1)>rm -rf build' })] });
    const main = chip('ap_1').querySelector('.chip-main') as HTMLElement;
    expect(main.getAttribute('title')).toBe('Full command or change');
    expect(main.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(main);
    expect(main.getAttribute('aria-expanded')).toBe('true');
    const pre = document.getElementById(main.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(pre.tagName).toBe('PRE');
    expect(pre.textContent).toBe('<img src=x onerror=alert(1)>rm -rf build');
    expect(pre.querySelector('img')).toBeNull();
  });
});

describe('usePendingApprovals and waitingWakes', () => {
  it('lists the pending approvals, then follows approval.updated events', async () => {
    const fake = scriptedClientApi({ 'approvals.list': () => ok([approvalOf({ id: 'a' })]) });
    const { result } = renderHook(() => usePendingApprovals(fake.api));
    await vi.waitFor(() => expect(result.current.map((a) => a.id)).toEqual(['a']));
    expect(fake.requestsOf('approvals.list')).toEqual([{ status: 'pending' }]);
    act(() => fake.emit({ name: 'approval.updated', payload: approvalOf({ id: 'b', wakeTokens: ['wk_3'] }) }));
    expect(result.current.map((a) => a.id)).toEqual(['a', 'b']);
    act(() => fake.emit({ name: 'approval.updated', payload: approvalOf({ id: 'a', status: 'allowed' }) }));
    expect(result.current.map((a) => a.id)).toEqual(['b']);
    expect([...waitingWakes(result.current)]).toEqual(['wk_3']);
  });
});
