/**
 * issue 14 in the browser (real Chromium, real `agentteam serve`): the agent detail's workspace
 * path field (an invalid path gets the daemon's error naming it, nothing is written; a valid one
 * is saved into agentteam.json and the agent restarts with it), the permission policy (⚠ for
 * `full`), and Revoke on an "always" rule — in English and 简体中文. The browser has no OS folder
 * picker: the "Choose folder…" button exists only in the desktop app.
 */
import type { Page } from '@playwright/test';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, expectNoSeriousAxeViolations, screenshot, test } from './fixtures.js';

test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
  config: async ({}, use) => {
    await use({
      agents: [
        {
          id: 'claude',
          name: 'Claude',
          runtime: 'claude-code',
          // No CLI is needed to choose a workspace: the restart then reads "CLI not found".
          command: 'agentteam-no-such-cli-4711',
          allow: ['Bash(ls)', 'Bash(npm test)'],
        },
        { id: 'demo', name: 'Demo', runtime: 'demo' },
      ],
      channels: { local: {} },
    });
  },
});

const detailOf = (page: Page) => page.locator('section.agent-detail[data-agent="claude"]');

async function openDetail(page: Page): Promise<void> {
  await page.locator('.agent-states li[data-agent="claude"]').getByRole('button').click();
  await expect(detailOf(page).getByRole('heading', { name: 'Claude', level: 1 })).toBeVisible();
}

async function chooseLanguage(page: Page, language: 'zh-CN'): Promise<void> {
  await page.getByRole('button', { name: /^Settings$|^设置$/ }).click();
  await page.getByLabel('Language').selectOption(language);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
}

const cleanup: string[] = [];
test.afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const configText = (dataDir: string) => readFile(join(dataDir, 'agentteam.json'), 'utf8');

test('the workspace path field: an invalid path is refused naming it, a valid one is saved and the agent restarts with it', async ({
  app,
  serve,
}, info) => {
  await openDetail(app);
  const detail = detailOf(app);
  const field = detail.getByLabel('Workspace folder');
  // No cwd configured: the agent's own folder under the data dir, never the data dir itself.
  await expect(field).toHaveValue(join(serve.dataDir, 'workspaces', 'claude'));
  // The browser has no OS folder picker (desktop app only).
  await expect(detail.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
  const save = detail.getByRole('button', { name: 'Save and restart' });
  await expect(save).toBeDisabled();
  await expect(detail).toContainText('restarts the agent');
  const before = await configText(serve.dataDir);

  const missing = join(serve.dataDir, 'no-such-project');
  await field.fill(missing);
  await save.click();
  const alert = detail.getByRole('alert');
  await expect(alert).toContainText(`does not exist: ${missing}`);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill('relative/project');
  await save.click();
  await expect(alert).toContainText('must be a full (absolute) path to a folder: "relative/project"');
  // issue 29: never a folder that contains or lies inside the data dir (the one with agentteam.json and the grants).
  await field.fill(dirname(serve.dataDir));
  await save.click();
  await expect(alert).toContainText(`(${dirname(serve.dataDir)}) contains AgentTeam's data folder ${serve.dataDir}`);
  await expect(alert).toContainText('Choose a project folder for agent "claude"');
  await field.fill(join(serve.dataDir, 'bin'));
  await save.click();
  await expect(alert).toContainText(`lies inside AgentTeam's data folder ${serve.dataDir}`);
  expect(await configText(serve.dataDir)).toBe(before);
  await screenshot(app, info, 'agent-workspace-invalid-en');

  // A project folder beside the data dir (never inside it: issue 29).
  const project = `${serve.dataDir}-project`;
  await mkdir(project);
  cleanup.push(project);
  await field.fill(project);
  await save.click();
  await expect(detail.getByRole('status').filter({ hasText: 'Saved to agentteam.json' })).toContainText(
    'The agent is restarting.',
  );
  await expect(detail.locator('[data-field="cwd"] code')).toHaveText(project);
  await expect(field).toHaveValue(project);
  await expect(alert).toHaveCount(0);
  expect(JSON.parse(await configText(serve.dataDir)).agents[0]).toMatchObject({ id: 'claude', cwd: project });
  // The agent row shows the new workspace too.
  await expect(app.locator('.agent-states li[data-agent="claude"]')).toContainText('-project');

  // The policy: ⚠ for full, saved the same way.
  await detail.getByLabel('Permissions', { exact: true }).selectOption('full');
  await expect(detail.locator('.as-warning')).toContainText('Every command and file edit runs without asking you.');
  await save.click();
  await expect(detail.locator('[data-field="permissions"]')).toHaveAttribute('data-permissions', 'full');
  await expect(detail.locator('[data-field="permissions"]')).toContainText('⚠');
  expect(JSON.parse(await configText(serve.dataDir)).agents[0]).toMatchObject({ permissions: 'full' });
  await expectNoSeriousAxeViolations(app, 'agent detail with the workspace form');
});

test('issue 29: rules written into agentteam.json need confirmation; Confirm grants one, Remove and Revoke take rules out, by keyboard', async ({
  app,
  serve,
}, info) => {
  await openDetail(app);
  const detail = detailOf(app);
  // The config was written as a file (as anyone able to edit it could): nothing is granted yet.
  const granted = detail.locator('ul[data-field="allow"] li');
  const waiting = detail.getByRole('group', { name: '⚠ Needs your confirmation' }).locator('li');
  await expect(granted).toHaveCount(0);
  await expect(waiting).toHaveCount(2);
  await expect(detail.getByRole('group', { name: '⚠ Needs your confirmation' })).toContainText(
    'you did not grant them here, so they are not applied',
  );
  await screenshot(app, info, 'agent-rules-en');
  const confirm = detail.getByRole('button', { name: 'Confirm Bash(npm test)' });
  await confirm.focus();
  await app.keyboard.press('Enter');
  await expect(granted).toHaveCount(1);
  await expect(granted.first().locator('code')).toHaveText('Bash(npm test)');
  await expect(waiting).toHaveCount(1);
  await expect(detail.getByRole('status').filter({ hasText: 'Confirmed' })).toHaveText(
    'Confirmed Bash(npm test): it is allowed from now on.',
  );
  await screenshot(app, info, 'agent-rules-confirmed-en');
  await detail.getByRole('button', { name: 'Remove Bash(ls)' }).click();
  await expect(waiting).toHaveCount(0);
  await expect(detail.getByRole('group', { name: '⚠ Needs your confirmation' })).toHaveCount(0);
  expect(JSON.parse(await configText(serve.dataDir)).agents[0].allow).toEqual(['Bash(npm test)']);
  await detail.getByRole('button', { name: 'Revoke Bash(npm test)' }).click();
  await expect(granted).toHaveCount(0);
  await expect(detail.getByRole('status').filter({ hasText: 'Revoked' })).toHaveText('Revoked Bash(npm test).');
  expect(JSON.parse(await configText(serve.dataDir)).agents[0].allow).toEqual([]);
  // What the CLI sees is the same file.
  const listed = JSON.parse((await serve.cli('agents', '--json')).stdout) as Array<{ id: string; cwd: string }>;
  expect(listed.find((a) => a.id === 'claude')).toBeDefined();
});

test('zh-CN: the form, the refusal and Revoke in 简体中文', async ({ app, serve }, info) => {
  await chooseLanguage(app, 'zh-CN');
  await openDetail(app);
  const detail = detailOf(app);
  await expect(detail.getByRole('heading', { name: '工作目录与权限', level: 2 })).toBeVisible();
  const field = detail.getByLabel('工作目录', { exact: true });
  await field.fill(join(serve.dataDir, 'nope'));
  await detail.getByRole('button', { name: '保存并重启' }).click();
  await expect(detail.getByRole('alert')).toContainText('无法使用该工作目录，未做任何更改。');
  await expect(detail.getByRole('alert')).toContainText(join(serve.dataDir, 'nope'));
  await expect(detail.getByLabel('权限', { exact: true })).toBeVisible();
  await screenshot(app, info, 'agent-workspace-invalid-zh-CN');
  await expect(detail.getByRole('group', { name: '⚠ 需要你确认' })).toContainText('只确认你自己添加的规则');
  await screenshot(app, info, 'agent-rules-zh-CN');
  // The rules at phone width: each rule and its two buttons fit.
  await app.setViewportSize({ width: 390, height: 844 });
  await detail.locator('.agent-rules').scrollIntoViewIfNeeded();
  await screenshot(app, info, 'agent-rules-zh-CN-390');
  await detail.getByRole('button', { name: '删除 Bash(npm test)' }).click();
  await expect(detail.getByRole('status').filter({ hasText: '已从' })).toHaveText(
    '已从 agentteam.json 删除 Bash(npm test)。',
  );
  expect(JSON.parse(await configText(serve.dataDir)).agents[0].allow).toEqual(['Bash(ls)']);
});

test('screens: the agent detail in light/dark, en/zh-CN, 1280/360 px, without horizontal overflow', async ({
  app,
}, info) => {
  for (const language of ['en', 'zh-CN'] as const) {
    await app.setViewportSize({ width: 1280, height: 900 });
    if (language === 'zh-CN') await chooseLanguage(app, 'zh-CN');
    for (const width of [1280, 360]) {
      await app.setViewportSize({ width, height: 900 });
      if (width === 360) {
        // The sidebar is a drawer at this width.
        await app.getByRole('button', { name: /^Open conversations$|^打开会话列表$/ }).click();
      }
      await openDetail(app);
      const detail = detailOf(app);
      await detail.getByLabel(language === 'en' ? 'Permissions' : '权限', { exact: true }).selectOption('full');
      for (const scheme of ['light', 'dark'] as const) {
        await app.emulateMedia({ colorScheme: scheme });
        const overflow = await app.evaluate(() => {
          const d = (
            globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
          ).document.documentElement;
          return d.scrollWidth - d.clientWidth;
        });
        expect(overflow, `${language} ${width}px ${scheme}: no horizontal overflow`).toBeLessThanOrEqual(0);
        await screenshot(app, info, `agent-detail-${language}-${width}-${scheme}`);
      }
      await detail.getByLabel(language === 'en' ? 'Permissions' : '权限', { exact: true }).selectOption('ask');
    }
  }
});
