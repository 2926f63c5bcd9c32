/**
 * issue 44: `npm run test:quick`, the development loop — every unit and component test and the
 * integration tests that need no real runtime CLI. `npm test` (vitest.config.ts) stays the gate.
 *
 * A test file needs a real CLI when it starts a fake model server (only a real CLI talks to one),
 * uses a harness around a real runtime, or names a real runtime kind (test/vitest-order.ts
 * needsRealCli); such files are read and left to the full run, so a new one is classified without
 * a list to keep up to date. These are the full run's `unit` and `isolated` projects.
 */
import { defineConfig } from 'vitest/config';
import base, { quickProjects } from './vitest.config.js';

export default defineConfig({ ...base, test: { ...base.test, projects: quickProjects } });
