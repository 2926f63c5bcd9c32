/**
 * Fixtures of the Playwright `_electron` suite (research/electron-style.md (d)): every test gets
 * its own profile and data dir (so settings, the single-instance lock and the store start empty),
 * the built app launched unpackaged (fuse-hardened packages cannot be driven by Playwright),
 * and its first window. It runs only where an Electron binary exists; `npm test` reports it as
 * "not run: no Electron binary" elsewhere, never as passed.
 */
import { _electron as electron, test as base, type ElectronApplication, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinary } from '../../scripts/electron-binary.mjs';

export const root = process.cwd();
export const hasElectron = electronBinary(root) !== null;

export interface ElectronFixtures {
  /** Per-test temp dir: `user-data/` (profile) and `user-data/data/` (the daemon's data dir). */
  tmpDir: string;
  /** agentteam.json written before launch (the demo agent by default). */
  agentConfig: Record<string, unknown>;
  app: ElectronApplication;
  page: Page;
}

export const test = base.extend<ElectronFixtures>({
  // eslint-disable-next-line no-empty-pattern
  tmpDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'agentteam-electron-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  agentConfig: [{ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }, { option: true }],
  app: async ({ tmpDir, agentConfig }, use) => {
    test.skip(!hasElectron, 'not run: no Electron binary');
    const dataDir = join(tmpDir, 'user-data', 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'agentteam.json'), JSON.stringify(agentConfig, null, 2));
    const app = await electron.launch({
      args: [join(root, 'out', 'main', 'index.js')],
      cwd: root,
      env: {
        ...process.env,
        AGENTTEAM_USER_DATA_DIR: join(tmpDir, 'user-data'),
        HOME: tmpDir,
        AGENTTEAM_LOG_CONSOLE: '0',
      },
    });
    await use(app);
    await app.close();
  },
  page: async ({ app }, use) => {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    await use(page);
  },
});

export { expect } from '@playwright/test';
