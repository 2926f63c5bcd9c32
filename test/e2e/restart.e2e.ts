/**
 * issue 40 item 1 in the browser (real Chromium, the real `agentteam serve` restarted under an open
 * page on the same port, as `npm start` again does): a restart never leaves a page that silently
 * cannot act.
 * - The tab regains the operator's authority by itself (the hand-over, main/serve/operator-handover.ts):
 *   a message sent from it wakes the demo, Stop ends the turn, Allow answers an approval.
 * - Where the hand-over cannot happen (the new start holds no secret of this tab), the page says
 *   in one line what to do, a refused Stop and a refused Allow show that line at the button, and
 *   the URL `agentteam url` prints, pasted into the tab (only the fragment changes: no reload),
 *   makes it the operator's again. English and 简体中文, 1280 and 390 px.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';
import { expectNoHorizontalOverflow } from './chat-helpers.js';
import { ROOT, demoConfig, expect, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

const BIN = join(ROOT, 'bin', 'agentteam.mjs');

/** One `agentteam serve` on `dataDir` (port 0: any free one), its URL with this start's operator key. */
class Served {
  private child: ChildProcessWithoutNullStreams | null = null;
  private err = '';
  port = 0;
  url = '';

  constructor(
    readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', this.dataDir, '--port', String(this.port)], {
      cwd: ROOT,
      env: this.env,
    });
    this.child = child;
    child.stderr.on('data', (d: Buffer) => (this.err += d.toString()));
    const bare = await new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`serve exited (${code}):\n${this.err}`));
      child.once('exit', onExit);
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=[\w%-]+)$/.exec(line);
        if (m?.[1] === undefined) return;
        child.off('exit', onExit);
        this.port = Number(m[2]);
        resolve(m[1]);
      });
    });
    const key = (await readFile(join(this.dataDir, 'operator-key'), 'utf8')).trim();
    this.url = `${bare}#operator=${encodeURIComponent(key)}`;
  }

  /** SIGTERM and a clean exit, as Ctrl-C before `npm start` again. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    this.child = null;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited, `serve exits cleanly; stderr:\n${this.err}`).toBe(0);
  }

  cli(...args: string[]): Promise<{ code: number; stdout: string }> {
    return new Promise((resolve) => {
      const c = spawn(process.execPath, [BIN, ...args, '--data-dir', this.dataDir], { cwd: ROOT, env: this.env });
      let stdout = '';
      c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      c.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    });
  }

  stderr(): string {
    return this.err;
  }
}

let served: Served;

test.beforeEach(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'agentteam-restart-'));
  await writeFile(
    join(dataDir, 'agentteam.json'),
    JSON.stringify(demoConfig({ demoTaskMs: 600_000, thresholdSeconds: 30 })),
  );
  const home = join(dataDir, 'home');
  served = new Served(dataDir, { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
});
test.afterEach(async () => {
  await served.stop();
  await rm(served.dataDir, { recursive: true, force: true });
});

/** Restarts serve on the same port under the open page; resolves once the page is connected again. */
async function restart(page: Page, between?: () => Promise<void>): Promise<void> {
  await served.stop();
  await expect(page.locator('.banner').first()).toBeVisible();
  await between?.();
  await served.start();
  await expect(
    page.getByText(/Connection to the daemon lost|与守护进程的连接已断开|Connecting to the daemon/),
  ).toHaveCount(0, {
    timeout: 15_000,
  });
}

const approvalChip = (page: Page) => statusArea(page).locator('.chip-approval');
const wakeChip = (page: Page) => statusArea(page).locator('[data-wake]:not(.chip-approval)');

test('after a restart the open tab is the operator again by itself: send, Stop and Allow work', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await served.start();
  const firstUrl = served.url;
  await page.goto(firstUrl);
  await expect(statusArea(page)).toBeAttached();
  await expect(page.locator('[data-banner="not-operator"]')).toHaveCount(0);

  await restart(page);
  expect(served.url).not.toBe(firstUrl); // a new operator key: the tab's own is stale
  await expect(page.locator('[data-banner="not-operator"]')).toHaveCount(0);

  // A message from the tab is the operator's: it wakes the demo; Stop ends that turn.
  await sendFromComposer(page, '@demo /slow');
  const chip = wakeChip(page);
  await expect(chip).toHaveAttribute('data-status', 'delivered');
  await chip.getByRole('button', { name: 'Stop the turn of Demo' }).click();
  await expect(chip).toHaveAttribute('data-status', 'failed');
  await expect(chip.locator('.chip-text')).toHaveText('Stopped');

  // An approval asked after the restart is answered from the tab.
  await sendFromComposer(page, '@demo /approve');
  await expect(approvalChip(page)).toHaveCount(1);
  await approvalChip(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(approvalChip(page)).toHaveCount(0);
  await expect(statusArea(page).locator('[data-status="reply_sent"]')).toHaveCount(1);
  const approvals = JSON.parse((await served.cli('approvals', '--json')).stdout) as Array<{ status: string }>;
  expect(approvals.map((a) => a.status)).toEqual(['allowed']);

  // And again: the secret the tab registered with this start carries it through the next restart.
  const before = await wakeChip(page).getAttribute('data-wake');
  await restart(page);
  await sendFromComposer(page, '@demo hello after the second restart');
  await expect(statusArea(page).locator(`[data-status="reply_sent"]:not([data-wake="${before}"])`)).toHaveCount(1);
  expect(served.stderr()).toContain('operator authority handed over');
  expect(errors).toEqual([]);
});

for (const language of ['en', 'zh-CN'] as const) {
  const zh = language === 'zh-CN';
  const words = zh
    ? {
        line: '此标签页没有当前 AgentTeam 的操作者密钥（它已重启）：请打开 "agentteam url" 打印的网址，或将其粘贴到此标签页。',
        stop: '停止 Demo 的这一轮',
        stopFailed: '无法停止：',
        allow: '允许一次',
        refused: '未能回答：',
        notSent: '未发送：',
      }
    : {
        line: 'This tab has no operator key of the running AgentTeam (it restarted): open the URL "agentteam url" prints, or paste it into this tab.',
        stop: 'Stop the turn of Demo',
        stopFailed: 'Could not stop: ',
        allow: 'Allow once',
        refused: 'Not answered: ',
        notSent: 'Not sent: ',
      };

  test(`${language}: no hand-over possible → one line says what to do, refusals show at the button, a pasted URL restores it`, async ({
    page,
  }, info) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (zh) await writeFile(join(served.dataDir, 'settings.json'), JSON.stringify({ language }));
    await served.start();
    await page.goto(served.url);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    // The new start knows no secret of this tab (as after two restarts while the tab slept).
    await restart(page, () => rm(join(served.dataDir, 'operator-handover'), { force: true }));

    const banner = page.locator('[data-banner="not-operator"]');
    await expect(banner).toHaveText(words.line);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(page, `not-operator banner ${width}`);
      await screenshot(page, info, `restart-not-operator-${language}-${width}`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, info, `restart-not-operator-${language}-${width}-dark`);
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The pushed events are the operator's alone (an agent can read the serve token this tab still
    // holds): an approval the operator's CLI brings about is not shown in this tab …
    expect((await served.cli('send', '--target', '#general', '--text', '@demo /approve')).code).toBe(0);
    const statuses = async () =>
      (JSON.parse((await served.cli('approvals', '--json')).stdout) as Array<{ status: string }>).map((a) => a.status);
    await expect.poll(statuses, { timeout: 30_000 }).toEqual(['pending']);
    const approval = approvalChip(page);
    await expect(approval).toHaveCount(0);
    // … and what the tab asks is refused where it was asked, in one line: a send, at the composer.
    const box = page.getByRole('textbox', { name: /^Message |^发送到 / });
    await box.fill('@demo are you there?');
    await box.press('Escape');
    await box.press('Enter');
    await expect(page.locator('.composer-error')).toHaveText(`${words.notSent}${words.line}`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(page, `refused send ${width}`);
      await screenshot(page, info, `restart-send-refused-${language}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await statuses()).toEqual(['pending']);

    // … until the URL `agentteam url` prints is pasted into this tab: only the fragment changes (no reload).
    const printed = (await served.cli('url')).stdout.trim();
    expect(printed).toBe(served.url);
    await page.evaluate((hash) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
    }, new URL(printed).hash);
    await expect(banner).toHaveCount(0);
    // The operator's tab again: the pending approval is listed, and Allow answers it.
    await expect(approval).toHaveCount(1);
    await approval.getByRole('button', { name: words.allow }).click();
    await expect(approval).toHaveCount(0);
    const answered = JSON.parse((await served.cli('approvals', '--json')).stdout) as Array<{ status: string }>;
    expect(answered.map((a) => a.status)).toEqual(['allowed']);
    // The key left the address bar again.
    expect(page.url()).not.toContain('operator=');
    expect(errors).toEqual([]);
  });
}
