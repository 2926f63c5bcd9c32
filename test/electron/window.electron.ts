import { _electron as electron, expect, test } from '@playwright/test';
import { join } from 'node:path';

/** Runs only where an Electron binary exists (npm test reports it as not run elsewhere). */
test('the app starts and opens one window', async () => {
  const app = await electron.launch({ args: [join(process.cwd(), 'out', 'main', 'index.js')] });
  try {
    const window = await app.firstWindow();
    await expect(window.locator('body')).toBeVisible();
  } finally {
    await app.close();
  }
});
