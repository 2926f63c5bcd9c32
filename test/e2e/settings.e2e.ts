/**
 * Settings (issue 17) against the real `agentteam serve`: agentteam.json is the one source of
 * channel settings. One explicit Save for every field with an unsaved mark, inline validation,
 * a save that rewrites only the changed keys of the file, an edit of the file on disk showing up
 * in the page, an invalid edit showing its error (the last valid settings stay), axe, no
 * horizontal overflow at 360 px, and screenshots at 1280 and 390 px in en and zh-CN.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { demoConfig, expect, expectNoSeriousAxeViolations, screenshot, test } from './fixtures.js';

const CONFIG_TEXT = `{
  "agents": [ { "id": "demo", "name": "Demo", "runtime": "demo" } ],
  "channels": {
    "local": {
      "silenceWatchdog": { "thresholdSeconds": 30 }
    }
  }
}
`;

/** What an editor's "atomic save" does: write a temp file, rename it over agentteam.json. */
async function editorSave(dataDir: string, text: string): Promise<void> {
  const temp = join(dataDir, '.agentteam.json.editor-tmp');
  await writeFile(temp, text);
  await rename(temp, join(dataDir, 'agentteam.json'));
}

async function openSettings(app: Page): Promise<void> {
  // Narrow screens (issue 17): the sidebar, with its Settings entry, is a drawer opened from the header.
  const drawer = app.getByRole('button', { name: /^Open conversations$|^打开会话列表$/ });
  if (await drawer.isVisible()) await drawer.click();
  await app.getByRole('button', { name: /^Settings$|^设置$/ }).click();
  await expect(app.getByRole('heading', { name: /^Settings$|^设置$/, level: 1 })).toBeVisible();
}

const row = (app: Page, field: string) => app.locator(`.settings-view [data-field="${field}"]`);
const status = (app: Page) => app.locator('.settings-view .settings-status');

/**
 * At phone width the sidebar becomes a drawer — the layout's part of issue 17, built beside this
 * page. Until it lands here, this stands in for it (the page gets the full width, as it will),
 * so the assertion below is about the settings page reflowing, not about today's fixed sidebar.
 */
async function asIfSidebarWereADrawer(app: Page): Promise<void> {
  await app.addStyleTag({
    content:
      '.shell { grid-template-columns: minmax(0, 1fr) !important } .shell > .sidebar { display: none !important }',
  });
}

/** No horizontal overflow: the document does not scroll sideways and nothing of the page passes its edge. */
async function expectNoHorizontalOverflow(app: Page, label: string): Promise<void> {
  // A string: the e2e tsconfig has no DOM types (the function runs in the page).
  const overflow = (await app.evaluate(`(() => {
    const doc = document.documentElement;
    const page = document.querySelector('.settings-view');
    if (page === null) return { scroll: 0, client: 0, pageScroll: 0, pageClient: 0, wide: ['no .settings-view'] };
    const edge = Math.min(page.getBoundingClientRect().right, doc.clientWidth);
    const wide = [...page.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > edge + 1)
      .map((el) => el.tagName.toLowerCase() + '.' + el.className);
    return { scroll: doc.scrollWidth, client: doc.clientWidth, pageScroll: page.scrollWidth, pageClient: page.clientWidth, wide: wide.slice(0, 5) };
  })()`)) as { scroll: number; client: number; pageScroll: number; pageClient: number; wide: string[] };
  expect(overflow.wide, `${label}: elements past the right edge`).toEqual([]);
  expect(overflow.scroll, `${label}: document scroll width`).toBeLessThanOrEqual(overflow.client);
  expect(overflow.pageScroll, `${label}: settings scroll width`).toBeLessThanOrEqual(overflow.pageClient);
}

test.describe('settings: agentteam.json is the one source', () => {
  test.beforeEach(async ({ serve }) => {
    // The fixture wrote JSON.stringify(config); this test wants a hand-formatted file to prove the minimal rewrite.
    await editorSave(serve.dataDir, CONFIG_TEXT);
  });
  // The same configuration as CONFIG_TEXT (so the rewrite below changes only the formatting).
  test.use({ config: JSON.parse(CONFIG_TEXT) as Record<string, unknown> });

  test('one explicit Save with an unsaved mark; the save rewrites only the changed key and says where', async ({
    app,
    serve,
  }) => {
    await openSettings(app);
    const threshold = app.getByLabel('Silence before a beacon (seconds)');
    // The page may have loaded before the beforeEach rewrite reached the daemon: wait for the file's value.
    await expect(threshold).toHaveValue('30');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds').locator('.sv-origin')).toHaveText(
      'Value from: agentteam.json',
    );
    await expect(row(app, 'silenceWatchdog.maxBeacons').locator('.sv-origin')).toHaveText('Value from: default');
    await expect(app.getByLabel('Delivery channel')).toHaveValue('local');
    await expect(app.getByLabel('Delivery channel').locator('option:checked')).toHaveText('Local (this app)');
    await expect(app.getByRole('button', { name: 'Save' })).toBeDisabled();

    await threshold.fill('90');
    await app.getByLabel('Beacons per turn before one escalation').fill('2');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds')).toHaveAttribute('data-dirty', 'true');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds')).toContainText('changed');
    await expect(status(app)).toHaveText('Unsaved changes');
    // Nothing reaches the file before Save.
    expect(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')).toBe(CONFIG_TEXT);

    await app.getByRole('button', { name: 'Save' }).click();
    await expect(status(app)).toHaveText('Saved to agentteam.json');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds')).toHaveAttribute('data-dirty', 'false');
    await expect(row(app, 'silenceWatchdog.maxBeacons').locator('.sv-origin')).toHaveText('Value from: agentteam.json');
    expect(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')).toBe(
      CONFIG_TEXT.replace('{ "thresholdSeconds": 30 }', '{ "thresholdSeconds": 90, "maxBeacons": 2 }'),
    );
    // The language is a UI preference: it stays out of agentteam.json.
    expect(JSON.parse(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8'))).not.toHaveProperty('language');

    // Discard drops a draft and the mark.
    await threshold.fill('15');
    await expect(status(app)).toHaveText('Unsaved changes');
    await app.getByRole('button', { name: 'Discard changes' }).click();
    await expect(threshold).toHaveValue('90');
    await expect(status(app)).toHaveText('');
  });

  test('inline validation in the page language; an invalid draft is never saved', async ({ app, serve }) => {
    await openSettings(app);
    const threshold = app.getByLabel('Silence before a beacon (seconds)');
    await expect(threshold).toHaveValue('30');
    await threshold.fill('abc');
    await expect(threshold).toHaveAttribute('aria-invalid', 'true');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds').locator('.sv-error')).toHaveText('⚠ Enter a number.');
    await threshold.fill('0');
    await expect(row(app, 'silenceWatchdog.thresholdSeconds').locator('.sv-error')).toHaveText(
      '⚠ Enter a number above 0, at most 86400.',
    );
    const retries = app.getByLabel('Retries when a reply provably never left');
    await retries.fill('1.5');
    await expect(row(app, 'responseDelivery.retryCount').locator('.sv-error')).toHaveText('⚠ Enter a whole number.');
    // The error is tied to its field for assistive technology.
    const describedBy = (await retries.getAttribute('aria-describedby')) ?? '';
    await expect(app.locator(`[id="${describedBy.split(' ')[0]}"]`)).toHaveText('⚠ Enter a whole number.');

    await app.getByRole('button', { name: 'Save' }).click();
    await expect(status(app)).toHaveText('Not saved: fix the highlighted fields first.');
    await expect(threshold).toBeFocused();
    expect(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')).toBe(CONFIG_TEXT);
    await retries.fill('3');
    await threshold.fill('12.5');
    await expect(app.locator('.settings-view .sv-error')).toHaveCount(0);
    await app.getByRole('button', { name: 'Save' }).click();
    await expect(status(app)).toHaveText('Saved to agentteam.json');
    const saved = JSON.parse(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8'));
    expect(saved.channels.local).toEqual({
      silenceWatchdog: { thresholdSeconds: 12.5 },
      responseDelivery: { retryCount: 3 },
    });
  });

  test('an edit of agentteam.json on disk shows up; an invalid one shows its error and the last valid settings stay', async ({
    app,
    serve,
  }, info) => {
    await openSettings(app);
    const threshold = app.getByLabel('Silence before a beacon (seconds)');
    await expect(threshold).toHaveValue('30');

    await editorSave(serve.dataDir, CONFIG_TEXT.replace('"thresholdSeconds": 30', '"thresholdSeconds": 8'));
    await expect(threshold).toHaveValue('8');

    await editorSave(serve.dataDir, CONFIG_TEXT.replace('"thresholdSeconds": 30', '"thresholdSeconds": "soon"'));
    const alert = app.locator('.settings-view [role="alert"]');
    await expect(alert).toContainText('agentteam.json has an error — the last valid settings stay in effect');
    await expect(alert).toContainText(
      `${join(serve.dataDir, 'agentteam.json')}: channels.local.silenceWatchdog.thresholdSeconds: expected a number, got "soon"`,
    );
    await expect(threshold).toHaveValue('8');
    await expectNoSeriousAxeViolations(app, 'settings with a config error');
    await screenshot(app, info, 'settings-config-error');

    // Saving while the file is broken is refused with the same message; the person's text stays.
    await app.getByLabel('Beacons per turn before one escalation').fill('4');
    await app.getByRole('button', { name: 'Save' }).click();
    await expect(status(app)).toContainText('Not saved:');
    await expect(status(app)).toContainText('Nothing was saved: fix agentteam.json first');
    expect(await readFile(join(serve.dataDir, 'agentteam.json'), 'utf8')).toContain('"soon"');

    // Agents changed on disk: "restart to apply".
    await editorSave(
      serve.dataDir,
      CONFIG_TEXT.replace('"thresholdSeconds": 30', '"thresholdSeconds": 9').replace('"Demo"', '"Demo agent"'),
    );
    await expect(alert).toHaveCount(0);
    await expect(threshold).toHaveValue('9');
    await expect(app.locator('.settings-view [data-restart-needed]')).toHaveText(
      '↻ Changes to agents in agentteam.json apply after AgentTeam restarts.',
    );
    // The field being edited keeps its draft through the external edit.
    await expect(app.getByLabel('Beacons per turn before one escalation')).toHaveValue('4');
  });
});

test.describe('settings: layout, language, accessibility', () => {
  test.use({ config: demoConfig() });

  for (const width of [1280, 390, 360]) {
    test(`at ${width} px: no horizontal overflow, no serious axe violations, en and zh-CN`, async ({ app }, info) => {
      await app.setViewportSize({ width, height: width > 800 ? 800 : 844 });
      await openSettings(app);
      if (width < 800) await asIfSidebarWereADrawer(app);
      await app.getByLabel('Silence before a beacon (seconds)').fill('-3');
      await expectNoHorizontalOverflow(app, `${width} en`);
      await expectNoSeriousAxeViolations(app, `settings ${width} en`);
      if (width !== 360) await screenshot(app, info, `settings-${width}-en`);
      await app.getByRole('button', { name: 'Discard changes' }).click();

      await app.getByLabel('Language').selectOption('zh-CN');
      // One save model: the language is a draft until Save, like every field.
      await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await expect(status(app)).toHaveText('Unsaved changes');
      await app.getByRole('button', { name: 'Save' }).click();
      await expect(app.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
      await expect(status(app)).toHaveText('已保存');
      await expect(app.getByLabel('投递渠道').locator('option:checked')).toHaveText('本地（本应用）');
      await app.getByLabel('静默多久后发送信标（秒）').fill('x');
      await expect(row(app, 'silenceWatchdog.thresholdSeconds').locator('.sv-error')).toHaveText('⚠ 请输入数字。');
      await expectNoHorizontalOverflow(app, `${width} zh-CN`);
      await app.emulateMedia({ colorScheme: 'dark' });
      await expectNoSeriousAxeViolations(app, `settings ${width} zh-CN dark`);
      await app.emulateMedia({ colorScheme: 'light' });
      if (width !== 360) await screenshot(app, info, `settings-${width}-zh`);
    });
  }
});

test.describe('CLI send to a channel that does not exist', () => {
  test.use({ config: demoConfig() });

  test('is an error unless --create; a typo makes no channel', async ({ app, serve }) => {
    const typo = await serve.cli('send', '--target', '#nope', '--text', 'hello');
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'agentteam: there is no channel #nope; check the name, or add --create to make it. (unknown_target)',
    );
    expect(typo.stdout).toBe('');
    // No conversation was made: the UI does not list it even after a reload.
    await app.reload();
    await expect(app.getByRole('button', { name: '#general' })).toBeVisible();
    await expect(app.getByRole('button', { name: '#nope' })).toHaveCount(0);

    const created = await serve.cli('send', '--target', '#nope', '--text', 'hello', '--create');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^sent \S+ seq 1 to #nope$/m);
    await expect(app.getByRole('button', { name: '#nope' })).toBeVisible();
    // An existing channel needs no flag.
    expect((await serve.cli('send', '--target', '#general', '--text', 'hi')).code).toBe(0);
  });
});
