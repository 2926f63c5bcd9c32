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
