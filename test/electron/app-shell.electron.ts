/**
 * The Electron shell, end to end (issue 9): hardened webPreferences read back from the live
 * window, the CSP blocking an injected inline script, window.open and navigation refused, the
 * preload API exactly as the contract, a full wake flow with the demo runtime, and the status area.
 * Waits on events and locators, never on time.
 */
import type { ClientApi } from '../../shared/api/contract.js';
import { expect, test } from './fixtures.js';

/**
 * The page's globals as these tests use them. The project's Node tsconfig has no DOM lib, and a
 * function given to `page.evaluate` runs in the page, so each one casts `globalThis` inline.
 */
interface PageGlobals {
  agentteam: ClientApi;
  __inlineScriptRan?: boolean;
  require?: unknown;
  process?: unknown;
  location: { href: string };
  open(url: string): unknown;
  document: {
    head: { append(node: unknown): void };
    createElement(tag: 'script'): { textContent: string };
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (event: { effectiveDirective: string }) => void,
      options: { once: boolean },
    ): void;
  };
}
type WithLastPreferences = { getLastWebPreferences(): Record<string, unknown> };

test('the window runs with the hardened webPreferences, from app://, with no Node in the page', async ({
  app,
  page,
}) => {
  const prefs = await app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows().map((w) => (w.webContents as unknown as WithLastPreferences).getLastWebPreferences()),
  );
  expect(prefs).toHaveLength(1);
  expect(prefs[0]).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
  });
  expect(page.url()).toBe('app://agentteam/index.html');
  expect(
    await page.evaluate(() => [
      typeof (globalThis as unknown as PageGlobals).require,
      typeof (globalThis as unknown as PageGlobals).process,
    ]),
  ).toEqual(['undefined', 'undefined']);
});

test('the CSP blocks an injected inline script', async ({ page }) => {
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; directive: string }>((resolve) => {
        const g = globalThis as unknown as PageGlobals;
        g.document.addEventListener(
          'securitypolicyviolation',
          (e) => resolve({ ran: g.__inlineScriptRan === true, directive: e.effectiveDirective }),
          { once: true },
        );
        const script = g.document.createElement('script');
        script.textContent = 'window.__inlineScriptRan = true;';
        g.document.head.append(script);
      }),
  );
  expect(outcome.ran).toBe(false);
  expect(outcome.directive).toMatch(/^script-src/);
});

test('window.open is refused and opens no window', async ({ app, page }) => {
  expect(
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return g.open('about:blank') === null && g.open('app://agentteam/index.html') === null;
    }),
  ).toBe(true);
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  expect(app.windows()).toHaveLength(1);
});

test('navigation off the app origin is refused', async ({ app, page }) => {
  // Listen in main first (and only then navigate), so the attempt cannot be missed.
  await app.evaluate(({ BrowserWindow }) => {
    const g = globalThis as unknown as { navigationAttempt?: Promise<string> };
    g.navigationAttempt = new Promise<string>((resolve) =>
      BrowserWindow.getAllWindows()[0]!.webContents.once('will-navigate', (event) => resolve(event.url)),
    );
  });
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).location.href = 'https://example.com/';
  });
  expect(
    await app.evaluate(() => (globalThis as unknown as { navigationAttempt: Promise<string> }).navigationAttempt),
  ).toBe('https://example.com/');
  // The refused navigation leaves the page where it was; a round trip through the page proves it is still ours.
  expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).location.href)).toBe(
    'app://agentteam/index.html',
  );
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL())).toBe(
    'app://agentteam/index.html',
  );
});

test('the preload exposes exactly the contract: one method per call, events.subscribe, nothing generic', async ({
  page,
}) => {
  const shape = await page.evaluate(() =>
    Object.fromEntries(
      Object.entries((globalThis as unknown as PageGlobals).agentteam).map(([k, v]) => [
        k,
        Object.keys(v as object).sort(),
      ]),
    ),
  );
  expect(shape).toEqual({
    conversations: ['create', 'list'],
    messages: ['list', 'send'],
    wakes: ['inspect', 'list'],
    threads: ['list', 'start'],
    agents: ['list'],
    settings: ['get', 'update'],
    events: ['subscribe'],
  });
  expect(
    await page.evaluate(() => (globalThis as unknown as PageGlobals).agentteam.wakes.list({ limit: 'x' } as never)),
  ).toMatchObject({ ok: false, code: 'invalid_request' });
});

test('a full wake flow with the demo runtime ends in exactly one terminal status, shown in the one status area', async ({
  page,
}) => {
  const agents = await page.evaluate(() => (globalThis as unknown as PageGlobals).agentteam.agents.list({}));
  expect(agents).toMatchObject({ ok: true, value: [{ id: 'demo', runtime: 'demo', demo: true }] });
  await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).agentteam.conversations.create({ target: '#general' }),
  );
  // Watch events from the page before sending, so the terminal update cannot be missed.
  const terminal = page.evaluate(
    () =>
      new Promise<{ wakeToken: string; status: string }>((resolve) => {
        const stop = (globalThis as unknown as PageGlobals).agentteam.events.subscribe((e) => {
          if (
            e.name === 'wake.status' &&
            ['reply_sent', 'failed', 'completed_without_visible_reply'].includes(e.payload.status)
          ) {
            stop();
            resolve({ wakeToken: e.payload.wakeToken, status: e.payload.status });
          }
        });
      }),
  );
  const sent = await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).agentteam.messages.send({
      target: '#general',
      content: '@demo hello from the Electron suite',
    }),
  );
  expect(sent).toMatchObject({ ok: true, value: { target: '#general' } });
  const ended = await terminal;
  expect(['reply_sent', 'failed', 'completed_without_visible_reply']).toContain(ended.status);

  const wakes = await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).agentteam.wakes.list({ target: '#general' }),
  );
  expect(wakes.ok).toBe(true);
  const wake = wakes.ok ? wakes.value.find((w) => w.wakeToken === ended.wakeToken) : undefined;
  expect(wake?.status).toBe(ended.status);
  expect(wake?.endedAt).not.toBeNull();

  const status = page.getByRole('status');
  await expect(status).toHaveCount(1);
  await expect(status.locator(`[data-wake="${ended.wakeToken}"]`)).toHaveAttribute('data-status', ended.status);
});
