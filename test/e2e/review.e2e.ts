/**
 * issue 26: the review pane in a real browser, with the demo agent working in a real git
 * repository: `/approve` writes `agentteam-demo.txt`, the wake's inspector lists it with its hunk
 * and line numbers; a comment on a line, by keyboard only, goes to the agent in the wake's thread
 * (it wakes it: the demo answers there); side by side and unified; 简体中文; axe light and dark.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { apiCall, useLanguage } from './chat-helpers.js';
import {
  expect,
  expectNoSeriousAxeViolations,
  screenshot,
  sendFromComposer,
  statusArea,
  test,
  type ServeHandle,
} from './fixtures.js';

const repo = realpathSync(mkdtempSync(join(tmpdir(), 'agentteam-review-e2e-')));
execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });

const approvalChip = (page: Page) => statusArea(page).locator('.chip-approval');
const wakeChip = (page: Page) => statusArea(page).locator('[data-wake]:not(.chip-approval)');

test.use({
  config: {
    agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', cwd: repo }],
    channels: { local: { silenceWatchdog: { thresholdSeconds: 30 } } },
  },
});

async function approveAndOpen(app: Page, serve: ServeHandle, allow: string): Promise<void> {
  // Each test's wake writes the file anew (the same text twice would be no change).
  rmSync(join(repo, 'agentteam-demo.txt'), { force: true });
  await sendFromComposer(app, '@demo /approve');
  await expect(approvalChip(app)).toHaveCount(1);
  // The demo asks at once, as it is delivered: the wake's start snapshot (taken just after its
  // delivery) is awaited before the write is allowed, so the write falls in the wake's changes.
  // Known gap, noted for the next person: the daemon itself should take that snapshot before the
  // runtime gets the wake (an agent that edits at once could fold its first edit into its start).
  const [pending] = await apiCall<Array<{ wakeTokens: string[] }>>(app, serve, 'approvals.list', { status: 'pending' });
  const wakeToken = pending?.wakeTokens[0] ?? '';
  await expect
    .poll(async () => (await apiCall<{ state: string }>(app, serve, 'wakes.changes', { wakeToken })).state)
    .not.toBe('none');
  await approvalChip(app).getByRole('button', { name: allow }).click();
  await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
  await wakeChip(app).first().locator('.chip-main').click();
}

test('the wake lists its file and hunk; a comment by keyboard goes to the agent in the thread', async ({
  app,
  serve,
}, info) => {
  await approveAndOpen(app, serve, 'Allow once');
  const pane = app.locator('aside.inspector .review-pane');
  await expect(pane.getByRole('heading', { name: 'Changes' })).toBeVisible();
  await expect(pane.locator('.review-files button')).toHaveText(['agentteam-demo.txtadded+2 −0']);
  await expect(pane.locator('.review-diff')).toContainText('Hello from the AgentTeam demo agent.');
  // The approval of the file change links to the same view.
  await expect(app.locator('aside.inspector .wake-approval-review')).toHaveAttribute(
    'href',
    `#${(await pane.getByRole('heading', { name: 'Changes' }).getAttribute('id')) ?? ''}`,
  );
  for (const scheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousAxeViolations(app, `review pane, ${scheme}`);
  }
  await app.emulateMedia({ colorScheme: 'light' });
  await screenshot(app, info, 'review-pane-en');

  // Keyboard only: the line number is a button; Enter opens the comment, Ctrl+Enter sends it.
  const line = pane.getByRole('button', { name: 'Comment on agentteam-demo.txt:1' });
  await line.focus();
  await app.keyboard.press('Enter');
  const box = pane.getByRole('textbox', { name: 'Your comment to the agent' });
  await expect(box).toBeFocused();
  await app.keyboard.type('Say it in French.');
  await app.keyboard.press('Control+Enter');
  await expect(pane.getByRole('status')).toHaveText("Sent to the agent in this wake's thread.");

  // Side by side keeps both line numbers.
  await pane.getByRole('radio', { name: 'Side by side' }).click();
  await expect(pane.locator('.review-diff')).toHaveClass(/diff-split/);
  await app.setViewportSize({ width: 390, height: 800 });
  await screenshot(app, info, 'review-pane-390-en');
});

test('zh-CN: the pane in Simplified Chinese', async ({ app, serve }, info) => {
  await useLanguage(app, serve, 'zh-CN');
  await approveAndOpen(app, serve, '允许一次');
  const pane = app.locator('aside.inspector .review-pane');
  await expect(pane.getByRole('heading', { name: '改动' })).toBeVisible();
  await expect(pane.getByRole('radio', { name: '并排视图' })).toBeVisible();
  await expect(pane.getByRole('button', { name: '评论 agentteam-demo.txt:1' })).toBeVisible();
  await expectNoSeriousAxeViolations(app, 'review pane, zh-CN');
  await screenshot(app, info, 'review-pane-zh-CN');
});
