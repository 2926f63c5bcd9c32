/**
 * issue 15 in the browser, against the real `agentteam serve` and the real Claude Code CLI:
 * the serve fixture gives the runtimes an empty HOME, so the person has no Claude login and the
 * agent's env has no key → "Needs sign-in" with the one-sentence fix, before anyone mentions it;
 * a command that does not exist → "CLI not found". The agent detail view (runtime, CLI version,
 * workspace, readiness; Retry re-checks through `agents.check`), and a mention of the agent that
 * is not signed in: the wake ends `failed` with `auth_required`, and the chip's Details lead with
 * the plain words and the fix, the raw detail below in monospace — in English and 简体中文.
 */
import type { Page, WebSocket } from '@playwright/test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ROOT,
  expect,
  expectNoSeriousAxeViolations,
  screenshot,
  sendFromComposer,
  statusArea,
  test,
} from './fixtures.js';

interface FakeModel {
  readonly url: string;
  readonly requests: ReadonlyArray<{ readonly path: string }>;
  close(): Promise<void>;
}

const fakeModule = pathToFileURL(join(ROOT, 'test', 'fixtures', 'fake-anthropic.ts')).href;
const CLAUDE = join(ROOT, 'node_modules', '.bin', 'claude');
const FIX_EN = 'Run `claude login` in a terminal, then Retry.';
const FIX_ZH = '请在终端运行 `claude login`，然后点重试。';
/** As the page shows a fix sentence: its backticked command as code (fix-text.tsx), so without the backticks. */
const shown = (sentence: string) => sentence.replaceAll('`', '');
let fake: FakeModel;

test.beforeAll(async () => {
  const mod = (await import(fakeModule)) as { startFakeAnthropic(): Promise<FakeModel> };
  fake = await mod.startFakeAnthropic();
});
test.afterAll(async () => {
  await fake?.close();
});

/** The Claude agent of these tests: an endpoint and no key, so sign-in is the CLI login this HOME lacks. */
const claudeAgent = () => ({
  id: 'claude',
  name: 'Claude',
  runtime: 'claude-code' as const,
  command: CLAUDE,
  // An endpoint and no key: sign-in is the person's CLI login (auth "cli-login"), which this HOME lacks.
  env: {
    ANTHROPIC_BASE_URL: fake.url,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
  },
});

test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
  config: async ({}, use) => {
    await use({
      agents: [
        claudeAgent(),
        { id: 'codex', name: 'Codex', runtime: 'codex', command: 'agentteam-no-such-cli-4711' },
        { id: 'demo', name: 'Demo', runtime: 'demo' },
      ],
      channels: { local: {} },
    });
  },
});

const agentRow = (page: Page, id: string) => page.locator(`.agent-states li[data-agent="${id}"]`);

async function chooseLanguage(page: Page, language: 'zh-CN'): Promise<void> {
  await page.getByRole('button', { name: /^Settings$|^设置$/ }).click();
  await page.getByLabel('Language').selectOption(language);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
}

/** The API call names the page sends over its WebSocket, from now on. */
function sentCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('websocket', (ws: WebSocket) => {
    ws.on('framesent', (f) => {
      try {
        const frame = JSON.parse(String(f.payload)) as { call?: string };
        if (typeof frame.call === 'string') calls.push(frame.call);
      } catch {
        // not an API frame
      }
    });
  });
  return calls;
}

test('readiness in the sidebar and the agent detail; Retry re-checks; no serious axe violations', async ({
  page,
  serve,
}, info) => {
  const calls = sentCalls(page);
  await page.goto(serve.url);
  // Before anyone mentions them: the rows say which agent is not ready and why.
  const claude = agentRow(page, 'claude');
  await expect(claude).toHaveAttribute('data-readiness', 'needs_sign_in', { timeout: 30_000 });
  await expect(claude).toContainText('Claude Code');
  await expect(claude).toContainText('Needs sign-in');
  await expect(claude.getByRole('button')).toHaveAttribute('title', FIX_EN);
  await expect(agentRow(page, 'codex')).toHaveAttribute('data-readiness', 'cli_missing');
  await expect(agentRow(page, 'codex')).toContainText('CLI not found');
  await expect(agentRow(page, 'demo')).toHaveAttribute('data-readiness', 'ready');
  await screenshot(page, info, 'sign-in-sidebar');

  await claude.getByRole('button').click();
  const detail = page.locator('section.agent-detail[data-agent="claude"]');
  await expect(detail.getByRole('heading', { name: 'Claude', level: 1 })).toBeVisible();
  await expect(detail.locator('[data-field="runtime"]')).toHaveText('Claude Code');
  await expect(detail.locator('[data-field="cli-version"]')).toHaveText(/\d+\.\d+\.\d+/);
  await expect(detail.locator('[data-field="cwd"] code')).toHaveText(/^\/.+/);
  await expect(detail.locator('[data-field="auth"]')).toHaveText('your CLI login');
  const readiness = detail.locator('[data-field="readiness"]');
  await expect(readiness).toHaveAttribute('data-readiness', 'needs_sign_in');
  await expect(readiness.locator('strong')).toHaveText('Needs sign-in');
  await expect(readiness.locator('.readiness-fix')).toHaveText(shown(FIX_EN));
  await expect(readiness.locator('.readiness-fix code')).toHaveText('claude login');
  await expectNoSeriousAxeViolations(page, 'agent detail');
  await screenshot(page, info, 'sign-in-agent-detail');

  // Retry asks the daemon to check again (no model call) and the view keeps the answer.
  const before = calls.filter((c) => c === 'agents.check').length;
  await detail.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => calls.filter((c) => c === 'agents.check').length).toBe(before + 1);
  await expect(detail.getByRole('button', { name: 'Retry' })).toBeEnabled();
  await expect(readiness).toHaveAttribute('data-readiness', 'needs_sign_in');
  expect(fake.requests.filter((r) => r.path.endsWith('/v1/messages'))).toEqual([]);

  // `agentteam agents --json` prints the same state and sentence.
  const rows = JSON.parse((await serve.cli('agents', '--json')).stdout) as Array<{ id: string; fix: string | null }>;
  expect(rows.find((r) => r.id === 'claude')).toMatchObject({ state: 'needs_sign_in', ready: false, fix: FIX_EN });
});

for (const language of ['en', 'zh-CN'] as const) {
  test(`a mention of the agent that is not signed in fails with auth_required; Details lead with the fix (${language})`, async ({
    app,
    serve,
  }, info) => {
    if (language === 'zh-CN') {
      await chooseLanguage(app, 'zh-CN');
      await app.getByRole('button', { name: '#general' }).first().click();
    }
    await sendFromComposer(app, '@claude can you check the logs?');
    const chip = statusArea(app).locator('[data-wake]');
    await expect(chip).toHaveAttribute('data-status', 'failed', { timeout: 45_000 });
    const details = chip.getByRole('button', { name: language === 'en' ? 'Details' : '详情' });
    await details.click();
    const text = chip.locator('.chip-detail-text');
    const words = text.locator('.failure-words');
    await expect(words).toHaveText(
      shown(language === 'en' ? `Claude Code isn't signed in. ${FIX_EN}` : `Claude Code 尚未登录。${FIX_ZH}`),
    );
    // issue 40 item 5: no raw runtime line as the reason or right under it — it follows the words
    // only when the person opens Raw detail, in monospace.
    const raw = text.locator('.failure-raw');
    await expect(raw).toHaveCount(0);
    await expect(text).not.toContainText(/terminal_reason|Not logged in/);
    const rawToggle = text.getByRole('button', { name: language === 'en' ? 'Raw detail' : '原始信息' });
    await expect(rawToggle).toHaveAttribute('aria-expanded', 'false');
    await rawToggle.click();
    await expect(rawToggle).toHaveAttribute('aria-expanded', 'true');
    await expect(raw).not.toBeEmpty();
    expect(await raw.evaluate((el) => (el as unknown as { tagName: string }).tagName)).toBe('CODE');
    expect(
      await raw.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }).getComputedStyle(el)
            .fontFamily,
      ),
    ).toMatch(/mono/i);
    const [wordsBox, rawBox] = [await words.boundingBox(), await raw.boundingBox()];
    expect(wordsBox !== null && rawBox !== null && rawBox.y >= wordsBox.y + wordsBox.height - 1).toBe(true);
    await screenshot(app, info, `sign-in-failed-details-${language}`);

    const wakes = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ agentId: string }>;
    expect(wakes).toEqual([expect.objectContaining({ agentId: 'claude', status: 'failed', reason: 'auth_required' })]);
  });
}

test.describe('no outcome is hidden (issue 24)', () => {
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
    config: async ({}, use) => {
      await use({
        agents: [claudeAgent(), { id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '20000' } }],
        channels: { local: {} },
      });
    },
  });

  test("a message to two agents: one's failure shows while the other works, and after it replies; dismissable", async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo @claude /slow please, both of you');
    const area = statusArea(app);
    const claude = area.locator('[data-wake][data-status="failed"]', { hasText: 'Claude' });
    const demo = area.locator('[data-wake]', { hasText: 'Demo' });
    await expect(claude).toHaveCount(1, { timeout: 45_000 });
    await expect(claude).toContainText("Couldn't complete");
    // The failure is on screen while Demo still works.
    await expect(demo).toHaveAttribute('data-status', 'delivered');
    await expect(area.locator('[data-wake]')).toHaveCount(2);
    await screenshot(app, info, 'two-agents-failed-beside-working');
    // Demo replies: both outcomes stay, in the one status area, never under the messages.
    await expect(demo).toHaveAttribute('data-status', 'reply_sent', { timeout: 30_000 });
    await expect(claude).toHaveCount(1);
    await expect(app.locator('article.message-agent')).toHaveCount(1);
    await expect(app.getByRole('status', { name: 'Agent status' })).toHaveCount(1);
    await expect(app.getByRole('log').locator('[data-status]')).toHaveCount(0);
    await screenshot(app, info, 'two-agents-failed-beside-replied');
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ agentId: string }>;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agentId: 'claude', status: 'failed', reason: 'auth_required' }),
        expect.objectContaining({ agentId: 'demo', status: 'reply_sent' }),
      ]),
    );
    // The person dismisses the failure from the keyboard; it stays dismissed after a reload.
    await claude.getByRole('button', { name: 'Dismiss the outcome of Claude' }).focus();
    await app.keyboard.press('Enter');
    await expect(claude).toHaveCount(0);
    await expect(demo).toHaveAttribute('data-status', 'reply_sent');
    await app.reload();
    await expect(area.locator('[data-wake]', { hasText: 'Demo' })).toHaveAttribute('data-status', 'reply_sent');
    await expect(claude).toHaveCount(0);
  });
});

test.describe('our own refusals are visible', () => {
  test.use({
    config: {
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '0' } }],
      channels: { local: {} },
      limits: { sendsPerMinute: 1 },
    },
  });

  test('a wake whose sends were rate-limited ends without a reply, and its Details say so in neutral words', async ({
    app,
    serve,
  }, info) => {
    await sendFromComposer(app, '@demo hello');
    const chips = statusArea(app).locator('[data-wake]');
    await expect(chips.first()).toHaveAttribute('data-status', 'reply_sent');
    await sendFromComposer(app, '@demo again');
    const chip = statusArea(app).locator('[data-wake][data-status="completed_without_visible_reply"]');
    await expect(chip).toContainText('Received — back to idle');
    await chip.locator('.chip-main').click();
    const details = app.locator('aside.inspector .failure-details');
    await details.locator('summary').click();
    await expect(details.locator('summary')).toHaveText('Details');
    await expect(details.locator('.failure-words')).toHaveText(
      "AgentTeam refused this agent's message: its per-minute message limit was reached.",
    );
    await expect(details.locator('.failure-raw')).toHaveCount(0);
    await details.getByRole('button', { name: 'Raw detail' }).click();
    await expect(details.locator('.failure-raw')).toContainText('message_send refused: rate_limited');
    await expect(details).not.toContainText(/fail|did not|didn't|should have/i);
    // The timeline row of the refusal says it in the same words.
    await expect(
      app.locator('aside.inspector .timeline [data-kind="alert"]', { hasText: 'per-minute message limit' }).first(),
    ).toBeVisible();
    await screenshot(app, info, 'refusal-rate-limited-details');
    const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ status: string; detail: string }>;
    expect(rows.map((r) => r.status)).toEqual(['reply_sent', 'completed_without_visible_reply']);
  });
});
