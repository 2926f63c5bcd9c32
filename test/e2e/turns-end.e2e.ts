/**
 * issue 29 "Turns end" in a real browser against the real `agentteam serve` with the demo runtime:
 * every working chip has Stop (UI.md); pressing it ends the turn at once through the runtime's
 * own interrupt (`agents.stop`), the chip then reads "Stopped · Details" with the plain words, and
 * the agent takes the next message. Screens at 1280 and 390 px, English and 简体中文.
 */
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import {
  demoConfig,
  expect,
  expectNoSeriousAxeViolations,
  screenshot,
  sendFromComposer,
  statusArea,
  test,
} from './fixtures.js';

// A quiet task far longer than the test: the turn never ends by itself.
test.use({ config: demoConfig({ demoTaskMs: 600_000, thresholdSeconds: 30 }) });

const WIDTHS = [1280, 390] as const;

for (const language of ['en', 'zh-CN'] as const) {
  const words =
    language === 'en'
      ? {
          stop: 'Stop the turn of Demo',
          stopped: 'Stopped',
          details: 'Details',
          rawDetail: 'Raw detail',
          replied: 'Replied',
        }
      : { stop: '停止 Demo 的这一轮', stopped: '已停止', details: '详情', rawDetail: '原始信息', replied: '已回复' };

  test(`${language}: Stop on the working chip ends the turn; the chip says so; the agent takes the next message`, async ({
    app,
    serve,
  }, info) => {
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await sendFromComposer(app, '@demo /slow');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'delivered');
    const stop = chip.getByRole('button', { name: words.stop });
    await expect(stop).toBeVisible();
    for (const width of WIDTHS) {
      await app.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(app, `working chip ${width}`);
      await screenshot(app, info, `turns-end-working-${language}-${width}`);
    }
    await expectNoSeriousAxeViolations(app, `working chip with Stop, ${language}`);
    await stop.click();
    await expect(chip).toHaveAttribute('data-status', 'failed');
    await expect(chip.locator('.chip-text')).toHaveText(words.stopped);
    await chip.getByRole('button', { name: words.details }).click();
    // issue 40 item 5: the raw line only on demand, under Raw detail.
    await expect(chip.locator('.failure-raw')).toHaveCount(0);
    await chip.getByRole('button', { name: words.rawDetail }).click();
    await expect(chip.locator('.failure-raw')).toHaveText('the operator stopped the turn');
    for (const width of WIDTHS) {
      await app.setViewportSize({ width, height: 800 });
      await expectNoHorizontalOverflow(app, `stopped chip ${width}`);
      await screenshot(app, info, `turns-end-stopped-${language}-${width}`);
    }
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string; reason: string }>;
    expect(rows).toEqual([expect.objectContaining({ status: 'failed', reason: 'stopped_by_operator' })]);

    await sendFromComposer(app, '@demo hello again');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toContainText(words.replied);
  });
}
