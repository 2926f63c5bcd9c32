/**
 * issue 27: the Usage view in a real browser against the real `agentteam serve` with two demo
 * agents (the demo reports a demo's usage per turn): after one exchange, the view shows the demo
 * agent's day with exactly the numbers `agentteam usage --json` prints, its chart and its daily
 * budget; the agent that did nothing says so. English and 简体中文, 1280 and 390 px, light and
 * dark, no horizontal overflow, axe.
 */
import type { UsageSummary } from '../../shared/usage.js';
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { expect, expectNoSeriousAxeViolations, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

test.use({
  config: {
    agents: [
      { id: 'demo', name: 'Demo', runtime: 'demo', budget: { tokens: 50_000 } },
      { id: 'helper', name: 'Helper', runtime: 'demo' },
    ],
  },
  timezoneId: 'UTC',
  locale: 'en-US',
});

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

for (const language of ['en', 'zh-CN'] as const) {
  const words =
    language === 'en'
      ? {
          nav: 'Usage',
          noneYet: 'No usage reported in the last 7 days.',
          budget: (pct: number) => `Daily budget ${pct} % of 50,000 tokens`,
        }
      : {
          nav: '用量',
          noneYet: '最近 7 天没有报告用量。',
          budget: (pct: number) => `每日预算已用 ${pct} %，共 50,000 token`,
        };

  test(`${language}: the Usage view shows what the demo reported, as the CLI prints it`, async ({
    app,
    serve,
  }, info) => {
    test.setTimeout(120_000);
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await sendFromComposer(app, '@demo hi');
    await expect(statusArea(app).locator('[data-wake]')).toHaveAttribute('data-status', 'reply_sent');
    // The turn's usage is stored at its end, after the reply: read it as the operator's CLI prints it.
    let summary: UsageSummary | null = null;
    await expect
      .poll(async () => {
        const r = await serve.cli('usage', '--json');
        summary = r.code === 0 ? (JSON.parse(r.stdout) as UsageSummary) : null;
        return summary?.days.length ?? 0;
      })
      .toBe(1);
    const day = (summary as UsageSummary | null)?.days[0];
    if (day === undefined) throw new Error('no usage day');

    await app.getByRole('button', { name: words.nav, exact: true }).click();
    await expect(app.getByRole('heading', { level: 1, name: words.nav })).toBeVisible();
    const demo = app.locator('.usage-agent[data-agent="demo"]');
    const row = demo.locator(`tr[data-day="${day.day}"]`);
    const n = (v: number) => new Intl.NumberFormat(language).format(v);
    await expect(row.locator('[data-kind="input"]')).toHaveText(n(day.inputTokens));
    await expect(row.locator('[data-kind="cached"]')).toHaveText('0');
    await expect(row.locator('[data-kind="output"]')).toHaveText(n(day.outputTokens));
    await expect(row.locator('[data-kind="wakes"]')).toHaveText('1');
    expect(day.inputTokens).toBeGreaterThan(0);
    const used = day.inputTokens + day.cachedTokens + day.outputTokens;
    await expect(demo.locator('.usage-budget')).toHaveText(words.budget(Math.round((used / 50_000) * 100)));
    // The chart draws the day's stacked bars (input and output; nothing cached).
    await expect(demo.locator('.usage-chart .recharts-bar-rectangle path')).toHaveCount(2);
    const helper = app.locator('.usage-agent[data-agent="helper"]');
    await expect(helper.locator('.usage-none-yet')).toHaveText(words.noneYet);
    // Days of zeros are not listed for an agent that reported nothing.
    await expect(helper.locator('table')).toHaveCount(0);

    for (const size of SIZES) {
      for (const scheme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await app.mouse.move(0, 0);
        await expectNoHorizontalOverflow(app, `usage view ${language} ${size.width} ${scheme}`);
        await screenshot(app, info, `usage-${language}-${size.width}-${scheme}`);
      }
    }
    await expectNoSeriousAxeViolations(app, `usage view, ${language}`);
    // The day's tooltip, themed (dark): the kinds in the text colour, the hovered band not a glare.
    await app.setViewportSize(SIZES[0]);
    await demo.locator('.usage-chart .recharts-bar-rectangle').first().hover();
    await expect(demo.locator('.recharts-tooltip-wrapper')).toContainText(day.day);
    await screenshot(app, info, `usage-${language}-tooltip-dark`);
    await expectNoSeriousAxeViolations(app, `usage view with its tooltip, ${language}`);
  });
}
