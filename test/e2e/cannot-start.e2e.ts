/**
 * issue 40 items 3 and 5 in the browser: an agent whose workspace does not exist reads "Can't
 * start" (never a crash), a mention of it fails with that cause, and the failed chip offers the
 * Retry its fix promises — which, once the folder exists, really starts the agent.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

const missing = join(tmpdir(), `agentteam-e2e-ghost-project-${process.pid}-${Date.now()}`);

test.use({
  config: {
    agents: [
      { id: 'demo', name: 'Demo', runtime: 'demo' },
      { id: 'ghost', name: 'Ghost', runtime: 'demo', cwd: missing },
    ],
  },
});
// Each test starts with the workspace missing: the first one makes it (its Retry), the next must not find it.
test.beforeEach(async () => {
  await rm(missing, { recursive: true, force: true });
});
test.afterAll(async () => {
  await rm(missing, { recursive: true, force: true });
});

test("a missing workspace reads Can't start; the failed chip's Retry starts the agent once it exists", async ({
  app,
  serve,
}, info) => {
  const row = app.locator('li[data-agent="ghost"]');
  await expect(row).toHaveAttribute('data-readiness', 'cannot_start');
  await expect(row.locator('.agent-state-text')).toHaveText("Can't start");

  await sendFromComposer(app, '@ghost are you there?');
  const chip = statusArea(app).locator('[data-wake]');
  await expect(chip).toHaveAttribute('data-status', 'failed');
  await chip.getByRole('button', { name: 'Details' }).click();
  await expect(chip.locator('.failure-words')).toHaveText(
    "This agent can't start: its workspace folder does not exist. Create this agent's workspace folder, or choose another folder under Workspace on the agent's page, then Retry.",
  );
  const retry = chip.getByRole('button', { name: 'Retry Ghost' });
  await expect(retry).toBeVisible();
  for (const width of [1280, 390]) {
    await app.setViewportSize({ width, height: 800 });
    await screenshot(app, info, `cannot-start-chip-retry-en-${width}`);
  }
  const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ agentId: string }>;
  expect(rows).toEqual([expect.objectContaining({ agentId: 'ghost', status: 'failed', reason: 'workspace_missing' })]);

  await mkdir(missing, { recursive: true });
  await retry.click();
  await expect(chip.locator('.chip-retry-result')).toHaveText('Ghost is ready now. Send the message again.');
  await expect(row).toHaveAttribute('data-readiness', 'ready');
  for (const width of [1280, 390]) {
    await app.setViewportSize({ width, height: 800 });
    await screenshot(app, info, `cannot-start-retried-en-${width}`);
  }
});

test('in 简体中文: the cause and its fix on the chip and in the Team view, with 重试', async ({ app }, info) => {
  await app.getByRole('button', { name: /^Settings$|^设置$/ }).click();
  await app.getByLabel('Language').selectOption('zh-CN');
  await app.getByRole('button', { name: 'Save' }).click();
  await expect(app.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
  await app.getByRole('navigation').getByRole('button', { name: '#general' }).first().click();
  await expect(app.locator('li[data-agent="ghost"] .agent-state-text')).toHaveText('无法启动');
  await sendFromComposer(app, '@ghost 在吗？');
  const chip = statusArea(app).locator('[data-wake]');
  await expect(chip).toHaveAttribute('data-status', 'failed');
  await chip.getByRole('button', { name: '详情' }).click();
  await expect(chip.locator('.failure-words')).toContainText('此智能体无法启动：它的工作区文件夹不存在。');
  await expect(chip.getByRole('button', { name: '重试 Ghost' })).toBeVisible();
  for (const width of [1280, 390]) {
    await app.setViewportSize({ width, height: 800 });
    await screenshot(app, info, `cannot-start-chip-retry-zh-${width}`);
  }
  await app.setViewportSize({ width: 1280, height: 800 });
  await app.getByRole('navigation').getByRole('button', { name: /^团队/ }).click();
  const team = app.locator('li[data-team-agent="ghost"]');
  await expect(team).toContainText('此智能体无法启动');
  await screenshot(app, info, 'cannot-start-team-zh-1280');
  await app.setViewportSize({ width: 390, height: 800 });
  await screenshot(app, info, 'cannot-start-team-zh-390');
});
