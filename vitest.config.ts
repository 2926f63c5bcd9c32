import { relative } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longestFirst, moduleOwningUnitFiles, needsRealCli, realCliIntegrationFiles } from './test/vitest-order.js';

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
const moduleOwningUnit = moduleOwningUnitFiles(import.meta.dirname);

/**
 * issue 44: the unit and component tests share their worker's module cache (`isolate: false`):
 * they are short, and a fresh worker per file (its fork and the module graph loaded again) cost
 * more than the tests. Measured on test/unit/main/daemon (147 files, 1,307 tests, 2 workers,
 * load 12–14): 606 s isolated, 186 s shared, the same tests passed. A unit file that mocks or
 * re-imports modules keeps a graph of its own (the `isolated` project, test/vitest-order.ts).
 */
const unitProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'unit',
    include: ['test/unit/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, ...moduleOwningUnit],
    isolate: false,
  },
};

/**
 * A fresh worker per file: the integration tests that need no real runtime CLI (the demo runtime,
 * a served daemon: they start daemons and children and time what they do, as the kill -9 soak),
 * and the unit files that mock or re-import modules.
 */
const isolatedProject: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'isolated',
    include: ['test/integration/**/*.test.ts', ...moduleOwningUnit],
    exclude: [...configDefaults.exclude, ...realCliIntegration],
  },
};

/** `npm run test:quick` (vitest.quick.config.ts): every file that needs no real runtime CLI. */
export const quickProjects = [unitProject, isolatedProject];

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
