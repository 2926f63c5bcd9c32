// @vitest-environment happy-dom
/**
 * issue 26: the agent detail of an isolated agent — Merge into <base> (commit message when dirty;
 * each result and the conflict with its files), Discard (a confirmation naming what is lost, an
 * explicit confirm, Escape keeps it), refusals as the daemon words them, changes since base
 * through the review pane (no comment buttons there), zh-CN.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent, ApiResponse } from '../../../../shared/api/contract.js';
import { AgentDetail } from '../../../../renderer/src/components/agent-detail.js';
import { agentOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi, type CallScript } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const worktree = { path: '/w/app-worktrees/claude', branch: 'agentteam/claude', base: 'main', repoRoot: '/w/app' };
const isolated = (): Agent => agentOf({ cwd: '/w/app', isolation: 'worktree', worktree });
const holdings = (
  uncommitted: { path: string; status: string }[],
  commits: string[] = [],
): ApiResponse<'worktree.changes'> => ({ worktree, uncommitted, commits });
const patch = 'diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hello\n';
const sinceBase: ApiResponse<'agents.changes'> = {
  agentId: 'claude',
  branch: worktree.branch,
  base: 'main',
  workspace: worktree.path,
  files: [{ path: 'a.txt', oldPath: null, status: 'added', added: 1, removed: 0, binary: false, omitted: null, patch }],
};

const actions = () => within(document.querySelector<HTMLElement>('.worktree-actions')!);

function setup(script: CallScript = {}, language: 'en' | 'zh-CN' = 'en') {
  const fake = scriptedClientApi({
    'wakes.list': () => ok([]),
    'agents.changes': () => ok(sinceBase),
    'worktree.changes': () => ok(holdings([{ path: 'a.txt', status: '??' }])),
    ...script,
  });
  render(
    <AgentDetail api={fake.api} agent={isolated()} language={language} onMessage={() => {}} onOpenWake={() => {}} />,
  );
  return fake;
}

describe('AgentDetail: worktree merge and discard (issue 26)', () => {
  it('merges with the commit message typed for uncommitted changes and shows the fast-forward', async () => {
    const fake = setup({
      'worktree.merge': () => ok({ kind: 'merged', how: 'fast-forward', commit: '0123456789abcdef', committed: true }),
    });
    const user = userEvent.setup();
    await screen.findByText('1 uncommitted file(s) will be committed first.');
    await user.type(screen.getByRole('textbox', { name: /Commit message/ }), 'Add a.txt');
    await user.click(screen.getByRole('button', { name: 'Merge into main' }));
    expect((await actions().findByRole('status')).textContent).toBe('main fast-forwarded to 0123456789.');
    expect(fake.requestsOf('worktree.merge')).toEqual([{ agentId: 'claude', message: 'Add a.txt' }]);
    // The changes since base were re-read after the merge.
    await waitFor(() => expect(fake.requestsOf('agents.changes').length).toBeGreaterThan(1));
  });

  it('a clean worktree has no message field and sends none; up to date and merge commit are worded', async () => {
    let how: 'up-to-date' | 'merge-commit' = 'up-to-date';
    const fake = setup({
      'worktree.changes': () => ok(holdings([], ['abc1234 Add a.txt'])),
      'worktree.merge': () => ok({ kind: 'merged', how, commit: 'fedcba9876543210', committed: false }),
    });
    const user = userEvent.setup();
    const merge = await screen.findByRole('button', { name: 'Merge into main' });
    await waitFor(() => expect(fake.requestsOf('worktree.changes').length).toBe(1));
    expect(screen.queryByRole('textbox', { name: /Commit message/ })).toBeNull();
    await user.click(merge);
    expect((await actions().findByRole('status')).textContent).toBe('main is already up to date: nothing to merge.');
    how = 'merge-commit';
    await user.click(merge);
    await waitFor(() =>
      expect(actions().getByRole('status').textContent).toBe('Merged into main with merge commit fedcba9876.'),
    );
    expect(fake.requestsOf('worktree.merge')).toEqual([{ agentId: 'claude' }, { agentId: 'claude' }]);
  });

  it('a conflict lists its files and the fix; a refusal shows as the daemon words it', async () => {
    const msg =
      'Merging agentteam/claude into main conflicts in a.txt; the merge was aborted and main is unchanged. Fix: …';
    let conflict = true;
    setup({
      'worktree.merge': () =>
        conflict
          ? ok({ kind: 'conflict', files: ['a.txt', 'b.txt'], message: msg })
          : { ok: false, code: 'turn_running', message: 'Agent "claude" is working on a turn in its worktree: wait.' },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Merge into main' }));
    const alert = await actions().findByRole('alert');
    expect(alert.getAttribute('data-merge')).toBe('conflict');
    expect(alert.textContent).toContain(`Conflict: ${msg}`);
    expect([...alert.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['a.txt', 'b.txt']);
    conflict = false;
    await user.click(screen.getByRole('button', { name: 'Merge into main' }));
    await waitFor(() =>
      expect(actions().getByRole('alert').textContent).toBe(
        'Agent "claude" is working on a turn in its worktree: wait.',
      ),
    );
  });

  it('Discard asks first, naming the uncommitted files and commits lost; Escape keeps it; confirm discards', async () => {
    const fake = setup({
      'worktree.changes': () => ok(holdings([{ path: 'a.txt', status: '??' }], ['abc1234 Add notes'])),
      'worktree.discard': () => ok({ commit: '9999999999aaaa' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Discard the work of Claude?' });
    expect(dialog.querySelector('[data-lost="uncommitted"]')?.textContent).toBe('a.txt (added)');
    expect(dialog.querySelector('[data-lost="commits"]')?.textContent).toBe('abc1234 Add notes');
    expect(fake.requestsOf('worktree.discard')).toEqual([]);
    // Focus lands on "Keep it"; Escape closes it and nothing is discarded.
    expect(document.activeElement?.textContent).toBe('Keep it');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement?.textContent).toBe('Discard');
    expect(fake.requestsOf('worktree.discard')).toEqual([]);
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Discard this work' }));
    expect((await actions().findByRole('status')).textContent).toBe(
      'Discarded: the worktree is back at main (9999999999).',
    );
    expect(fake.requestsOf('worktree.discard')).toEqual([{ agentId: 'claude', confirm: true }]);
  });

  it('changes since base show in the review pane without comment buttons', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Changes since main' });
    await screen.findByText('a.txt');
    expect(document.querySelector('.review-pane[data-source="sinceBase"] .review-diff')?.textContent).toContain(
      'hello',
    );
    expect(screen.queryByRole('button', { name: /Comment on/ })).toBeNull();
  });

  it('zh-CN: the actions and the confirmation in Simplified Chinese', async () => {
    setup({ 'worktree.changes': () => ok(holdings([])) }, 'zh-CN');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: '合并到 main' });
    await screen.findByRole('heading', { name: '自 main 以来的改动' });
    await user.click(screen.getByRole('button', { name: '丢弃' }));
    const dialog = await screen.findByRole('alertdialog', { name: '丢弃 Claude 的工作？' });
    expect(dialog.textContent).toContain('无：工作树没有超出基线的工作。');
    expect(screen.getByRole('button', { name: '丢弃这些工作' })).toBeTruthy();
  });

  it('an agent without a worktree shows neither', () => {
    const fake = scriptedClientApi({ 'wakes.list': () => ok([]) });
    render(
      <AgentDetail
        api={fake.api}
        agent={agentOf({ isolation: 'none' })}
        language="en"
        onMessage={() => {}}
        onOpenWake={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: /Merge into/ })).toBeNull();
    expect(document.querySelector('.review-pane')).toBeNull();
  });
});
