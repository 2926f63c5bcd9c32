import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/fixtures/chromium.js';

/** Browser tests: the renderer in Debian's Chromium, headless, against `agentteam serve`. */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/browser',
  // issue 44: two workers, one per core. The suite runs after Vitest, on its own: with one worker the
  // machine was half idle there (fresh clone: 476 s, 530 CPU-s, 56 % of 2 cores busy); with two, the
  // same tests took 300 s (523 CPU-s, 88 % busy). A file's tests stay in one worker, in order, so a
  // file's shared daemon (serveScope 'file') and its spares are that worker's alone.
  workers: 2,
  // issue 44: green under load — a test has two minutes (with Vitest beside it, the real Claude Code
  // no-reply test took over one) and an assertion waits up to 15 s for what it expects (a send's round
  // trip took over 5 s at load 12). Both still return as soon as the page shows what they wait for.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    headless: true,
    // issue 44: tracing every test cost a fifth of this suite (demo + chat + usage, 32 tests: 202 s and
    // 299 CPU-s with traces, 167 s and 231 CPU-s without), so a trace is kept only when asked for:
    // PW_TRACE=1 records every test and keeps the failures' traces. The screenshot at each test's end
    // costs nothing measurable and stays.
    screenshot: 'on',
    trace: process.env.PW_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: CHROMIUM_LAUNCH,
  },
});
