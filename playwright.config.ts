import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/fixtures/chromium.js';

/** Browser tests: the renderer in Debian's Chromium, headless, against `agentteam serve`. */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/browser',
  workers: 1,
  timeout: 60_000,
  reporter: 'list',
  use: {
    headless: true,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
});
