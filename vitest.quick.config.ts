/**
 * issue 44: `npm run test:quick`, the development loop — every unit and component test and the
 * integration tests that need no real runtime CLI. `npm test` (vitest.config.ts) stays the gate.
 *
 * A test file needs a real CLI when it starts a fake model server (only a real CLI talks to one),
 * uses a harness around a real runtime, or names a real runtime kind (needsRealCli); such files are
 * read here and left to the full run, so a new one is classified without a list to keep up to date.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { needsRealCli } from './test/vitest-order.js';
import base from './vitest.config.js';

const ROOT = import.meta.dirname;
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

const realCli = testFiles('test/integration').filter((f) => needsRealCli(join(ROOT, f)));

// Not mergeConfig: it would append to the full run's include (the conformance suites) instead of replacing it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...realCli],
  },
});
