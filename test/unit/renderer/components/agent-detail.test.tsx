// @vitest-environment happy-dom
/** One agent in detail: its facts, readiness with the fix, Retry, Message and its recent wakes. */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent, ApiResult } from '../../../../shared/api/contract.js';
import { AgentDetail } from '../../../../renderer/src/components/agent-detail.js';
import { agentOf, wakeOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi, type CallScript } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const signIn: NonNullable<Agent['readiness']> = {
  state: 'needs_sign_in',
  ready: false,
  reason: 'auth_required',
  cliVersion: '2.1.0',
  detail: null,
  restart: null,
  checkedAt: null,
};

function setup(agent: Agent, language: 'en' | 'zh-CN' = 'en', script: CallScript = {}) {
  const fake = scriptedClientApi({ 'wakes.list': () => ok([]), ...script });
  const onMessage = vi.fn();
  const onOpenWake = vi.fn();
  render(
    <AgentDetail api={fake.api} agent={agent} language={language} onMessage={onMessage} onOpenWake={onOpenWake} />,
  );
  return { fake, onMessage, onOpenWake };
}
const fact = (field: string) => document.querySelector(`dd[data-field="${field}"]`)?.textContent;

describe('AgentDetail', () => {
  it('shows runtime, CLI version, workspace, policy, model, sign-in and readiness with its fix', () => {
    setup(agentOf({ readiness: signIn, cwd: '/w/app', permissions: 'full', model: 'opus', auth: 'env' }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Claude');
    expect(fact('runtime')).toBe('Claude Code');
    expect(fact('cli-version')).toBe('2.1.0');
    expect(fact('cwd')).toBe('/w/app');
    expect(fact('permissions')).toBe('full ⚠ no questions asked: every command and edit runs');
    expect(fact('model')).toBe('opus');
    expect(fact('auth')).toBe("keys in this agent's env");
    expect(document.querySelector('dd[data-field="readiness"] strong')?.textContent).toBe('Needs sign-in');
    expect(document.querySelector('.readiness-fix')?.textContent).toBe("Set ANTHROPIC_API_KEY in this agent's env.");
    expect(document.querySelector('.readiness-fix code')?.textContent).toBe('ANTHROPIC_API_KEY');
  });

  it('issue 26: an isolated agent shows its worktree, branch and base (en, zh-CN), and says when it is not made yet', () => {
    const worktree = { path: '/w/app-worktrees/claude', branch: 'agentteam/claude', base: 'main', repoRoot: '/w/app' };
    setup(agentOf({ cwd: '/w/app', isolation: 'worktree', worktree }));
    expect(fact('worktree')).toBe('/w/app-worktrees/claude');
    expect(fact('worktree-branch')).toBe('agentteam/claude');
    expect(fact('worktree-base')).toBe('main');
    expect(screen.getByText('Merges into')).toBeTruthy();
    cleanup();
    setup(agentOf({ isolation: 'worktree', worktree: null }), 'zh-CN');
    expect(fact('worktree')).toBe('尚未创建（见就绪状态）');
    expect(fact('worktree-branch')).toBeUndefined();
    cleanup();
    setup(agentOf({ isolation: 'none' }));
    expect(fact('worktree')).toBeUndefined();
  });

  it('says what is unknown or default, in 简体中文', () => {
    setup(agentOf(), 'zh-CN');
    expect(screen.getByText('命令行版本')).toBeTruthy();
    expect(fact('cli-version')).toBe('未知');
    expect(fact('model')).toBe('默认');
    expect(fact('auth')).toBe('你的命令行登录');
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });

  it('a demo agent has no sign-in, policy or settings form', () => {
    setup(agentOf({ demo: true, runtime: 'demo', permissions: 'ask' }));
    expect(fact('auth')).toBeUndefined();
    expect(fact('permissions')).toBeUndefined();
    expect(fact('cli-version')).toBe('—');
    expect(screen.queryByRole('heading', { name: 'Workspace and permissions' })).toBeNull();
  });

  it('issue 40: a demo agent lists the "always" rules granted from its approvals, each with Revoke', () => {
    setup(agentOf({ demo: true, runtime: 'demo', allow: ['Write(/w/agentteam-demo.txt)'] }));
    expect([...document.querySelectorAll('ul[data-field="allow"] li code')].map((c) => c.textContent)).toEqual([
      'Write(/w/agentteam-demo.txt)',
    ]);
    expect(screen.getByRole('button', { name: 'Revoke Write(/w/agentteam-demo.txt)' })).toBeTruthy();
  });

  it("lists its own latest wakes, newest first, and opens one's inspector", async () => {
    const wakes = [
      wakeOf({ wakeToken: 'wk_a', agentId: 'claude', status: 'reply_sent' }),
      wakeOf({ wakeToken: 'wk_other', agentId: 'codex' }),
      wakeOf({ wakeToken: 'wk_b', agentId: 'claude', status: 'failed', reason: 'auth_required' }),
    ];
    const { fake, onOpenWake } = setup(agentOf(), 'en', { 'wakes.list': () => ok(wakes) });
    // The chips' own words and icon, never the raw status or reason code (its detail is in the inspector).
    await screen.findByRole('button', { name: /#general · \s*Couldn't complete ·/ });
    expect(document.querySelector('[data-wake="wk_a"]')?.textContent).toMatch(/^#general · \S+ Replied · /);
    expect(document.querySelector('[data-wake="wk_b"]')?.textContent).not.toContain('auth_required');
    expect([...document.querySelectorAll('[data-wake]')].map((b) => b.getAttribute('data-wake'))).toEqual([
      'wk_b',
      'wk_a',
    ]);
    expect(fake.requestsOf('wakes.list')).toEqual([{ limit: 200 }]);
    await userEvent.click(document.querySelector('[data-wake="wk_a"]') as HTMLElement);
    expect(onOpenWake).toHaveBeenCalledExactlyOnceWith('wk_a');
  });

  it('a recent wake reads in 简体中文 too, and a stopped one says so', async () => {
    setup(agentOf(), 'zh-CN', {
      'wakes.list': () =>
        ok([
          wakeOf({ wakeToken: 'wk_s', status: 'failed', reason: 'stopped_by_operator' }),
          wakeOf({ wakeToken: 'wk_r', status: 'completed_without_visible_reply' }),
        ]),
    });
    await waitFor(() => expect(document.querySelector('[data-wake="wk_s"]')).not.toBeNull());
    expect(document.querySelector('[data-wake="wk_s"] [data-status]')?.textContent).toMatch(/已停止/);
    expect(document.querySelector('[data-wake="wk_r"] [data-status]')?.textContent).not.toMatch(/completed_without/);
  });

  it('says so when it has no wakes', async () => {
    setup(agentOf());
    expect(await screen.findByText('No wakes yet.')).toBeTruthy();
  });

  it('Retry re-checks the agent: disabled while checking, the refusal shown after', async () => {
    const answer = Promise.withResolvers<ApiResult<Agent[]>>();
    const { fake } = setup(agentOf(), 'en', { 'agents.check': () => answer.promise });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const checking = screen.getByRole('button', { name: 'Checking…' }) as HTMLButtonElement;
    expect(checking.disabled).toBe(true);
    expect(fake.requestsOf('agents.check')).toEqual([{ agentId: 'claude' }]);
    answer.resolve({ ok: false, code: 'unavailable', message: 'the daemon is not running' });
    expect((await screen.findByRole('alert')).textContent).toBe('the daemon is not running');
    expect((screen.getByRole('button', { name: 'Retry' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Message calls back with its id', async () => {
    const { onMessage } = setup(agentOf({ id: 'codex' }));
    await userEvent.click(screen.getByRole('button', { name: 'Message' }));
    expect(onMessage).toHaveBeenCalledExactlyOnceWith('codex');
  });

  it('renders a workspace path and a failure reason as text, never markup', async () => {
    setup(agentOf({ cwd: '<i>/w</i>' }), 'en', {
      'wakes.list': () => ok([wakeOf({ status: 'failed', reason: '<b>x</b>' })]),
    });
    await waitFor(() => expect(document.querySelector('[data-wake]')).not.toBeNull());
    expect(document.querySelector('section i, section b')).toBeNull();
    expect(fact('cwd')).toBe('<i>/w</i>');
    expect(document.querySelector('[data-wake]')?.textContent).not.toContain('<b>');
  });
});
