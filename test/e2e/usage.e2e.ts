/**
 * issue 27: the Usage view in a real browser against the real `agentteam serve` with two demo
 * agents (the demo reports a demo's usage per turn): after one exchange, the view shows the demo
 * agent's day with exactly the numbers `agentteam usage --json` prints, its chart and its daily
 * budget; the agent that did nothing says so. English and 简体中文, 1280 and 390 px, light and
 * dark, no horizontal overflow, axe.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
          budget: (pct: number) => `每日预算已用 ${pct} %，共 50,000 词元`,
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

// issue 27 "Budgets": a reached daily budget holds the next wake ("Paused until 00:00 · daily budget
// reached · Raise budget · Cancel": the budget's day ends at UTC midnight, the page's time zone here); Raise budget opens the Usage view, where the operator sets a higher one;
// the held wake is released and replies once.
test.describe('raise budget', () => {
  test.use({ config: { agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', budget: { tokens: 10 } }] } });

  for (const language of ['en', 'zh-CN'] as const) {
    const words =
      language === 'en'
        ? {
            paused: 'Paused until 00:00 · daily budget reached',
            raise: 'Raise budget',
            field: 'Daily budget (tokens)',
            save: 'Save budget',
            chat: /^#general/,
          }
        : {
            paused: '已暂停，直到 00:00 · 已达每日预算',
            raise: '提高预算',
            field: '每日预算（词元）',
            save: '保存预算',
            chat: /^#general/,
          };

    test(`${language}: Raise budget releases the held wake, which replies once`, async ({ app, serve }, info) => {
      test.setTimeout(120_000);
      if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
      await sendFromComposer(app, '@demo hi');
      await expect(statusArea(app).locator('[data-wake]')).toHaveAttribute('data-status', 'reply_sent');
      // The first turn's usage (hundreds of demo tokens) is past the budget of 10 once stored.
      await expect
        .poll(async () => {
          const r = await serve.cli('usage', '--json');
          return r.code === 0 ? (JSON.parse(r.stdout) as UsageSummary).budgets[0]?.state.reached : false;
        })
        .toBe(true);
      await sendFromComposer(app, '@demo again');
      const chip = statusArea(app).locator('[data-status="paused"]');
      await expect(chip.locator('.chip-text')).toHaveText(words.paused);
      await expectNoSeriousAxeViolations(app, `daily budget pause, ${language}`);
      await screenshot(app, info, `budget-paused-${language}`);
      await chip.getByRole('button', { name: words.raise }).click();

      const demo = app.locator('.usage-agent[data-agent="demo"]');
      await demo.getByRole('button', { name: words.raise }).click();
      const field = demo.getByLabel(words.field);
      await expect(field).toHaveValue('20');
      await field.fill('0');
      await expect(demo.getByRole('button', { name: words.save })).toBeDisabled();
      await field.fill('1000000');
      await screenshot(app, info, `budget-raise-${language}`);
      await expectNoSeriousAxeViolations(app, `raise budget form, ${language}`);
      await demo.getByRole('button', { name: words.save }).click();
      await expect(demo.locator('.usage-budget')).toContainText('1,000,000');

      // Back in the conversation: the held wake was released and replied, once.
      await app.getByRole('button', { name: words.chat }).first().click();
      await expect(statusArea(app).locator('[data-status="paused"]')).toHaveCount(0);
      await expect
        .poll(async () =>
          (JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string }>).map((w) => w.status),
        )
        .toEqual(['reply_sent', 'reply_sent']);
      const agentJson = JSON.parse(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')) as {
        agents: Array<{ budget?: unknown }>;
      };
      expect(agentJson.agents[0]?.budget).toEqual({ tokens: 1_000_000 });
    });
  }

  // issue 39: Remove budget, next to Raise budget — the key leaves agentteam.json and the held wake goes on.
  for (const language of ['en', 'zh-CN'] as const) {
    const words =
      language === 'en'
        ? { raise: 'Raise budget', remove: 'Remove budget', none: 'No daily budget', chat: /^#general/ }
        : { raise: '提高预算', remove: '移除预算', none: '无每日预算', chat: /^#general/ };

    test(`${language}: Remove budget takes the budget out of agentteam.json and releases the held wake`, async ({
      app,
      serve,
    }, info) => {
      test.setTimeout(120_000);
      if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
      await sendFromComposer(app, '@demo hi');
      await expect(statusArea(app).locator('[data-wake]')).toHaveAttribute('data-status', 'reply_sent');
      await expect
        .poll(async () => {
          const r = await serve.cli('usage', '--json');
          return r.code === 0 ? (JSON.parse(r.stdout) as UsageSummary).budgets[0]?.state.reached : false;
        })
        .toBe(true);
      await sendFromComposer(app, '@demo again');
      const chip = statusArea(app).locator('[data-status="paused"]');
      await chip.getByRole('button', { name: words.raise }).click();

      const demo = app.locator('.usage-agent[data-agent="demo"]');
      await expect(demo.getByRole('button', { name: words.raise })).toBeVisible();
      await screenshot(app, info, `budget-remove-before-${language}`);
      await demo.getByRole('button', { name: words.remove }).click();
      await expect(demo.locator('.usage-budget')).toHaveText(words.none);
      // No budget: nothing to raise or remove.
      await expect(demo.getByRole('button', { name: words.remove })).toHaveCount(0);
      await screenshot(app, info, `budget-removed-${language}`);
      await expectNoSeriousAxeViolations(app, `budget removed, ${language}`);

      await app.getByRole('button', { name: words.chat }).first().click();
      await expect(statusArea(app).locator('[data-status="paused"]')).toHaveCount(0);
      await expect
        .poll(async () =>
          (JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string }>).map((w) => w.status),
        )
        .toEqual(['reply_sent', 'reply_sent']);
      const agentJson = JSON.parse(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')) as {
        agents: Array<Record<string, unknown>>;
      };
      expect(agentJson.agents[0]).not.toHaveProperty('budget');
      expect(agentJson.agents[0]).toMatchObject({ id: 'demo', name: 'Demo', runtime: 'demo' });
    });
  }
});

// issue 40 item 9: an agent with no budget gets Set budget — the first budget, from the UI, into agentteam.json.
for (const language of ['en', 'zh-CN'] as const) {
  const words =
    language === 'en'
      ? {
          nav: 'Usage',
          set: 'Set budget',
          field: 'Daily budget (tokens)',
          save: 'Save budget',
          none: 'No daily budget',
        }
      : { nav: '用量', set: '设置预算', field: '每日预算（词元）', save: '保存预算', none: '无每日预算' };

  test(`${language}: Set budget gives an agent with none its first daily budget`, async ({ app, serve }, info) => {
    if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
    await app.getByRole('button', { name: words.nav, exact: true }).click();
    const helper = app.locator('.usage-agent[data-agent="helper"]');
    await expect(helper.locator('.usage-budget')).toHaveText(words.none);
    await helper.getByRole('button', { name: words.set }).click();
    const field = helper.getByLabel(words.field);
    await expect(field).toHaveValue('');
    // No complaint before anything is typed; an invalid number is refused in words.
    await expect(helper.locator('.usage-raise-error')).toHaveCount(0);
    await field.fill('20000');
    for (const width of [1280, 390]) {
      await app.setViewportSize({ width, height: 844 });
      await expectNoHorizontalOverflow(app, `set budget ${language} ${width}`);
      for (const scheme of ['light', 'dark'] as const) {
        await app.emulateMedia({ colorScheme: scheme });
        await screenshot(app, info, `budget-set-${language}-${width}-${scheme}`);
      }
    }
    await expectNoSeriousAxeViolations(app, `set budget, ${language}`);
    await helper.getByRole('button', { name: words.save }).click();
    await expect(helper.locator('.usage-budget')).toHaveAttribute('data-has-budget', 'true');
    await expect(helper.locator('.usage-budget')).toContainText('20,000');
    const config = JSON.parse(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')) as {
      agents: Array<Record<string, unknown>>;
    };
    expect(config.agents.find((a) => a.id === 'helper')).toMatchObject({ budget: { tokens: 20_000 } });
  });
}
