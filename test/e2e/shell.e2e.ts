import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

/** The built renderer loads in Debian Chromium with its CSP and renders the shell. */
let server: Server;
let url = '';
const root = join(process.cwd(), 'out', 'renderer');
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url === '/' ? '/index.html' : (req.url ?? '/');
    readFile(join(root, path)).then(
      (body) => res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${addr.port}/`;
});
test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the built renderer shows the app shell', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'AgentTeam' })).toBeVisible();
  expect(errors).toEqual([]);
});
