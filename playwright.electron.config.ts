import { defineConfig } from '@playwright/test';

/**
 * The Electron suite (Playwright `_electron`). It runs wherever an Electron binary exists;
 * `npm test` reports it as "not run: no Electron binary" elsewhere.
 */
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.electron.ts',
  outputDir: 'test-results/electron',
  workers: 1,
  timeout: 60_000,
  reporter: 'list',
});
