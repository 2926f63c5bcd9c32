/**
 * issue 26 in the browser (real Chromium, real `agentteam serve`, real git): the agent detail of
 * the demo agent isolated in a worktree of a real repository. Its `/approve` file is a change
 * since base; Discard asks first, naming what is lost (Escape keeps it), then resets the worktree;
 * a Merge that conflicts with the person's own commit lists the file and leaves the base as it
 * was; once the person drops that commit, Merge fast-forwards the base and the checkout is clean.
 * issue 40 item 10: `/edit` merged, `/edit conflict` refused as a conflict, Discard — twice over.
 * English and 简体中文, axe light and dark, 390 px.
 */
import type { Page } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { expect, expectNoSeriousAxeViolations, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';
import { makeGitRepo, type GitRepo } from '../fixtures/git-repo.js';

let repo: GitRepo;
let worktrees: GitRepo;

test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
  config: async ({}, use) => {
    // The person's checkout, and a folder of the test's own for the agent's worktree.
    repo = makeGitRepo({ 'README.md': 'project\n' }, 'agentteam-worktree-e2e-');
    worktrees = makeGitRepo({}, 'agentteam-worktree-e2e-trees-');
    await use({
      agents: [
        {
          id: 'demo',
          name: 'Demo',
          runtime: 'demo',
          cwd: repo.path,
          isolation: 'worktree',
          worktreesDir: worktrees.path,
        },
      ],
      channels: { local: {} },
    });
    repo.remove();
    worktrees.remove();
  },
});

const detailOf = (page: Page) => page.locator('section.agent-detail[data-agent="demo"]');
const actionsOf = (page: Page) => detailOf(page).locator('section.worktree-actions');
const sinceBaseOf = (page: Page) => detailOf(page).locator('.review-pane');
const demoFile = () => join(worktrees.path, 'demo', 'agentteam-demo.txt');

/** The demo writes its file in its worktree (allowed from the chip), then its detail is opened. */
async function demoWritesItsFile(page: Page, allow: string): Promise<void> {
  await page.locator('[data-target="#general"]').first().click();
  await sendFromComposer(page, '@demo /approve');
  await statusArea(page).locator('.chip-approval').getByRole('button', { name: allow }).click();
  await expect(statusArea(page).locator('[data-wake]:not(.chip-approval)')).toHaveAttribute(
    'data-status',
    'reply_sent',
  );
  expect(existsSync(demoFile())).toBe(true);
  // The person's checkout is untouched: its status is clean, whatever main holds.
  expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('');
  await page.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
  await expect(detailOf(page).getByRole('heading', { name: 'Demo', level: 1 })).toBeVisible();
  await expect(sinceBaseOf(page).locator('.review-files button')).toHaveCount(1);
}

test('discard asks first and names what is lost; a conflicting merge leaves the base as it was; then merge fast-forwards', async ({
  app,
}, info) => {
  test.setTimeout(120_000);
  await demoWritesItsFile(app, 'Allow once');
  const actions = actionsOf(app);
  await expect(detailOf(app).locator('[data-field="worktree-branch"]')).toHaveText('agentteam/demo');
  await expect(detailOf(app).locator('[data-field="worktree-base"]')).toHaveText('main');
  await expect(sinceBaseOf(app).getByRole('heading', { name: 'Changes since main' })).toBeVisible();
  await expect(sinceBaseOf(app).locator('.review-files button')).toHaveText(['agentteam-demo.txtadded+2 −0']);
  await expect(actions).toContainText('1 uncommitted file(s) will be committed first.');
  for (const scheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousAxeViolations(app, `agent detail with a worktree, ${scheme}`);
  }
  await app.emulateMedia({ colorScheme: 'light' });
  await screenshot(app, info, 'worktree-detail-en');

  // Discard: the confirmation names the uncommitted file; Escape keeps the work and returns focus.
  const discard = actions.getByRole('button', { name: 'Discard' });
  await discard.click();
  const confirm = actions.getByRole('alertdialog', { name: 'Discard the work of Demo?' });
  await expect(confirm.locator('[data-lost="uncommitted"] li')).toHaveText(['agentteam-demo.txt (added)']);
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await expectNoSeriousAxeViolations(app, 'discard confirmation');
  await screenshot(app, info, 'worktree-discard-confirm-en');
  await app.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(discard).toBeFocused();
  expect(existsSync(demoFile())).toBe(true);
  await discard.click();
  await confirm.getByRole('button', { name: 'Discard this work' }).click();
  await expect(actions.locator('[data-discarded]')).toContainText('Discarded: the worktree is back at main');
  expect(existsSync(demoFile())).toBe(false);
  await expect(sinceBaseOf(app).locator('.review-files button')).toHaveCount(0);

  // The person commits their own agentteam-demo.txt on main; the agent writes its own again.
  writeFileSync(join(repo.path, 'agentteam-demo.txt'), 'the person wrote this\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'person');
  const personHead = repo.git('rev-parse', 'main');
  await demoWritesItsFile(app, 'Allow once');
  await actions.getByLabel('Commit message for the uncommitted changes (optional)').fill('Demo file');
  await actions.getByRole('button', { name: 'Merge into main' }).click();
  const conflict = actions.locator('[data-merge="conflict"]');
  await expect(conflict).toBeVisible();
  await expect(conflict.getByRole('listitem')).toHaveText(['agentteam-demo.txt']);
  await expect(conflict).toContainText('the merge was aborted and main is unchanged');
  expect(repo.git('rev-parse', 'main')).toBe(personHead);
  expect(repo.git('status', '--porcelain=v1')).toBe('');
  expect(readFileSync(join(repo.path, 'agentteam-demo.txt'), 'utf8')).toBe('the person wrote this\n');
  await expectNoSeriousAxeViolations(app, 'merge conflict');
  await screenshot(app, info, 'worktree-conflict-en');

  // The person drops their commit. The agent's work is still uncommitted (issue 40 item 9: a refused
  // merge leaves the worktree as it was): this merge commits it and fast-forwards main.
  repo.git('reset', '-q', '--hard', 'HEAD~1');
  await actions.getByLabel('Commit message for the uncommitted changes (optional)').fill('Demo file');
  await actions.getByRole('button', { name: 'Merge into main' }).click();
  await expect(actions.locator('[data-merge="fast-forward"]')).toContainText('main fast-forwarded to');
  expect(readFileSync(join(repo.path, 'agentteam-demo.txt'), 'utf8')).toContain('Hello from the AgentTeam demo agent.');
  expect(repo.git('log', '-1', '--format=%s', 'main')).toBe('Demo file\n');
  expect(repo.git('status', '--porcelain=v1')).toBe('');
  await expect(sinceBaseOf(app).locator('.review-files button')).toHaveCount(0);
});

/** issue 40 item 10: the demo's `/edit` (or `/edit conflict`), allowed from the chip; its reply, then its detail. */
async function demoEdits(page: Page, command: string, n: number): Promise<void> {
  await page.locator('[data-target="#general"]').first().click();
  await sendFromComposer(page, `@demo ${command}`);
  await statusArea(page).locator('.chip-approval').getByRole('button', { name: 'Allow once', exact: true }).click();
  await expect(page.getByText(`Wrote edit ${n} in agentteam-demo.txt`)).toBeVisible();
  await page.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
  await expect(sinceBaseOf(page).locator('.review-files button')).toHaveCount(1);
}

test('/edit and /edit conflict: merge, a refused merge and discard can be tried again and again', async ({ app }) => {
  test.setTimeout(180_000);
  const actions = actionsOf(app);
  for (const n of [1, 3]) {
    await demoEdits(app, '/edit', n);
    await actions.getByRole('button', { name: 'Merge into main' }).click();
    await expect(actions.locator('[data-merge="fast-forward"]')).toContainText('main fast-forwarded to');
    expect(readFileSync(join(repo.path, 'agentteam-demo.txt'), 'utf8')).toContain(
      `Edit ${n} by the AgentTeam demo agent.`,
    );
    const head = repo.git('rev-parse', 'main');

    await demoEdits(app, '/edit conflict', n + 1);
    await actions.getByRole('button', { name: 'Merge into main' }).click();
    const conflict = actions.locator('[data-merge="conflict"]');
    await expect(conflict.getByRole('listitem')).toHaveText(['agentteam-demo.txt']);
    expect(repo.git('rev-parse', 'main')).toBe(head);
    expect(repo.git('status', '--porcelain=v1')).toBe('');

    await actions.getByRole('button', { name: 'Discard' }).click();
    await actions.getByRole('button', { name: 'Discard this work' }).click();
    await expect(actions.locator('[data-discarded]')).toContainText('Discarded: the worktree is back at main');
    await expect(sinceBaseOf(app).locator('.review-files button')).toHaveCount(0);
  }
});

test('zh-CN and 390 px: the worktree actions and the confirmation in Simplified Chinese', async ({
  app,
  serve,
}, info) => {
  test.setTimeout(120_000);
  await useLanguage(app, serve, 'zh-CN');
  await demoWritesItsFile(app, '允许一次');
  const actions = actionsOf(app);
  await expect(actions.getByRole('button', { name: '合并到 main' })).toBeVisible();
  await expect(sinceBaseOf(app).getByRole('heading', { name: '自 main 以来的改动' })).toBeVisible();
  await actions.getByRole('button', { name: '丢弃' }).click();
  const confirm = actions.getByRole('alertdialog', { name: '丢弃 Demo 的工作？' });
  await expect(confirm.getByRole('heading', { name: '未提交的文件' })).toBeVisible();
  await expect(confirm.getByRole('button', { name: '保留' })).toBeFocused();
  await expectNoSeriousAxeViolations(app, 'worktree actions, zh-CN');
  await screenshot(app, info, 'worktree-discard-confirm-zh-CN');
  await app.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(app, 'agent detail with a worktree, 390 px');
  await confirm.scrollIntoViewIfNeeded();
  await screenshot(app, info, 'worktree-discard-confirm-390-zh-CN');
});
