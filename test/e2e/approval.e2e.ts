/**
 * The approval flow in a real browser (issue 14), with no LLM: `@demo /approve` asks, through the
 * same approval path as the CLI runtimes, to write `agentteam-demo.txt` into its workspace.
 * - the chip "✋ Waiting for your approval: {summary} · Allow · Deny" appears in the status area,
 *   never a "Working" chip for that wake; Allow is reached and pressed with the keyboard only →
 *   the file is on disk, the reply arrives, the wake ends `reply_sent`;
 * - Deny (keyboard) in 简体中文 → no file, the demo says so, `reply_sent`;
 * - the inspector shows the full change as text (a workspace path with markup in its name stays
 *   text, never HTML);
 * - the CLI: `agentteam approvals --json` lists it, `agentteam approve ID` allows it;
 * - axe finds nothing serious on the chip and on the inspector, light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { access, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { useLanguage } from './chat-helpers.js';
import {
  demoConfig,
  expect,
  expectNoSeriousAxeViolations,
  screenshot,
  sendFromComposer,
  statusArea,
  test,
} from './fixtures.js';

const FILE = 'agentteam-demo.txt';
const approvalChip = (page: Page) => statusArea(page).locator('.chip-approval');
const wakeChip = (page: Page) => statusArea(page).locator('[data-wake]:not(.chip-approval)');

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails when it is not reached in `max` presses. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab', max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el: unknown) => (el as { matches(s: string): boolean }).matches(':focus'))) return;
    await page.keyboard.press(key);
  }
  await expect(target, `reached with ${key} in at most ${max} presses`).toBeFocused();
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

test.describe('approval chip with the demo (default workspace)', () => {
  // A 1 s silence threshold: a wait on the operator that raised beacons would show within the test.
  test.use({ config: demoConfig({ thresholdSeconds: 1 }) });

  test('Allow by keyboard: the chip waits for the operator (no "Working"), then the file, the reply, reply_sent', async ({
    app,
    serve,
  }, info) => {
    const file = join(serve.dataDir, 'workspaces', 'demo', FILE);
    await sendFromComposer(app, '@demo /approve');
    const chip = approvalChip(app);
    await expect(chip).toHaveCount(1);
    await expect(chip).toHaveAttribute('data-status', 'waiting_approval');
    await expect(chip.locator('.chip-icon')).toHaveText('✋');
    await expect(chip.locator('.chip-text')).toHaveText(`Waiting for your approval: ${file} (+2 −0)`);
    // The wake's own chip gives way: the turn waits for the operator, never "Working…".
    await expect(wakeChip(app)).toHaveCount(0);
    await expect(statusArea(app)).not.toContainText('Working');
    // Three silence thresholds later the wake still has no beacon (the clock is paused while it waits).
    await app.waitForTimeout(3000);
    const waiting = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{
      status: string;
      beacons: number;
    }>;
    expect(waiting).toEqual([expect.objectContaining({ status: 'delivered', beacons: 0 })]);
    await expect(statusArea(app)).not.toContainText('Working');
    expect(await exists(file)).toBe(false);
    await screenshot(app, info, 'approval-chip-en');
    await expectNoSeriousAxeViolations(app, 'approval chip, light');

    // Keyboard only: from the composer (where the send left the focus) back to Allow, then Enter.
    const allow = chip.getByRole('button', { name: 'Allow once' });
    await tabTo(app, allow, 'Shift+Tab');
    await app.keyboard.press('Enter');
    await expect(chip).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
    await expect(wakeChip(app)).toContainText('Replied');
    await expect(app.locator('article.message-agent')).toContainText(
      `[demo] Wrote ${FILE} in ${join(serve.dataDir, 'workspaces', 'demo')} after you allowed it.`,
    );
    expect(await readFile(file, 'utf8')).toContain('Hello from the AgentTeam demo agent.');

    // The inspector of the ended wake keeps the request: allowed once, with the full change.
    await wakeChip(app).locator('.chip-main').click();
    const section = app.locator('aside.inspector .wake-approvals');
    await expect(section.getByRole('heading', { name: 'Approval requests (1)' })).toBeVisible();
    await expect(section.locator('li')).toHaveAttribute('data-approval-status', 'allowed');
    await expect(section.locator('.wake-approval-status')).toHaveText('Allowed · once');
    await expect(section.locator('.wake-approval-detail .diff-add')).toHaveText([
      '+Hello from the AgentTeam demo agent.\n',
      '+You allowed this write: an agent changes your files only with your approval.\n',
    ]);
    await expect(section.getByRole('button')).toHaveCount(0);
    await screenshot(app, info, 'approval-inspector-allowed-en');
  });

  test('the chip opens the inspector with the full change; Deny there; the CLI lists and answers a second one', async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo /approve');
    const chip = approvalChip(app);
    await expect(chip).toHaveCount(1);
    // Like every chip, its main button opens the inspector (keyboard: Enter on it).
    const main = chip.locator('.chip-main');
    await tabTo(app, main, 'Shift+Tab');
    await app.keyboard.press('Enter');
    const inspector = app.locator('aside.inspector');
    await expect(inspector).toBeVisible();
    await expect(inspector.locator('.inspector-summary .chip')).toHaveAttribute('data-status', 'waiting_approval');
    await expect(inspector.locator('.inspector-summary .chip-text')).toHaveText('Waiting for your approval');
    await expect(inspector).not.toContainText('Working');
    const item = inspector.locator('.wake-approvals li');
    await expect(item).toHaveAttribute('data-approval-status', 'pending');
    await expect(item.locator('pre')).toContainText('+Hello from the AgentTeam demo agent.');
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxeViolations(app, `inspector with a pending approval, ${scheme}`);
    }
    await app.emulateMedia({ colorScheme: 'light' });
    await screenshot(app, info, 'approval-inspector-pending-en');
    // Deny from the inspector, by keyboard.
    await tabTo(app, item.getByRole('button', { name: 'Deny' }), 'Tab');
    await app.keyboard.press('Space');
    await expect(item).toHaveAttribute('data-approval-status', 'denied');
    await expect(inspector.locator('.wake-approval-reason')).toHaveText('Reason: The operator denied this request.');
    await expect(app.locator('article.message-agent')).toContainText('Nothing was written');
    await app.keyboard.press('Escape');
    await expect(inspector).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');

    // The CLI path: list it, approve it by id; the chip goes, the file is written.
    await sendFromComposer(app, '@demo /approve');
    await expect(chip).toHaveCount(1);
    const listed = JSON.parse((await serve.cli('approvals', '--json')).stdout) as Array<{
      id: string;
      agentId: string;
      runtime: string;
      wakeTokens: string[];
      tool: string;
      summary: string;
      status: string;
    }>;
    const pending = listed.filter((a) => a.status === 'pending');
    expect(pending).toEqual([
      expect.objectContaining({
        agentId: 'demo',
        runtime: 'demo',
        tool: 'Write',
        summary: expect.stringContaining(FILE),
      }),
    ]);
    expect(await chip.getAttribute('data-approval')).toBe(pending[0]?.id);
    const approved = await serve.cli('approve', pending[0]?.id ?? '');
    expect(approved.code, approved.stderr).toBe(0);
    await expect(chip).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
    expect(await exists(join(serve.dataDir, 'workspaces', 'demo', FILE))).toBe(true);
  });

  test('issue 40: "For this session" allows the next identical request without asking; the inspector records the scope', async ({
    app,
    serve,
  }, info) => {
    const file = join(serve.dataDir, 'workspaces', 'demo', FILE);
    await sendFromComposer(app, '@demo /approve');
    const chip = approvalChip(app);
    await expect(chip).toHaveCount(1);
    // The exact rule the answer adds, shown at the chip and in the button's accessible name.
    await expect(chip.locator('.approval-rule')).toHaveText(`For this session or always, exactly: Write(${file})`);
    await screenshot(app, info, 'approval-chip-scopes-en');
    await app.setViewportSize({ width: 390, height: 844 });
    // At 390 px the four answers fit: none spills out of the chip.
    const box = await chip.boundingBox();
    for (const b of await chip.getByRole('button').all()) {
      const bb = await b.boundingBox();
      expect(bb !== null && box !== null && bb.x >= box.x - 0.5 && bb.x + bb.width <= box.x + box.width + 0.5).toBe(
        true,
      );
    }
    await screenshot(app, info, 'approval-chip-scopes-en-390');
    await app.setViewportSize({ width: 1280, height: 720 });
    await chip.getByRole('button', { name: `Allow for this session: Write(${file})` }).click();
    await expect(chip).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
    expect(await exists(file)).toBe(true);
    // The same request again: answered by the session rule, never shown to the operator.
    await rm(file);
    await sendFromComposer(app, '@demo /approve');
    await expect(app.locator('article.message-agent')).toHaveCount(2);
    await expect(app.locator('article.message-agent').last()).toContainText('after you allowed it');
    await expect(chip).toHaveCount(0);
    expect(await exists(file)).toBe(true);
    await wakeChip(app).last().locator('.chip-main').click();
    const section = app.locator('aside.inspector .wake-approvals');
    await expect(section.locator('.wake-approval-status')).toHaveText('Allowed · for this session');
    // Only for this session: the agent page lists no standing rule.
    await app.keyboard.press('Escape');
    await app.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
    const detail = app.locator('section.agent-detail[data-agent="demo"]');
    await expect(detail.locator('.agent-rules')).toContainText('No "always" rules.');
  });

  test('issue 40: "Always" grants exactly the rule shown; the agent page lists it', async ({ app, serve }, info) => {
    const file = join(serve.dataDir, 'workspaces', 'demo', FILE);
    await sendFromComposer(app, '@demo /approve');
    const chip = approvalChip(app);
    await expect(chip).toHaveCount(1);
    const always = chip.getByRole('button', { name: `Always allow: Write(${file})` });
    await tabTo(app, always, 'Shift+Tab');
    await app.keyboard.press('Enter');
    await expect(chip).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
    await wakeChip(app).locator('.chip-main').click();
    await expect(app.locator('aside.inspector .wake-approval-status')).toHaveText('Allowed · always — rule saved');
    await app.keyboard.press('Escape');
    // The agent page lists exactly that rule, with its Revoke.
    await app.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
    const detail = app.locator('section.agent-detail[data-agent="demo"]');
    await expect(detail.locator('ul[data-field="allow"] li code')).toHaveText([`Write(${file})`]);
    await expect(detail.getByRole('button', { name: `Revoke Write(${file})` })).toBeVisible();
    await screenshot(app, info, 'approval-always-agent-rules-en');
  });
});

// A workspace whose name is markup: shown as text everywhere, never rendered as HTML.
const markupWorkspace = mkdtempSync(join(tmpdir(), '<i>ws&amp;-'));
test.afterAll(() => rmSync(markupWorkspace, { recursive: true, force: true }));

test.describe('approval chip in 简体中文, configured workspace', () => {
  test.use({
    config: {
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', cwd: markupWorkspace }],
      channels: { local: {} },
    },
  });

  test('等待你的批准 · 允许 · 拒绝; Deny by keyboard: no file, the demo says so, reply_sent; markup stays text', async ({
    app,
    serve,
  }, info) => {
    await useLanguage(app, serve, 'zh-CN');
    const file = join(markupWorkspace, FILE);
    await sendFromComposer(app, '@demo /approve');
    const chip = approvalChip(app);
    await expect(chip.locator('.chip-text')).toHaveText(`等待你的批准：${file} (+2 −0)`);
    await expect(chip.getByRole('button', { name: '允许一次' })).toBeVisible();
    // issue 40 item 4: "this session" and "always" name the exact rule they add.
    await expect(chip.getByRole('button', { name: `本次会话内允许：Write(${file})` })).toBeVisible();
    await expect(chip.getByRole('button', { name: `始终允许：Write(${file})` })).toBeVisible();
    await expect(chip.locator('.approval-rule')).toHaveText(`本次会话内或始终允许的规则： Write(${file})`);
    await expect(chip.getByRole('button', { name: '拒绝' })).toBeVisible();
    await expect(statusArea(app)).not.toContainText('处理中');
    // Markup in the path is text: no <i> element anywhere in the chip.
    await expect(chip.locator('i')).toHaveCount(0);
    await expectNoSeriousAxeViolations(app, 'approval chip zh-CN');
    await screenshot(app, info, 'approval-chip-zh');
    await app.setViewportSize({ width: 390, height: 844 });
    await screenshot(app, info, 'approval-chip-zh-390');
    await app.setViewportSize({ width: 1280, height: 720 });

    await chip.locator('.chip-main').click();
    const inspector = app.locator('aside.inspector');
    await expect(inspector.getByRole('heading', { name: '批准请求（1）' })).toBeVisible();
    await expect(inspector.locator('.wake-approval-status')).toHaveText('等待你的批准');
    await expect(inspector.locator('.wake-approval-detail')).toContainText(`${file}\n+Hello`);
    await expect(inspector.locator('.wake-approvals i')).toHaveCount(0);
    await screenshot(app, info, 'approval-inspector-zh');
    await app.keyboard.press('Escape');
    await expect(inspector).toHaveCount(0);

    const deny = chip.getByRole('button', { name: '拒绝' });
    await tabTo(app, deny, 'Tab');
    await app.keyboard.press('Enter');
    await expect(chip).toHaveCount(0);
    await expect(wakeChip(app)).toHaveAttribute('data-status', 'reply_sent');
    await expect(wakeChip(app)).toContainText('已回复');
    await expect(app.locator('article.message-agent')).toContainText(
      `Nothing was written: the request to write ${FILE} was denied`,
    );
    expect(await exists(file)).toBe(false);
  });
});
