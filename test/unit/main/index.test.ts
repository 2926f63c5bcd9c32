import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../fixtures/electron-fake.js')).electronModule);
vi.mock('electron-log/main', async () => import('electron-log/node'));
// The composition root must build the daemon with the factory `agentteam serve` uses: this one.
vi.mock('../../../main/daemon/index.js', async () => {
  const { createFakeDaemon } = await import('../../fixtures/daemon-fake.js');
  return { createDaemon: vi.fn(async () => createFakeDaemon()) };
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import * as fake from '../../fixtures/electron-fake.js';
import { createDaemon } from '../../../main/daemon/index.js';

describe('main/index.ts (the Electron entry)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-index-'));
  afterAll(() => {
    fake.app.emit('will-quit', {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('boots the shell around the shared daemon factory, with data under userData', async () => {
    fake.resetElectronFake();
    vi.stubEnv('AGENTTEAM_USER_DATA_DIR', join(dir, 'user-data'));
    vi.stubEnv('AGENTTEAM_LOG_CONSOLE', '0');
    await import('../../../main/index.js');
    const windowCreated = once(fake.app, 'web-contents-created');
    fake.app.becomeReady();
    await windowCreated;
    vi.unstubAllEnvs();
    expect(createDaemon).toHaveBeenCalledWith(expect.objectContaining({ dataDir: join(dir, 'user-data', 'data') }));
    // issue 14: the daemon is told how to run this binary as the agents' `agentteam` (unpackaged: Electron + the app).
    expect(createDaemon).toHaveBeenCalledWith(
      expect.objectContaining({
        agentCli: {
          command: process.execPath,
          args: expect.arrayContaining(['/fake/app', '--agentteam-cli']) as unknown,
        },
      }),
    );
    const [window] = fake.BrowserWindow.all;
    // Built, this file is out/main/index.js and the preload is out/preload/index.cjs: a sibling folder.
    expect(String(window?.options.webPreferences?.preload)).toMatch(/[/\\]preload[/\\]index\.cjs$/);
    expect(window?.webContents.loads).toEqual(['app://agentteam/index.html']);
  });
});
