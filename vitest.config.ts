import { relative } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longestFirst, needsRealCli, realCliIntegrationFiles } from './test/vitest-order.js';

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

const realCliIntegration = realCliIntegrationFiles(import.meta.dirname);

/**
 * issue 44: the unit and component tests share their worker's module cache (`isolate: false`):
 * they are short, and a fresh worker per file (its fork and the module graph loaded again) cost
 * more than the tests. Measured on test/unit/main/daemon (147 files, 1,307 tests, 2 workers,
 * load 12–14): 606 s isolated, 186 s shared, the same tests passed.
 */
const unitProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], isolate: false },
};

/**
 * The integration tests that need no real runtime CLI (the demo runtime, a served daemon) keep a
 * fresh worker each: they start daemons and children and time what they do (the kill -9 soak).
 */
const integrationProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'integration',
    include: ['test/integration/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...realCliIntegration],
  },
};

/** `npm run test:quick` (vitest.quick.config.ts): every file that needs no real runtime CLI. */
export const quickProjects = [unitProject, integrationProject];

/** The real-CLI files keep a fresh worker each: their time is the CLIs', and their fixtures start processes. */
const realCliProject: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'real-cli', include: ['test/conformance/**/*.test.ts', ...realCliIntegration] },
};

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The conformance suites start real runtime CLIs; two cores only.
    maxWorkers: 2,
    // issue 44: longest files first, so both workers finish together (LongestFirstSequencer above).
    sequence: { sequencer: LongestFirstSequencer },
    server: { deps: { inline: ['electron-store', 'electron-log'] } },
    projects: [realCliProject, ...quickProjects],
  },
});
