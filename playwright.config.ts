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
    // issue 44: tracing every test costs about a fifth of this suite's CPU (demo + chat, 24 tests: 269 against
    // 212 CPU-s), but without it `sendFromComposer` raced the page's start (the usage tests' first send
    // stayed in the composer in 2 of 3 runs): kept until that helper waits for what it needs.
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
});
