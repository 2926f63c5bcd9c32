/**
 * Search across conversations (issue 17) against the real `agentteam serve` (SQLite FTS5 in the
 * store): results with marked snippets (text, never markup), a result opens in context — also an
 * old message outside the loaded page, also inside a thread — keyboard (/, Ctrl+F, arrows, Esc),
 * a full-screen sheet at 360 px with no horizontal overflow, and axe.
 */
import type { Page } from '@playwright/test';
import { apiCall, expectInside, expectNoHorizontalOverflow, mainLog, useLanguage } from './chat-helpers.js';
import { demoConfig, expect, expectNoSeriousAxeViolations, screenshot, test, type ServeHandle } from './fixtures.js';

test.use({ config: demoConfig() });

const searchBox = (page: Page) => page.getByRole('searchbox', { name: /Search messages|搜索消息/ });
const hits = (page: Page) => page.locator('#search-results button.search-hit');

async function send(page: Page, serve: ServeHandle, target: string, content: string) {
  return apiCall<{ messageId: string; seq: number }>(page, serve, 'messages.send', { target, content });
}

/** An old message (seq 1) followed by more than one page (200) of others: opening it needs `aroundSeq`. */
async function seedHistory(page: Page, serve: ServeHandle): Promise<void> {
  await send(page, serve, '#general', 'The needle is in the <b>haystack</b>; 我们今天讨论部署问题');
  await page.evaluate(
    async ({ origin, token, operatorKey }) => {
      // Calls only (no pushed events): each message on this socket is one of the 230 answers. As the
      // operator (issue 41: the serve token alone posts nothing).
      const ws = new WebSocket(
        `${origin.replace(/^http/, 'ws')}/api?token=${encodeURIComponent(token)}&operator=${encodeURIComponent(operatorKey)}&events=none`,
      );
      await new Promise((r) => (ws.onopen = r));
      let left = 230;
      await new Promise<void>((resolve) => {
        ws.onmessage = () => (--left === 0 ? resolve() : undefined);
        for (let i = 1; i <= 230; i += 1)
          ws.send(
            JSON.stringify({ id: i, call: 'messages.send', request: { target: '#general', content: `filler ${i}` } }),
          );
      });
      ws.close();
    },
    { origin: serve.origin, token: serve.token, operatorKey: serve.operatorKey },
  );
}

test('finds a message across the history, marks the words, opens it in context; keyboard only', async ({
  app,
  serve,
}, info) => {
  await seedHistory(app, serve);
  await app.reload();
  await expect(mainLog(app).locator('article[data-message]').last()).toContainText('filler 230');

  // "/" focuses the search from anywhere outside a text field.
  await mainLog(app).focus();
  await app.keyboard.press('/');
  await expect(searchBox(app)).toBeFocused();
  await app.keyboard.type('needle haystack');
  await expect(hits(app)).toHaveCount(1);
  await expect(app.locator('#search-results [role="status"]')).toHaveText('1 result');
  await expect(hits(app).first().locator('mark')).toHaveText(['needle', 'haystack']);
  // The snippet is text: "<b>" is shown, never parsed.
  await expect(hits(app).first()).toContainText('<b>haystack</b>');
  await expect(app.locator('#search-results b')).toHaveCount(0);
  await screenshot(app, info, 'search-results-1280');
  await expectNoSeriousAxeViolations(app, 'search results 1280');

  await app.keyboard.press('ArrowDown');
  await expect(hits(app).first()).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(hits(app)).toHaveCount(0);
  const found = mainLog(app).locator('article[data-seq="1"]');
  await expect(found).toHaveClass(/\bfound\b/);
  await expect(found).toBeFocused();
  await expectInside(found, mainLog(app), 'the found message');
  await screenshot(app, info, 'search-opened-1280');

  // The window around seq 1 is not the newest page: "Jump to latest" brings it.
  await app.getByRole('button', { name: /Jump to latest/ }).click();
  await expectInside(mainLog(app).getByText('filler 230', { exact: true }), mainLog(app), 'the newest message');

  // Ctrl+F focuses it too; Chinese words inside a sentence are found (trigram, and LIKE for 2 characters).
  await app.keyboard.press('Control+f');
  await expect(searchBox(app)).toBeFocused();
  await app.keyboard.type('部署');
  await expect(hits(app)).toHaveCount(1);
  await expect(hits(app).first().locator('mark')).toHaveText('部署');
  // Esc closes: results gone, the query cleared.
  await app.keyboard.press('Escape');
  await expect(app.locator('#search-results')).toHaveCount(0);
  await expect(searchBox(app)).toHaveValue('');

  // Syntax in the query is text, not an error.
  await searchBox(app).fill('"AND (');
  await expect(app.locator('#search-results [role="status"]')).toHaveText('No messages match ""AND (".');
});

test('a result inside a thread opens the thread pane at the message; zh-CN copy', async ({ app, serve }) => {
  const root = await send(app, serve, '#general', 'root of the thread');
  const thread = await apiCall<{ target: string }>(app, serve, 'threads.start', { messageId: root.messageId });
  await send(app, serve, thread.target, 'only in the thread: xyzzy');
  await useLanguage(app, serve, 'zh-CN');
  await searchBox(app).fill('xyzzy');
  await expect(hits(app)).toHaveCount(1);
  await expect(app.locator('#search-results [role="status"]')).toHaveText('1 条结果');
  await expect(hits(app).first()).toContainText('#general 中的话题');
  await hits(app).first().click();
  const pane = app.locator(`aside.thread-pane[data-thread="${thread.target}"]`);
  await expect(pane.locator('article.found')).toContainText('xyzzy');
});

test('at 360 px the search is a full-screen sheet: no horizontal overflow, axe clean, a result opens', async ({
  app,
  serve,
}, info) => {
  await send(app, serve, '#general', 'deploy checklist: migrate the store first');
  await send(app, serve, '#general', 'deploy done');
  await app.setViewportSize({ width: 360, height: 740 });
  await expectNoHorizontalOverflow(app, 'conversation 360 with search');
  await searchBox(app).fill('deploy');
  await expect(hits(app)).toHaveCount(2);
  const sheet = app.locator('.search.open');
  const box = await sheet.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 360, height: 740 });
  await expectNoHorizontalOverflow(app, 'search sheet 360');
  await expectNoSeriousAxeViolations(app, 'search sheet 360');
  await screenshot(app, info, 'search-sheet-360');
  await hits(app).last().click();
  await expect(sheet).toHaveCount(0);
  await expect(mainLog(app).locator('article.found')).toContainText('migrate the store');
});
