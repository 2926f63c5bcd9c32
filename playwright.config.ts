import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/fixtures/chromium.js';

/** Browser tests: the renderer in Debian's Chromium, headless, against `agentteam serve`. */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/browser',
  workers: 1,
  // issue 44: green under load — a test has two minutes (with Vitest beside it, the real Claude Code
  // no-reply test took over one) and an assertion waits up to 15 s for what it expects (a send's round
  // trip took over 5 s at load 12). Both still return as soon as the page shows what they wait for.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    headless: true,
    // issue 44: a failed test keeps its screenshot; the views a test means to show are saved by name
    // (fixtures.ts screenshot(), test-results/screens/). A trace records every action's DOM snapshot
    // and a screencast of the page: measured on demo + chat (24 tests), 21 % of the suite's CPU and
    // 17 % of its time, for a file CI does not keep. PW_TRACE=1 records them again (kept on failure).
    screenshot: 'only-on-failure',
    trace: process.env.PW_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: CHROMIUM_LAUNCH,
  },
});
