/**
 * Helpers for the chat-app e2e tests (issue 17): calls of the real API over the page's own
 * WebSocket bridge (the same contract the UI uses), layout checks and screenshot settings.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, type ServeHandle } from './fixtures.js';

/** One call of the API contract over a fresh WebSocket from the page; resolves with its value or throws. */
export async function apiCall<T = unknown>(page: Page, serve: ServeHandle, call: string, request: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ origin, token, operatorKey, call, request }) =>
      new Promise<{ ok: boolean; value?: unknown; message?: string }>((resolve, reject) => {
        // As the operator's UI does (issue 29): the token and this start's operator key.
        const ws = new WebSocket(
          `${origin.replace(/^http/, 'ws')}/api?token=${encodeURIComponent(token)}&operator=${encodeURIComponent(operatorKey)}`,
        );
        ws.onerror = () => reject(new Error('websocket error'));
        ws.onopen = () => ws.send(JSON.stringify({ id: 1, call, request }));
        ws.onmessage = (e) => {
          const frame = JSON.parse(String(e.data)) as { id?: number; ok: boolean; value?: unknown; message?: string };
          if (frame.id !== 1) return;
          ws.close();
          resolve(frame);
        };
      }),
    { origin: serve.origin, token: serve.token, operatorKey: serve.operatorKey, call, request },
  );
  if (!answer.ok) throw new Error(`${call}: ${answer.message}`);
  return answer.value as T;
}

/** Switches the UI language the way Settings does (the `settings.update` call), then waits for it. */
export async function useLanguage(page: Page, serve: ServeHandle, language: 'en' | 'zh-CN'): Promise<void> {
  await apiCall(page, serve, 'settings.update', { language });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** The page never scrolls sideways: nothing is wider than the viewport. */
export async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  // A string script: this file is typed for Node (no DOM lib).
  const { scroll, client } = (await page.evaluate(`({
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    client: document.documentElement.clientWidth,
  })`)) as { scroll: number; client: number };
  expect(scroll, `${label}: page is ${scroll}px wide in a ${client}px viewport`).toBeLessThanOrEqual(client);
}

/** The element is fully inside the visible part of `container`. */
export async function expectInside(element: Locator, container: Locator, label: string): Promise<void> {
  // The list measures its rows and scrolls in animation frames after they render: the check is retried
  // until it holds (up to the expect timeout), not taken once between two frames (issue 44: under load
  // it was, and failed). Where it never holds, the message says by how much.
  await expect
    .poll(async () => {
      const [e, c] = await Promise.all([element.boundingBox(), container.boundingBox()]);
      if (e === null || c === null) return `${e === null ? 'the element' : 'the container'} is not laid out`;
      if (e.y < c.y - 1) return `its top ${e.y} is above the container's ${c.y}`;
      if (e.y + e.height > c.y + c.height + 1)
        return `its bottom ${e.y + e.height} is below the container's ${c.y + c.height}`;
      return 'inside';
    }, label)
    .toBe('inside');
}

/** The message log of the main conversation. */
export const mainLog = (page: Page) => page.locator('main .message-scroll');
