import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The conformance suites start real runtime CLIs; two cores only.
    maxWorkers: 2,
    server: { deps: { inline: ['electron-store', 'electron-log'] } },
  },
});
