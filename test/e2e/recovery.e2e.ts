/**
 * issue 24 in the browser (real Chromium, real `agentteam serve`, the demo agent): an agent
 * restarted with a new workspace while it works ends its wake `failed/process_replaced` — never
 * "received, back to idle" — and a recovery wake continues the work (contract §6.6). The status
 * area says the failure was continued; the inspector links the original to the recovery ("Continued
 * in wake …") and back ("Continues wake …"). English and 简体中文, 1280 and 390 px wide.
 */
import { mkdir } from 'node:fs/promises';
import { apiCall, expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { demoConfig, expect, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

test.use({ config: demoConfig({ demoTaskMs: 60_000, thresholdSeconds: 30 }) });

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

for (const language of ['en', 'zh-CN'] as const) {
  test(`a restart while the agent works: the wake fails truthfully and is continued, linked both ways (${language})`, async ({
    app,
    serve,
  }, info) => {
    const zh = language === 'zh-CN';
    if (zh) await useLanguage(app, serve, language);
    await sendFromComposer(app, '@demo /slow a long task, please');
    const area = statusArea(app);
    await expect(area.locator('[data-status="delivered"]')).toHaveCount(1);

    // Beside the data dir, never inside it (issue 29 refuses that).
    const folder = `${serve.dataDir}-new-workspace-${language}`;
    await mkdir(folder);
    await apiCall(app, serve, 'agents.update', { agentId: 'demo', cwd: folder });

    // The original: failed with the replacement's reason, its chip saying the work continues.
    const failed = area.locator('[data-status="failed"]');
    await expect(failed).toHaveCount(1);
    await expect(failed.locator('.chip-text')).toHaveText(
      zh ? '已中断——已在新的唤醒中继续' : 'Interrupted — continued in a new wake',
    );
    await expect(area.locator('[data-status="completed_without_visible_reply"]')).toHaveCount(0);
    // The recovery wake works beside it.
    await expect(area.locator('[data-wake^="wk_recovery_"]')).toHaveCount(1);
    const originalToken = (await failed.getAttribute('data-wake')) ?? '';
    const recoveryToken = (await area.locator('[data-wake^="wk_recovery_"]').getAttribute('data-wake')) ?? '';
    expect(originalToken).not.toBe('');
    expect(recoveryToken).toMatch(/^wk_recovery_/);

    await failed.locator('.chip-main').click();
    const inspector = app.locator('aside.inspector');
    await expect(inspector).toHaveAttribute('data-wake', originalToken);
    const forward = inspector.locator(`[data-wake-link="${recoveryToken}"]`);
    await expect(forward).toHaveText(
      zh
        ? `已在唤醒 ${recoveryToken.slice('wk_recovery_'.length, 'wk_recovery_'.length + 8)} 中继续`
        : /^Continued in wake /,
    );
    await inspector.locator('.failure-details summary').click();
    await expect(inspector.locator('.failure-words')).toHaveText(
      zh
        ? 'Demo 工作时因设置更改而重新启动——已在新的唤醒中继续。'
        : 'Demo restarted with its new settings while it worked — continued in a new wake.',
    );
    for (const size of WIDTHS) {
      await app.setViewportSize(size);
      await expectNoHorizontalOverflow(app, `inspector of the original at ${size.width}`);
      await screenshot(app, info, `recovery-original-${language}-${size.width}`);
    }

    await forward.click();
    await expect(inspector).toHaveAttribute('data-wake', recoveryToken);
    const back = inspector.locator(`[data-wake-link="${originalToken}"]`);
    await expect(back).toHaveText(zh ? /^继续唤醒 / : /^Continues wake /);
    for (const size of WIDTHS) {
      await app.setViewportSize(size);
      await expectNoHorizontalOverflow(app, `inspector of the recovery at ${size.width}`);
      await screenshot(app, info, `recovery-continuation-${language}-${size.width}`);
    }
    await back.click();
    await expect(inspector).toHaveAttribute('data-wake', originalToken);
  });
}
