import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/vitest-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The conformance suites start real runtime CLIs; two cores only.
    maxWorkers: 2,
    // issue 44: longest files first, so both workers finish together (test/vitest-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    server: { deps: { inline: ['electron-store', 'electron-log'] } },
  },
});
