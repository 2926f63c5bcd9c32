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
  const [e, c] = await Promise.all([element.boundingBox(), container.boundingBox()]);
  expect(e, label).not.toBeNull();
  expect(c, label).not.toBeNull();
  expect(e!.y, `${label}: top`).toBeGreaterThanOrEqual(c!.y - 1);
  expect(e!.y + e!.height, `${label}: bottom`).toBeLessThanOrEqual(c!.y + c!.height + 1);
}

/** The message log of the main conversation. */
export const mainLog = (page: Page) => page.locator('main .message-scroll');
