/**
 * Visual regression (issue 17): committed baseline screenshots of the conversation, the
 * inspector and the settings page at 1280 and 390 px wide, light and dark, English and 简体中文, against the real
 * `agentteam serve` with the demo runtime. Deterministic: UTC, en-US browser locale, the demo's
 * fixed replies, animations off, and what a clock decides (times, elapsed, the wake id) masked.
 * Update the baselines with `npx playwright test -c playwright.config.ts test/e2e/visual.e2e.ts
 * --update-snapshots` after an intended change, and look at every image before committing it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { demoConfig, expect, screenshot, sendFromComposer, statusArea, test as base } from './fixtures.js';
import { gitIn } from '../fixtures/git-repo.js';

/**
 * The masks cover what a clock decides, but a mask is as wide as its text: "12:40 AM" is wider than
 * "1:40 AM", so a run between 10:00 and 12:59 moved the masks' edges. In these tests every clock
 * reading is formatted as one fixed instant (in the page's own locale and options), so the masked
 * text — and the layout around it — is the same at any hour.
 */
const FIXED_CLOCK_TEXT = () => {
  const Real = Intl.DateTimeFormat;
  const instant = new Date('2026-01-05T13:23:45.000Z');
  const Fixed = function (this: unknown, ...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    const real = new Real(...args);
    const o = real.resolvedOptions();
    if (o.hour === undefined && o.minute === undefined) return real;
    return new Proxy(real, {
      get(target, key) {
        if (key === 'format') return () => target.format(instant);
        if (key === 'formatToParts') return () => target.formatToParts(instant);
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  } as unknown as typeof Intl.DateTimeFormat;
  Object.assign(Fixed, { supportedLocalesOf: Real.supportedLocalesOf.bind(Real), prototype: Real.prototype });
  Intl.DateTimeFormat = Fixed;
};
const test = base.extend({
  page: async ({ page }, use) => {
    await page.addInitScript(FIXED_CLOCK_TEXT);
    await use(page);
  },
});
test.use({ config: demoConfig(), timezoneId: 'UTC', locale: 'en-US' });

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

// issue 26: the review pane's "not tracked" reason names the run's temporary workspace.
const masks = (page: Page) => [page.locator('time, .chip-elapsed, .wake-id, .review-untracked')];

async function settle(page: Page): Promise<void> {
  // No focus ring or caret left from the last action, fonts loaded.
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.evaluate('document.fonts.ready.then(() => true)');
}

for (const language of ['en', 'zh-CN'] as const) {
  test(`conversation and inspector look right (${language}, 1280 and 390, light and dark)`, async ({
    app,
    serve,
  }, info) => {
    test.setTimeout(120_000);
    if (language !== 'en') await useLanguage(app, serve, language);
    await sendFromComposer(app, '@demo can you check the logs?');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    await sendFromComposer(app, 'thanks — and one more: @demo /local');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    await expect(app.locator('article.message-agent')).toHaveCount(2);
    await expect(statusArea(app).locator('[data-wake]')).toHaveAttribute('data-status', 'reply_sent');

    for (const size of WIDTHS) {
      for (const scheme of SCHEMES) {
        const name = `${language}-${size.width}-${scheme}`;
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await settle(app);
        await screenshot(app, info, `visual-conversation-${name}`);
        await expect(app).toHaveScreenshot(`conversation-${name}.png`, { mask: masks(app), maxDiffPixelRatio: 0.002 });

        await statusArea(app).locator('[data-wake] .chip-main').click();
        const inspector = app.locator('aside.inspector');
        await expect(inspector.locator('.timeline li').last()).toHaveAttribute('data-status', 'reply_sent');
        await settle(app);
        await screenshot(app, info, `visual-inspector-${name}`);
        await expect(app).toHaveScreenshot(`inspector-${name}.png`, { mask: masks(app), maxDiffPixelRatio: 0.002 });
        await inspector.getByRole('button', { name: /Close|关闭/ }).click();
        await expect(inspector).toHaveCount(0);
      }
    }
  });
}

// The settings page (issue 17): the temporary data dir's path is masked (it differs per run).
for (const language of ['en', 'zh-CN'] as const) {
  test(`settings look right (${language}, 1280 and 390, light and dark)`, async ({ app, serve }, info) => {
    test.setTimeout(120_000);
    if (language !== 'en') await useLanguage(app, serve, language);
    for (const size of WIDTHS) {
      for (const scheme of SCHEMES) {
        const name = `${language}-${size.width}-${scheme}`;
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        if ((await app.locator('.settings-view').count()) === 0) {
          if (size.width < 768)
            await app
              .getByRole('button', { name: /Open conversations|打开会话列表/ })
              .first()
              .click();
          await app.getByRole('button', { name: /^Settings$|^设置$/ }).click();
        }
        await expect(app.getByRole('heading', { name: /^Settings$|^设置$/, level: 1 })).toBeVisible();
        await settle(app);
        await screenshot(app, info, `visual-settings-${name}`);
        await expect(app).toHaveScreenshot(`settings-${name}.png`, {
          mask: [...masks(app), app.locator('.sv-path')],
          maxDiffPixelRatio: 0.002,
        });
      }
    }
  });
}

// issue 14: the approval chip (a baseline of the status area) and the inspector with the request
// (screens to look at, 360 px too). A fixed workspace path keeps the chip's summary the same per run.
const VISUAL_WORKSPACE = join(tmpdir(), 'agentteam-visual-workspace');
mkdirSync(VISUAL_WORKSPACE, { recursive: true });

test.describe('approval', () => {
  test.use({
    config: {
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', cwd: VISUAL_WORKSPACE }],
      channels: { local: {} },
    },
  });

  for (const language of ['en', 'zh-CN'] as const) {
    test(`the approval chip and the inspector look right (${language}, 1280, 390 and 360, light and dark)`, async ({
      app,
      serve,
    }, info) => {
      test.setTimeout(120_000);
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo /approve');
      const chip = statusArea(app).locator('.chip-approval');
      await expect(chip).toHaveCount(1);
      for (const size of [...WIDTHS, { width: 360, height: 740 }]) {
        for (const scheme of SCHEMES) {
          const name = `${language}-${size.width}-${scheme}`;
          await app.setViewportSize(size);
          await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          await settle(app);
          await screenshot(app, info, `visual-approval-${name}`);
          await expectNoHorizontalOverflow(app, `approval chip ${name}`);
          if (size.width !== 360)
            await expect(statusArea(app)).toHaveScreenshot(`approval-chip-${name}.png`, { maxDiffPixelRatio: 0.002 });
          await chip.locator('.chip-main').click();
          const inspector = app.locator('aside.inspector');
          await expect(inspector.locator('.wake-approvals li')).toHaveAttribute('data-approval-status', 'pending');
          await settle(app);
          await screenshot(app, info, `visual-approval-inspector-${name}`);
          await expectNoHorizontalOverflow(app, `approval inspector ${name}`);
          await inspector.getByRole('button', { name: /Close|关闭/ }).click();
          await expect(inspector).toHaveCount(0);
        }
      }
    });
  }
});

// issue 25: the Team view ("who needs me" first: the demo waiting for approval, the helper idle) and
// a paused chain's status with Continue (a baseline of the status area). The elapsed times are masked.
test.describe('team', () => {
  const teamAgents = (agentHops?: number) => ({
    agents: [
      { id: 'demo', name: 'Demo', runtime: 'demo', cwd: VISUAL_WORKSPACE },
      { id: 'helper', name: 'Helper', runtime: 'demo', cwd: VISUAL_WORKSPACE },
    ],
    channels: { local: {} },
    ...(agentHops === undefined ? {} : { limits: { agentHops } }),
  });

  test.describe('view', () => {
    test.use({ config: teamAgents() });
    for (const language of ['en', 'zh-CN'] as const) {
      test(`the Team view looks right (${language}, 1280 and 390, light and dark)`, async ({ app, serve }, info) => {
        test.setTimeout(120_000);
        if (language !== 'en') await useLanguage(app, serve, language);
        await sendFromComposer(app, '@demo /approve');
        await expect(statusArea(app).locator('.chip-approval')).toHaveCount(1);
        // "for 3s" / "for 12s": the elapsed time is left out of the layout, so its width moves nothing.
        await app.addStyleTag({ content: '.team-elapsed { display: none; }' });
        for (const size of WIDTHS) {
          for (const scheme of SCHEMES) {
            const name = `${language}-${size.width}-${scheme}`;
            await app.setViewportSize(size);
            await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
            if ((await app.locator('.team-view').count()) === 0) {
              if (size.width < 768)
                await app
                  .getByRole('button', { name: /Open conversations|打开会话列表/ })
                  .first()
                  .click();
              await app.getByRole('button', { name: /^Team|^团队/ }).click();
            }
            await expect(app.locator('[data-team-agent="demo"]')).toHaveAttribute(
              'data-team-state',
              'waiting_approval',
            );
            await settle(app);
            await screenshot(app, info, `visual-team-${name}`);
            await expect(app).toHaveScreenshot(`team-${name}.png`, { mask: masks(app), maxDiffPixelRatio: 0.002 });
          }
        }
      });
    }
  });

  test.describe('paused chain', () => {
    test.use({ config: teamAgents(1) });
    for (const language of ['en', 'zh-CN'] as const) {
      test(`the paused chain looks right (${language}, 1280 and 390, light and dark)`, async ({ app, serve }, info) => {
        test.setTimeout(120_000);
        if (language !== 'en') await useLanguage(app, serve, language);
        await sendFromComposer(app, '@demo /ask @helper what is the build status?');
        await expect(statusArea(app).locator('[data-chain-status="paused"]')).toHaveCount(1);
        // The two agents' chips have their outcome (the paused chain leaves no wake active).
        await expect(statusArea(app).locator('[data-wake][data-status="reply_sent"]')).toHaveCount(2);
        for (const size of WIDTHS) {
          for (const scheme of SCHEMES) {
            const name = `${language}-${size.width}-${scheme}`;
            await app.setViewportSize(size);
            await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
            await settle(app);
            await screenshot(app, info, `visual-chain-paused-${name}`);
            await expectNoHorizontalOverflow(app, `paused chain ${name}`);
            await expect(statusArea(app)).toHaveScreenshot(`chain-paused-${name}.png`, {
              mask: masks(app),
              maxDiffPixelRatio: 0.002,
            });
          }
        }
      });
    }
  });
});

// issue 27: the paused chip (a usage limit, "retry after 600 seconds"), light and dark, 1280 and 390.
test.describe('paused', () => {
  test.use({
    config: {
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_LIMIT_SECONDS: '600' } }],
      channels: { local: {} },
    },
  });

  for (const language of ['en', 'zh-CN'] as const) {
    test(`the paused chip looks right (${language}, 1280 and 390, light and dark)`, async ({ app, serve }, info) => {
      test.setTimeout(120_000);
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo /limit');
      const chip = statusArea(app).locator('[data-status="paused"]');
      await expect(chip).toHaveCount(1);
      // The countdown is masked, but its width follows its text ("9m 58s left", "9m 8s left"): a fixed
      // width keeps the buttons after it in place however long the test took to get here (issue 44:
      // under load, over a minute).
      await app.addStyleTag({ content: '.chip-countdown { display: inline-block; width: 7.5em; }' });
      for (const size of WIDTHS) {
        for (const scheme of SCHEMES) {
          const name = `${language}-${size.width}-${scheme}`;
          await app.setViewportSize(size);
          await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          await settle(app);
          await screenshot(app, info, `visual-paused-${name}`);
          await expectNoHorizontalOverflow(app, `paused chip ${name}`);
          await expect(statusArea(app)).toHaveScreenshot(`paused-chip-${name}.png`, {
            mask: masks(app),
            maxDiffPixelRatio: 0.002,
          });
        }
      }
    });
  }
});

// issue 26: the agent detail of an agent isolated in a worktree — its facts, Merge with the commit
// message for its uncommitted file, Discard's confirmation naming what is lost, and its changes
// since base (a baseline of the detail). Fixed repository and worktree paths, made anew per test.
const VISUAL_REPO = join(tmpdir(), 'agentteam-visual-repo');
const VISUAL_WORKTREES = join(tmpdir(), 'agentteam-visual-worktrees');

test.describe('worktree', () => {
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
    config: async ({}, use) => {
      for (const d of [VISUAL_REPO, VISUAL_WORKTREES]) rmSync(d, { recursive: true, force: true });
      mkdirSync(VISUAL_REPO);
      gitIn(VISUAL_REPO, 'init', '-q', '-b', 'main');
      writeFileSync(join(VISUAL_REPO, 'README.md'), 'project\n');
      gitIn(VISUAL_REPO, 'add', '-A');
      gitIn(VISUAL_REPO, 'commit', '-q', '-m', 'init');
      await use({
        agents: [
          {
            id: 'demo',
            name: 'Demo',
            runtime: 'demo',
            cwd: VISUAL_REPO,
            isolation: 'worktree',
            worktreesDir: VISUAL_WORKTREES,
          },
        ],
        channels: { local: {} },
      });
    },
  });

  for (const language of ['en', 'zh-CN'] as const) {
    test(`the agent detail with a worktree looks right (${language}, 1280 and 390, light and dark)`, async ({
      app,
      serve,
    }, info) => {
      test.setTimeout(120_000);
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo /approve');
      await statusArea(app)
        .locator('.chip-approval')
        .getByRole('button', { name: /^Allow once$|^允许一次$/ })
        .click();
      await expect(statusArea(app).locator('[data-wake]:not(.chip-approval)')).toHaveAttribute(
        'data-status',
        'reply_sent',
      );
      await app.locator('.agent-states li[data-agent="demo"]').getByRole('button').click();
      const detail = app.locator('section.agent-detail[data-agent="demo"]');
      await expect(detail.locator('.review-pane .review-files button')).toHaveCount(1);
      await detail.getByRole('button', { name: /^Discard$|^丢弃$/ }).click();
      await expect(detail.getByRole('alertdialog')).toBeVisible();
      for (const size of WIDTHS) {
        for (const scheme of SCHEMES) {
          const name = `${language}-${size.width}-${scheme}`;
          await app.setViewportSize(size);
          await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          await settle(app);
          // The changed file's row, as the baseline shows it: under load the pane's list was still
          // loading (or reloading) when the screenshot's own 5 s ran out (issue 44, a run at load 20).
          await expect(detail.locator('.review-pane .review-files button')).toHaveCount(1);
          await screenshot(app, info, `visual-worktree-${name}`);
          await expectNoHorizontalOverflow(app, `agent detail with a worktree ${name}`);
          await expect(detail).toHaveScreenshot(`agent-worktree-${name}.png`, {
            mask: masks(app),
            maxDiffPixelRatio: 0.002,
          });
        }
      }
    });
  }
});

// issue 27: the Usage view after one demo exchange (the demo's usage: a token per 4 characters), light
// and dark, 1280 and 390. The days are today's: the table's days and the chart's axis are masked.
test.describe('usage', () => {
  for (const language of ['en', 'zh-CN'] as const) {
    test(`the Usage view looks right (${language}, 1280 and 390, light and dark)`, async ({ app, serve }, info) => {
      test.setTimeout(120_000);
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo hi');
      await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
      await app.getByRole('button', { name: /^Usage$|^用量$/ }).click();
      // The turn's usage comes at its end; the view is live on usage.updated.
      await expect(app.locator('.usage-agent[data-agent="demo"] .usage-chart')).toHaveCount(1);
      // The legend's words, asserted as text: a copy change is a few pixels, inside the screenshots' tolerance.
      await expect(app.locator('.usage-agent[data-agent="demo"] .usage-legend li')).toHaveText(
        language === 'en' ? ['Input tokens', 'Cached tokens', 'Output tokens'] : ['输入词元', '缓存词元', '输出词元'],
      );
      for (const size of WIDTHS) {
        for (const scheme of SCHEMES) {
          const name = `${language}-${size.width}-${scheme}`;
          await app.setViewportSize(size);
          await app.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          await app.mouse.move(0, 0);
          await settle(app);
          await screenshot(app, info, `visual-usage-${name}`);
          await expectNoHorizontalOverflow(app, `usage view ${name}`);
          await expect(app.locator('.usage-view')).toHaveScreenshot(`usage-${name}.png`, {
            mask: [...masks(app), app.locator('.usage-table tbody th, .usage-chart .recharts-xAxis-tick-labels')],
            maxDiffPixelRatio: 0.002,
          });
        }
      }
    });
  }
});
