/**
 * issue 27 "pause, don't fail" in a real browser against the real `agentteam serve` with the demo
 * runtime: `/limit` is refused as a provider's usage limit ("retry after 600 seconds"), so the wake
 * pauses and the one status area shows "⏸ Paused until HH:MM · usage limit · Try now · Cancel";
 * Try now delivers it again at once and it ends `reply_sent` once; Cancel ends it
 * `failed/stopped_by_operator`. Screens at 1280 and 390 px, English and 简体中文, axe.
 */
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { expect, expectNoSeriousAxeViolations, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

test.use({
  config: {
    agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_LIMIT_SECONDS: '600' } }],
  },
});

const WIDTHS = [1280, 390] as const;

for (const language of ['en', 'zh-CN'] as const) {
  const words =
    language === 'en'
      ? {
          paused: /^Paused until \d\d:\d\d · usage limit$/,
          sidebar: /^Paused until \d\d:\d\d$/,
          left: /^(9|10)m( \d+s)? left$/,
          tryNow: 'Try now',
          cancel: 'Cancel',
          replied: 'Replied',
          ready: 'Ready',
        }
      : {
          paused: /^已暂停，直到 \d\d:\d\d · 用量上限$/,
          sidebar: /^已暂停，直到 \d\d:\d\d$/,
          left: /^还剩 (9|10)分(\d+秒)?$/,
          tryNow: '立即重试',
          cancel: '取消',
          replied: '已回复',
          ready: '就绪',
        };

  test(`${language}: a usage limit pauses the wake; Try now delivers it again and it replies once`, async ({
    app,
    serve,
  }, info) => {
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await sendFromComposer(app, '@demo /limit');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'paused');
    await expect(chip.locator('.chip-text')).toHaveText(words.paused);
    await expect(chip.locator('.chip-icon')).toHaveText('⏸');
    // issue 40 item 8: the chip counts down to the reset (600 s away), and the sidebar no longer says Ready.
    await expect(chip.locator('.chip-countdown')).toHaveText(words.left);
    const sidebarState = app.locator('.agent-state[data-agent="demo"] .agent-state-text');
    await expect(sidebarState).toHaveText(words.sidebar);
    await expect(sidebarState).toHaveAttribute('data-paused', 'usage_limit');
    for (const width of WIDTHS) {
      await app.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(app, `paused chip ${width}`);
      await screenshot(app, info, `paused-${language}-${width}`);
      await app.emulateMedia({ colorScheme: 'dark' });
      await screenshot(app, info, `paused-${language}-${width}-dark`);
      await app.emulateMedia({ colorScheme: 'light' });
    }
    await expectNoSeriousAxeViolations(app, `paused chip, ${language}`);
    await chip.getByRole('button', { name: words.tryNow }).click();
    await expect(chip).toHaveAttribute('data-status', 'reply_sent');
    await expect(chip).toContainText(words.replied);
    await expect(sidebarState).toHaveText(words.ready);
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string }>;
    expect(rows).toEqual([expect.objectContaining({ status: 'reply_sent' })]);
    const messages = JSON.parse((await serve.cli('messages', '--target', '#general', '--json')).stdout) as Array<{
      author: string;
    }>;
    expect(messages.filter((m) => m.author !== 'operator' && m.author !== 'you')).toHaveLength(1);
  });

  test(`${language}: Cancel ends the paused wake failed/stopped_by_operator`, async ({ app, serve }) => {
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await sendFromComposer(app, '@demo /limit');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'paused');
    await chip.getByRole('button', { name: words.cancel }).click();
    await expect(chip).toHaveAttribute('data-status', 'failed');
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string; reason: string }>;
    expect(rows).toEqual([expect.objectContaining({ status: 'failed', reason: 'stopped_by_operator' })]);
  });

  test(`${language}: the agent's page shows the pause and its own Try now, which delivers the work again`, async ({
    app,
    serve,
  }, info) => {
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await sendFromComposer(app, '@demo /limit');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'paused');
    // issue 40 item 8: Try now is not only on the paused chip: the agent's page has it too.
    await app.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
    const detail = app.locator('section.agent-detail[data-agent="demo"]');
    const pause = detail.locator('[data-field="readiness"] .agent-paused');
    await expect(pause).toHaveAttribute('data-paused', 'usage_limit');
    await expect(pause.locator('span')).toHaveText(words.paused);
    for (const width of WIDTHS) {
      await app.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(app, `agent page paused ${width}`);
      await screenshot(app, info, `paused-agent-page-${language}-${width}`);
      await app.emulateMedia({ colorScheme: 'dark' });
      await screenshot(app, info, `paused-agent-page-${language}-${width}-dark`);
      await app.emulateMedia({ colorScheme: 'light' });
    }
    await app.setViewportSize({ width: 1280, height: 800 });
    for (const scheme of ['dark', 'light'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxeViolations(app, `agent page paused, ${language}, ${scheme}`);
    }
    await pause.getByRole('button', { name: words.tryNow }).click();
    await expect(pause).toHaveCount(0);
    const rows = async () =>
      (JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string }>).map((r) => r.status);
    await expect.poll(rows).toEqual(['reply_sent']);
  });
}
