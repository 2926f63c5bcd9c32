/**
 * What `npm start` gives a person on a machine with no Electron binary (issue 8): `agentteam
 * serve` on a data dir with no `agentteam.json`, so the daemon seeds its first-run config —
 * the demo agent and its helper plus every runtime CLI found on PATH (here this project's
 * node_modules/.bin: claude, codex, opencode) — and the person talks to the demo agent in
 * `#general`, then sees a hand-off with no LLM (issue 25: `@demo /ask helper …`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import {
  ROOT,
  demoConfig,
  expect,
  expectNoSeriousAxeViolations,
  screenshot,
  sendFromComposer,
  statusArea,
  test,
} from './fixtures.js';

// No config: the first run seeds it. PATH leads with node_modules/.bin, as under `npm start`.
test.use({ config: null, serveEnv: { PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` } });

test('first run: the seeded demo agent replies in #general; the CLIs on PATH are listed as agents', async ({
  app,
  serve,
}, info) => {
  await expect(app.getByRole('heading', { name: '#general', level: 1 })).toBeVisible();
  // issue 40 item 6: the empty #general welcomes the person: what to send the demo, and each CLI
  // found with its readiness, live — here none is signed in, so each names its sign-in command.
  const welcome = app.getByRole('region', { name: 'Welcome to AgentTeam' });
  await expect(welcome).toBeVisible();
  for (const t of ['@demo hello', '@demo /edit', '@demo /approve'])
    await expect(welcome.locator('code', { hasText: t })).toBeVisible();
  for (const [id, login] of [
    ['claude', 'claude login'],
    ['codex', 'codex login'],
    ['opencode', 'opencode auth login'],
  ] as const) {
    const row = welcome.locator(`li[data-welcome-agent="${id}"]`);
    await expect(row).toHaveAttribute('data-state', 'needs_sign_in', { timeout: 60_000 });
    await expect(row).toContainText('Needs sign-in');
    await expect(row.locator('code')).toHaveText(login);
    await expect(row.getByRole('button', { name: 'Retry' })).toBeVisible();
  }
  await expect(welcome.locator('li[data-welcome-agent="demo"]')).toHaveCount(0);
  await screenshot(app, info, 'first-run-welcome');
  for (const scheme of ['dark', 'light'] as const) {
    await app.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousAxeViolations(app, `first-run welcome, ${scheme}`);
  }
  // Retry checks again: still not signed in, and the row says so where it was clicked.
  await welcome.locator('li[data-welcome-agent="codex"]').getByRole('button', { name: 'Retry' }).click();
  await expect(welcome.locator('li[data-welcome-agent="codex"] [role="status"]')).toContainText('codex login');
  await sendFromComposer(app, '@demo hello');
  // The welcome belongs to the empty conversation: the first message takes its place.
  await expect(welcome).toHaveCount(0);
  const chip = statusArea(app).locator('[data-wake]');
  await expect(chip).toHaveAttribute('data-status', 'reply_sent');
  await expect(app.locator('article.message-agent')).toContainText('[demo]');
  await screenshot(app, info, 'first-run-demo-replied');

  await app.getByRole('button', { name: 'Agents' }).click();
  for (const [id, runtime] of [
    ['demo', 'demo'],
    ['helper', 'demo'],
    ['claude', 'claude-code'],
    ['codex', 'codex'],
    ['opencode', 'opencode'],
  ] as const) {
    await expect(app.locator(`tr[data-agent="${id}"]`)).toContainText(runtime);
  }
  await screenshot(app, info, 'first-run-agents');
  // issue 40 item 6: none of the CLIs is signed in here — each is available (neutral), none counts
  // on the Team badge, and no process of any of them runs (only their readiness probes ran, and ended).
  const states = async () => {
    const agents = JSON.parse((await serve.cli('agents', '--json')).stdout) as Array<{ id: string; state: string }>;
    return ['claude', 'codex', 'opencode'].map((id) => agents.find((a) => a.id === id)?.state);
  };
  await expect.poll(states, { timeout: 60_000 }).toEqual(['needs_sign_in', 'needs_sign_in', 'needs_sign_in']);
  await expect(app.locator('li[data-agent="claude"] .state-dot')).toHaveText('◇');
  const teamLink = app.getByRole('navigation').getByRole('button', { name: /^Team/ });
  await expect(teamLink).toBeVisible();
  await expect(teamLink.locator('.unread-badge')).toHaveCount(0);
  await expect.poll(() => runtimeProcessesOf(serve.dataDir), { timeout: 30_000 }).toEqual([]);
  const rows = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ agentId: string; status: string }>;
  expect(rows).toEqual([expect.objectContaining({ agentId: 'demo', status: 'reply_sent' })]);

  // issue 25 out of the box: the demo asks the seeded helper and posts what it answered.
  await app.getByRole('navigation').getByRole('button', { name: '#general' }).click();
  await sendFromComposer(app, '@demo /ask helper which test first?');
  await expect(app.locator('article.message-agent', { hasText: 'Helper answered' })).toBeVisible();
  const team = JSON.parse((await serve.cli('wakes', '--json')).stdout) as Array<{ agentId: string; status: string }>;
  expect(team.map((w) => [w.agentId, w.status]).sort()).toEqual(
    [
      ['demo', 'reply_sent'],
      ['demo', 'reply_sent'],
      ['helper', 'reply_sent'],
      // issue 38: the hand-back wake ends reply_sent: the demo's answer after it covers it (§9.2).
      ['demo', 'reply_sent'],
    ].sort(),
  );
});

/** The processes whose environment or command line names the data dir (the runtimes live under it), from /proc. */
function runtimeProcessesOf(dataDir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      if (/^\d+ \(.*\) Z /.test(stat)) continue;
      // The daemon itself (`agentteam serve --data-dir …`) is not a runtime.
      if (cmdline.includes('serve\0--data-dir')) continue;
      if (environ.includes(join(dataDir, 'runtimes')) || cmdline.includes(join(dataDir, 'runtimes')))
        found.push(cmdline.replaceAll('\0', ' ').slice(0, 80));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

test.describe('with the demo agents only', () => {
  test.use({ config: demoConfig() });

  // issue 39 "Plug-ins": the welcome names the CLIs to install as the daemon's runtime descriptors
  // offer them (agents.installable); the page names none itself.
  test('the empty welcome names the CLIs a person can install, in both languages', async ({ app, serve }, info) => {
    const cases = [
      ['en', 'Install one of Claude Code, Codex, OpenCode, Gemini CLI, Qwen Code, Copilot CLI, then add it'],
      ['zh-CN', '请安装 Claude Code、Codex、OpenCode、Gemini CLI、Qwen Code、Copilot CLI 中的任一个'],
    ] as const;
    for (const [language, text] of cases) {
      if (language !== 'en') await useLanguage(app, serve, language);
      const welcome = app.locator('[data-welcome]');
      await expect(welcome).toContainText(text);
      for (const size of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        for (const scheme of ['light', 'dark'] as const) {
          await app.setViewportSize(size);
          await app.emulateMedia({ colorScheme: scheme });
          await expectNoHorizontalOverflow(app, `welcome ${language} ${size.width} ${scheme}`);
          await screenshot(app, info, `welcome-install-${language}-${size.width}-${scheme}`);
        }
      }
    }
  });
});
