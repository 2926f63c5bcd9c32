/**
 * The renderer against the real `agentteam serve` driving the real Claude Code CLI, pointed
 * at the scripted fake Anthropic API (test/fixtures/fake-anthropic.ts). Covers the two
 * outcomes the person must read correctly (contract §10.3):
 * - no reply (the agent has message_send but answers in local text, and again after the one
 *   final-check: the fake's `[[local-twice]]`) → the neutral "Received — back to idle", never
 *   wording that the agent failed to answer;
 * - an API error → "Couldn't complete", with details only when expanded.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { FORBIDDEN_NO_REPLY_COPY, ROOT, expect, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

interface FakeModel {
  readonly url: string;
  readonly requests: ReadonlyArray<{
    readonly tools: readonly string[];
    readonly reply: { readonly kind: string; readonly script: string } | null;
  }>;
  close(): Promise<void>;
}

// The fake model is another part's fixture; loaded by path so this spec fails loudly (not at
// type-check time) if it moves.
const fakeModule = pathToFileURL(join(ROOT, 'test', 'fixtures', 'fake-anthropic.ts')).href;
const CLAUDE = join(ROOT, 'node_modules', '.bin', 'claude');
let fake: FakeModel;

test.beforeAll(async () => {
  const mod = (await import(fakeModule)) as { startFakeAnthropic(): Promise<FakeModel> };
  fake = await mod.startFakeAnthropic();
});
test.afterAll(async () => {
  await fake?.close();
});

function claudeAgent(id: string, name: string) {
  return {
    id,
    name,
    runtime: 'claude-code',
    command: CLAUDE,
    env: {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'sk-fake',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    },
  };
}

test.describe('real Claude Code CLI with the fake model', () => {
  // The config needs the fake's URL, known only after beforeAll: write it through a getter.
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
    config: async ({}, use) => {
      await use({
        // The demo agent too, for a conversation with two agents at once. Its /slow task (50 s) outlasts
        // Claude's no-reply turn however loaded the machine (issue 44: beside Vitest that turn took over
        // 30 s; 6 s was enough on a quiet machine only).
        agents: [
          claudeAgent('claude', 'Claude'),
          { id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '50000' } },
        ],
        channels: { local: {} },
      });
    },
  });

  test('a reply through message_send shows "Replied"', async ({ app }) => {
    await sendFromComposer(app, '@claude please answer [[tool]]');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'reply_sent', { timeout: 45_000 });
    await expect(app.locator('article.message-agent')).toContainText('Reply from the fake model.');
  });

  test('no reply: neutral "Received — back to idle", no message, no failure wording', async ({ app, serve }, info) => {
    const before = fake.requests.length;
    // The agent has message_send (and is told its exact name) yet answers in local text, and
    // again after the one final-check (contract §6.4, §12 "final-check 后第二次 no-reply").
    await sendFromComposer(app, '@claude think about it [[local]] [[local-twice]]');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'completed_without_visible_reply', { timeout: 60_000 });
    await expect(chip).toContainText('Received — back to idle');
    // issue 24 (watchdog spec B): the turn's one no-response alert is a neutral status line beside the chip, not hidden by it.
    const line = statusArea(app).locator('[data-alert="no_response"]');
    await expect(line).toHaveCount(1);
    await expect(line).toHaveAttribute('data-alert-wake', (await chip.getAttribute('data-wake')) ?? '');
    await expect(line).toContainText('Claude');
    await expect(line).toContainText('Turn ended without a message');
    await expect(statusArea(app)).not.toContainText(FORBIDDEN_NO_REPLY_COPY);
    // Runtime text is never relayed: no agent message appears, and no status under messages.
    await expect(app.locator('article.message-agent')).toHaveCount(0);
    await expect(app.getByRole('log').locator('[data-status]')).toHaveCount(0);
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{
      status: string;
      reason: string | null;
      finalCheck: boolean;
    }>;
    expect(rows).toEqual([
      expect.objectContaining({ status: 'completed_without_visible_reply', reason: 'no_reply', finalCheck: true }),
    ]);
    // The model was offered the send tool, saw exactly one final-check, and never called the tool.
    const turns = fake.requests
      .slice(before)
      .filter((r) => r.reply !== null && r.tools.includes('mcp__agentteam__message_send'));
    expect(turns.length).toBeGreaterThanOrEqual(2);
    expect(turns.filter((r) => r.reply?.script === 'local_twice')).toHaveLength(1);
    expect(turns.filter((r) => r.reply?.kind === 'tool')).toEqual([]);
    // contract §6.1, §6.5: the local answers the model printed are nowhere: not in the page, not stored.
    const localTexts = ['Here is my full answer, printed locally only.', 'Still printing my answer locally only.'];
    expect(turns.map((r) => r.reply?.script)).toEqual(expect.arrayContaining(['local', 'local_twice']));
    const messages = (await serve.cli('messages', '--target', '#general', '--json')).stdout;
    for (const text of localTexts) {
      await expect(app.locator('body')).not.toContainText(text);
      expect(messages).not.toContain(text);
    }
    await screenshot(app, info, 'claude-no-reply');
    for (const language of ['en', 'zh-CN'] as const) {
      if (language === 'zh-CN') {
        // From Settings, as a person does (a reload would start a page that never saw the live alert).
        await app.setViewportSize({ width: 1280, height: 800 });
        await app.getByRole('button', { name: /^Settings$/ }).click();
        await app.getByLabel('Language').selectOption('zh-CN');
        await app.getByRole('button', { name: 'Save' }).click();
        await expect(app.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
        await app.getByRole('button', { name: '#general' }).click();
      }
      for (const width of [1280, 390]) {
        await app.setViewportSize({ width, height: 800 });
        await expect(line).toContainText(language === 'en' ? 'Turn ended without a message' : '本轮结束，未发送消息');
        await expect(statusArea(app)).not.toContainText(FORBIDDEN_NO_REPLY_COPY);
        await expectNoHorizontalOverflow(app, `no-response line ${language} ${width}px`);
        await screenshot(app, info, `claude-no-response-line-${language}-${width}`);
      }
    }
    await useLanguage(app, serve, 'en');
    await app.setViewportSize({ width: 1280, height: 800 });
    // The inspector shows the one final-check prompt the daemon injected, and still none of the local text.
    await chip.locator('.chip-main').click();
    const inspector = app.locator('aside.inspector');
    await expect(inspector.locator('[data-prompt-kind="final_check"]')).toHaveCount(1);
    for (const text of localTexts) await expect(inspector).not.toContainText(text);
    // The no-response alert row names itself in the same neutral words; every row's time stays inside the drawer.
    await expect(inspector.locator('.timeline [data-kind="alert"]')).toContainText('Turn ended without a message');
    // The drawer's own copy is neutral too (the prompt_input entries quote the daemon's prompts verbatim, so they are not UI copy).
    await expect(inspector.locator('.inspector-facts')).not.toContainText(FORBIDDEN_NO_REPLY_COPY);
    await expect(inspector.locator('.timeline')).not.toContainText(FORBIDDEN_NO_REPLY_COPY);
    const drawer = await inspector.boundingBox();
    for (const time of await inspector.locator('.timeline time').all()) {
      const box = await time.boundingBox();
      expect(box !== null && drawer !== null && box.x + box.width <= drawer.x + drawer.width).toBe(true);
    }
    await screenshot(app, info, 'claude-no-reply-inspector');
  });

  test('API error: "Couldn\'t complete", failure details only when expanded', async ({ app }, info) => {
    await sendFromComposer(app, '@claude break [[error400]]');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
    await expect(chip).toContainText("Couldn't complete");
    const details = chip.getByRole('button', { name: 'Details' });
    await expect(details).toHaveAttribute('aria-expanded', 'false');
    await expect(chip.locator('.chip-detail-text')).toHaveCount(0);
    await screenshot(app, info, 'claude-failed-collapsed');
    await details.click();
    await expect(details).toHaveAttribute('aria-expanded', 'true');
    await expect(chip.locator('.chip-detail-text')).toBeVisible();
    await screenshot(app, info, 'claude-failed-expanded');
  });

  test('two agents at once: a no-reply that ends while the other works keeps its own chip, named, neutral', async ({
    app,
  }, info) => {
    test.setTimeout(180_000);
    await sendFromComposer(app, '@demo /slow and @claude think about it [[local]] [[local-twice]]');
    const area = statusArea(app);
    const demoChip = area.locator('[data-wake]', { hasText: 'Demo' });
    const claudeChip = area.locator('[data-wake]', { hasText: 'Claude' });
    await expect(area.locator('[data-wake]')).toHaveCount(2);
    // issue 24: Claude ends without a visible reply while the demo still works; its outcome keeps its
    // own chip beside the active one (one chip per addressed agent of the round), neutral in words and look.
    await expect(claudeChip).toHaveAttribute('data-status', 'completed_without_visible_reply', { timeout: 50_000 });
    await expect(claudeChip).toContainText('Received — back to idle');
    await expect(area.locator('[data-wake]')).toHaveCount(2);
    await expect(demoChip).toHaveAttribute('data-status', /^(queued|delivered)$/);
    await expect(area).not.toContainText(FORBIDDEN_NO_REPLY_COPY);
    // Neutral in look too: not the warning border a failure or an escalation gets.
    // Runs in the page (this file type-checks without the DOM lib).
    const border = (el: unknown) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopColor: string } }).getComputedStyle(el)
        .borderTopColor;
    expect(await claudeChip.evaluate(border)).toBe(await demoChip.evaluate(border));
    await screenshot(app, info, 'two-agents-one-active');
    await expect(demoChip).toHaveAttribute('data-status', 'reply_sent', { timeout: 65_000 });
    // After the reply both outcomes of the round stay on screen; only the demo's is a message.
    await expect(claudeChip).toHaveAttribute('data-status', 'completed_without_visible_reply');
    await expect(area.locator('[data-wake]')).toHaveCount(2);
    await expect(app.locator('article.message-agent')).toHaveCount(1);
  });
});
