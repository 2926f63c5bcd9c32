/**
 * The renderer against the real `agentteam serve` with the demo runtime (issue 8):
 * a plain reply, beacons during a quiet task, and final-check then reply. Asserts the
 * status-surface rules of contract §10.3: one `role="status"` area at the end of the
 * conversation, active wakes as chips, only the latest terminal status when none is active,
 * never a status under historical messages, neutral copy.
 */
import type { Locator } from '@playwright/test';
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

test.use({ config: demoConfig() });

async function attributes(list: Locator, name: string): Promise<Array<string | null>> {
  return Promise.all((await list.all()).map((el) => el.getAttribute(name)));
}

test.describe('demo runtime in the browser', () => {
  test('reply: a chip shows the wake, then "Replied"; the reply is a message, the status is not', async ({
    app,
    serve,
  }, info) => {
    await screenshot(app, info, 'demo-empty');
    await sendFromComposer(app, '@demo hello there');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveCount(1);
    await expect(chip).toHaveAttribute('data-status', 'reply_sent');
    await expect(chip).toContainText('Replied');
    // The reply arrives as a message authored by the agent (via message_send), above the status area.
    await expect(app.locator('article.message-agent')).toHaveCount(1);
    await expect(app.locator('article.message-operator')).toContainText('@demo hello there');
    // Exactly one status area, and no wake status rendered among the messages.
    await expect(app.getByRole('status', { name: 'Agent status' })).toHaveCount(1);
    await expect(app.getByRole('log').locator('[data-status]')).toHaveCount(0);
    await screenshot(app, info, 'demo-replied');

    const wakes = await serve.cli('wakes', '--json');
    expect(wakes.code).toBe(0);
    const rows = JSON.parse(wakes.stdout) as Array<{ status: string; agentId: string; finalCheck: boolean }>;
    expect(rows).toEqual([expect.objectContaining({ agentId: 'demo', status: 'reply_sent', finalCheck: false })]);
  });

  test('reaction: the demo reacts instead of writing; the 👍 shows under the triggering message and the chip says "Replied"', async ({
    app,
  }, info) => {
    await sendFromComposer(app, '@demo /react');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'reply_sent');
    const trigger = app.locator('article.message-operator');
    await expect(trigger.getByRole('list', { name: 'Reactions' }).getByRole('listitem')).toHaveText(['👍 Demo']);
    // A reaction is not a message.
    await expect(app.locator('article.message-agent')).toHaveCount(0);
    await screenshot(app, info, 'demo-reaction');
  });

  test('the status area shows only the latest terminal status once nothing is active', async ({ app }) => {
    await sendFromComposer(app, '@demo first');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    const first = await statusArea(app).locator('[data-wake]').getAttribute('data-wake');
    await sendFromComposer(app, '@demo second');
    await expect(statusArea(app).locator('[data-wake]')).toHaveCount(1);
    await expect(statusArea(app).locator('[data-wake]')).not.toHaveAttribute('data-wake', first ?? '');
    await expect(statusArea(app).locator('[data-wake]')).toHaveAttribute('data-status', 'reply_sent');
    await expect(app.locator('article.message-agent')).toHaveCount(2);
    await expect(app.getByRole('log').locator('[data-status]')).toHaveCount(0);
  });

  test('beacons: a quiet task shows "🧠 Working…" with elapsed time, then the reply', async ({ app, serve }, info) => {
    await sendFromComposer(app, '@demo /slow');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-kind', 'beacon', { timeout: 10_000 });
    await expect(chip).toHaveAttribute('data-status', 'delivered');
    // issue 17: the icon leads every chip (one place), the elapsed time follows the words.
    await expect(chip.locator('.chip-icon')).toHaveText('🧠');
    // issue 40 item 7: the beacon count between the words and the elapsed time.
    await expect(chip).toContainText(/Working…\s*·\s*\d+ beacons?\s*\d+s/);
    await screenshot(app, info, 'demo-beacon');
    await app.emulateMedia({ colorScheme: 'dark' });
    await screenshot(app, info, 'demo-beacon-dark');
    await expect(chip).toHaveAttribute('data-status', 'reply_sent', { timeout: 15_000 });
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ beacons: number }>;
    expect(rows[0]?.beacons).toBeGreaterThanOrEqual(1);
  });

  test('final-check then reply: the inspector lists the prompt_input entries in order', async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo /local');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'reply_sent', { timeout: 15_000 });
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{
      finalCheck: boolean;
      status: string;
    }>;
    expect(rows[0]).toMatchObject({ finalCheck: true, status: 'reply_sent' });

    await chip.locator('.chip-main').click();
    const inspector = app.locator('aside.inspector');
    await expect(inspector).toBeVisible();
    const kinds = await attributes(inspector.locator('[data-prompt-kind]'), 'data-prompt-kind');
    expect(kinds).toContain('final_check');
    expect(kinds.indexOf('delivery')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('delivery')).toBeLessThan(kinds.indexOf('final_check'));
    const seqs = (await attributes(inspector.locator('[data-prompt-kind]'), 'data-seq')).map(Number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await expect(inspector.locator('.timeline [data-kind="final_check"]')).toHaveCount(1);
    await screenshot(app, info, 'demo-inspector-final-check');
    await app.keyboard.press('Escape');
    await expect(inspector).toHaveCount(0);
  });

  test('keyboard only: Tab to the composer, complete an @mention, Shift+Enter, Enter sends', async ({ app }) => {
    const box = app.getByRole('textbox', { name: 'Message #general' });
    for (
      let i = 0;
      i < 30 && !(await box.evaluate((el: unknown) => (el as { matches(s: string): boolean }).matches(':focus')));
      i++
    )
      await app.keyboard.press('Tab');
    await expect(box).toBeFocused();
    await app.keyboard.type('@de');
    const option = app.getByRole('option', { name: /@demo/ });
    await expect(option).toBeVisible();
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await app.keyboard.press('Enter');
    await expect(box).toHaveValue('@demo ');
    await app.keyboard.type('line one');
    await app.keyboard.press('Shift+Enter');
    await app.keyboard.type('line two');
    await expect(box).toHaveValue('@demo line one\nline two');
    await app.keyboard.press('Enter');
    await expect(box).toHaveValue('');
    await expect(app.locator('article.message-operator .message-body')).toHaveText('@demo line one\nline two');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    // Focus is visible on the composer (a focus ring, not colour alone).
    await expect(box).toHaveCSS('outline-style', 'solid');
  });

  test('keyboard only: every control Tab reaches shows a focus ring (UI.md "Keyboard")', async ({ app }) => {
    await sendFromComposer(app, '@demo hi');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    await app.locator('body').click({ position: { x: 1, y: 1 } }); // start from the document, not the composer
    const seen: string[] = [];
    for (let i = 0; i < 25; i++) {
      await app.keyboard.press('Tab');
      const focused = (await app.evaluate(`(() => {
        const el = document.activeElement;
        if (el === null || el === document.body) return null;
        const css = getComputedStyle(el);
        const label = el.tagName.toLowerCase() + ':' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30);
        return { label, ring: css.outlineStyle !== 'none' && parseFloat(css.outlineWidth) >= 1 };
      })()`)) as { label: string; ring: boolean } | null;
      if (focused === null) continue;
      if (seen.includes(focused.label)) break; // wrapped around
      seen.push(focused.label);
      expect(focused.ring, `${focused.label} has a visible focus ring`).toBe(true);
    }
    // The sidebar, the status chip and the composer were all reached.
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^button:#general/),
        expect.stringMatching(/^button:.*Replied/),
        expect.stringMatching(/^textarea:/),
      ]),
    );
  });

  test('Simplified Chinese: settings switch the language; chips use the table copy', async ({ app }, info) => {
    await app.getByRole('button', { name: 'Settings' }).click();
    await app.getByLabel('Language').selectOption('zh-CN');
    // issue 17: one save model for every field, the language too.
    await app.getByRole('button', { name: 'Save' }).click();
    await expect(app.getByRole('heading', { name: '设置' })).toBeVisible();
    // The save confirmation speaks the new language too (not a leftover English "Saved").
    await expect(app.locator('.settings-status')).toHaveText('已保存');
    // Per-channel watchdog and delivery settings exist; no visible-reply toggle anywhere.
    await expect(app.getByRole('group', { name: '静默看门狗' })).toBeVisible();
    await expect(app.getByRole('group', { name: '回复投递确认' })).toBeVisible();
    await expect(app.getByText(/visible.?reply|可见回复/i)).toHaveCount(0);
    await screenshot(app, info, 'settings-zh');
    await app.getByRole('button', { name: '#general' }).click();
    await sendFromComposer(app, '@demo 你好');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toContainText('已回复');
    await screenshot(app, info, 'demo-replied-zh');
  });

  test('a new channel from the sidebar, then Ctrl+K switches back by keyboard', async ({ app }) => {
    await app.getByRole('button', { name: '+ New channel' }).click();
    await app.keyboard.type('build');
    await app.keyboard.press('Enter');
    await expect(app.getByRole('heading', { name: '#build', level: 1 })).toBeVisible();
    await expect(app.getByRole('button', { name: '#build' })).toHaveAttribute('aria-current', 'page');
    await app.keyboard.press('Control+k');
    const dialog = app.getByRole('dialog', { name: 'Switch conversation' });
    await expect(dialog).toBeVisible();
    await app.keyboard.type('gen');
    await app.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(app.getByRole('heading', { name: '#general', level: 1 })).toBeVisible();
  });

  // issue 44: these two only read (the page's CSP, the agents page), so they share one daemon.
  test.describe('read-only views', () => {
    test.use({ serveScope: 'file' });

    test('CSP: an inline script injected into the page does not run', async ({ app }) => {
      await app.evaluate(`(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.append(s);
      })()`);
      expect(await app.evaluate('window.__injected === true')).toBe(false);
    });

    test('agents page lists the demo agent, marked as demo', async ({ app }, info) => {
      await app.getByRole('button', { name: 'Agents' }).click();
      const row = app.locator('tr[data-agent="demo"]');
      await expect(row).toContainText('demo');
      await expect(row).toContainText('Demo');
      await screenshot(app, info, 'agents');
    });
  });

  test('accessibility: no serious or critical axe violations, light and dark', async ({ app }) => {
    await sendFromComposer(app, '@demo hi');
    await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxeViolations(app, `conversation, ${scheme}`);
      // The inspector drawer (timeline and prompt_input) open over the conversation.
      await statusArea(app).locator('[data-wake] .chip-main').click();
      await expect(app.locator('aside.inspector')).toBeVisible();
      await expectNoSeriousAxeViolations(app, `inspector, ${scheme}`);
      await app.keyboard.press('Escape');
      await expect(app.locator('aside.inspector')).toHaveCount(0);
    }
    await app.getByRole('button', { name: 'Settings' }).click();
    await expect(app.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expectNoSeriousAxeViolations(app, 'settings, dark');
  });
});

test.describe('demo runtime: the watchdog escalation', () => {
  // One beacon at 1 s, then the one escalation at 2 s, then the reply at 4.5 s (watchdog spec: max beacons, then one escalation).
  test.use({ config: demoConfig({ thresholdSeconds: 1, maxBeacons: 1, demoTaskMs: 4500 }) });

  test('after the last beacon the chip says "Extended processing", once, then the reply', async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo /slow');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-kind', 'escalated', { timeout: 10_000 });
    await expect(chip).toHaveAttribute('data-status', 'delivered');
    await expect(chip.locator('.chip-icon')).toHaveText('⚠️');
    await expect(chip.locator('.chip-text')).toHaveText(
      'Extended processing — still working. Response may be delayed. You can stop it.',
    );
    // The escalation alert of the shown wake is not repeated beside its chip (UI.md: one status area, said once).
    await expect(statusArea(app).locator('[data-alert]')).toHaveCount(0);
    await screenshot(app, info, 'demo-escalated');
    await expect(chip).toHaveAttribute('data-status', 'reply_sent', { timeout: 15_000 });
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ beacons: number; status: string }>;
    expect(rows).toEqual([expect.objectContaining({ status: 'reply_sent', beacons: 1 })]);
  });
});

test.describe("demo runtime: the channel's own beacon words (issue 24)", () => {
  // One beacon at 2 s, the escalation at 4 s; the quiet task outlasts the screenshots.
  const config = demoConfig({ thresholdSeconds: 2, maxBeacons: 1, demoTaskMs: 25_000 });
  const local = (config.channels as { local: { silenceWatchdog: Record<string, unknown> } }).local;
  local.silenceWatchdog.message = '🧠 Crunching the numbers…';
  local.silenceWatchdog.escalationMessage = '🐢 Taking longer than usual — still on it.';
  test.use({ config });

  test("the local chip says the channel's message, then its escalationMessage, as written and with its elapsed time", async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo /slow');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-kind', 'beacon', { timeout: 10_000 });
    // The chip's own 🧠 leads it; the person's words follow once, then the elapsed time.
    await expect(chip.locator('.chip-icon')).toHaveText('🧠');
    await expect(chip.locator('.chip-text')).toHaveText('Crunching the numbers…');
    await expect(chip.locator('.chip-elapsed')).toHaveText(/^\d+\s?s$/);
    await screenshot(app, info, 'demo-custom-beacon-en-1280');
    await expect(chip).toHaveAttribute('data-kind', 'escalated', { timeout: 10_000 });
    await expect(chip.locator('.chip-text')).toHaveText('🐢 Taking longer than usual — still on it.');
    await expect(chip.locator('.chip-elapsed')).toHaveText(/^\d+\s?s$/);
    await expect(statusArea(app).locator('[data-alert]')).toHaveCount(0);
    for (const language of ['en', 'zh-CN'] as const) {
      if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
      for (const width of [1280, 390]) {
        await app.setViewportSize({ width, height: 800 });
        // The person's words are theirs, in any UI language; the agent name and elapsed time stay beside them.
        await expect(chip.locator('.chip-text')).toHaveText('🐢 Taking longer than usual — still on it.');
        await expect(chip.locator('.chip-agent')).toHaveText('Demo');
        await expectNoHorizontalOverflow(app, `escalated chip ${language} ${width}px`);
        await screenshot(app, info, `demo-custom-escalation-${language}-${width}`);
      }
    }
    await expect(chip.locator('.chip-elapsed')).toHaveText(/^\d+\s?秒$|^\d+\s?s$/);
    await expect(chip).toHaveAttribute('data-status', 'delivered');
  });
});

test.describe('agentteam serve endpoints and CLI', () => {
  test('healthz, metrics with token, CLI send/messages and bad input', async ({ serve, request }) => {
    expect((await request.get(`${serve.origin}/healthz`)).status()).toBe(200);
    expect((await request.get(`${serve.origin}/metrics`)).status()).toBe(401);
    const sent = await serve.cli('send', '--target', '#general', '--text', '@demo ping');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^sent \S+ seq 1 to #general$/m);
    const msgs = JSON.parse((await serve.cli('messages', '--target', '#general', '--json')).stdout) as Array<{
      seq: number;
      author: string;
      content: string;
    }>;
    expect(msgs[0]).toMatchObject({ seq: 1, content: '@demo ping' });
    const metrics = await request.get(`${serve.origin}/metrics`, {
      headers: { authorization: `Bearer ${serve.token}` },
    });
    expect(metrics.status()).toBe(200);
    expect(await metrics.text()).toMatch(/wake_received_total\{runtime="demo"\} \d/);
    const bad = await serve.cli('send', '--target', 'general', '--text', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

test.describe('demo runtime: the beacon count on the chip (issue 40 item 7)', () => {
  // A beacon each second, up to 4; the quiet task outlasts the screenshots.
  test.use({ config: demoConfig({ thresholdSeconds: 1, maxBeacons: 4, demoTaskMs: 30_000 }) });

  test('a working chip counts its beacons, not only an icon change (en and 简体中文, 1280 and 390, light and dark)', async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo /slow');
    const chip = statusArea(app).locator('[data-wake]');
    const count = chip.locator('.chip-beacons');
    await expect(count).toHaveText('2 beacons', { timeout: 10_000 });
    await expect(chip).toHaveAttribute('data-kind', 'beacon');
    for (const language of ['en', 'zh-CN'] as const) {
      if (language === 'zh-CN') await useLanguage(app, serve, 'zh-CN');
      await expect(count).toHaveText(/^\d (beacons|次进度提示)$/);
      for (const width of [1280, 390]) {
        await app.setViewportSize({ width, height: 800 });
        await expectNoHorizontalOverflow(app, `beacon count ${language} ${width}`);
        for (const scheme of ['light', 'dark'] as const) {
          await app.emulateMedia({ colorScheme: scheme });
          await screenshot(app, info, `beacon-count-${language}-${width}-${scheme}`);
        }
      }
    }
    // The count the chip shows is the wake's own (the CLI's `beacons`).
    await expect(count).toHaveAttribute('data-beacons', '4', { timeout: 10_000 });
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ beacons: number }>;
    expect(rows[0]?.beacons).toBe(4);
    await serve.cli('stop', '--agent', 'demo');
  });
});
