import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longestFirst, needsRealCli } from './test/vitest-order.js';

/** issue 44: longest expected file first, so both workers finish together (test/vitest-order.ts). */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const estimates = files.map((spec) => {
      const key = `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
      return {
        spec,
        file: spec.moduleId,
        durationMs: cache.getFileTestResults(key)?.duration,
        realCli: needsRealCli(spec.moduleId),
        size: cache.getFileStats(key)?.size ?? 0,
      };
    });
    return longestFirst(estimates).map((e) => e.spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The conformance suites start real runtime CLIs; two cores only.
    maxWorkers: 2,
    // issue 44: longest files first, so both workers finish together (LongestFirstSequencer above).
    sequence: { sequencer: LongestFirstSequencer },
    server: { deps: { inline: ['electron-store', 'electron-log'] } },
  },
});
