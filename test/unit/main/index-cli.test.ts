/**
 * issue 14: started by the agents' `agentteam` shim (`--agentteam-cli agent …`), the Electron entry
 * runs that one agent command and exits with its code — no single-instance lock (a running app
 * would take it as a second instance), no daemon, no window. (Electron itself cannot run here:
 * the module double stands in for it; the shim → argv half is in app/app-cli.test.ts.)
 */
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../fixtures/electron-fake.js')).electronModule);
vi.mock('electron-log/main', async () => import('electron-log/node'));
vi.mock('../../../main/daemon/index.js', () => ({ createDaemon: vi.fn() }));

import * as fake from '../../fixtures/electron-fake.js';
import { createDaemon } from '../../../main/daemon/index.js';

describe('main/index.ts started as the agents’ CLI', () => {
  const argv = process.argv;
  afterAll(() => {
    process.argv = argv;
  });

  it('runs the agent command and exits with its code, booting nothing', async () => {
    fake.resetElectronFake();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('AGENTTEAM_MCP_URL', '');
    process.argv = [
      process.execPath,
      '--ozone-platform=headless',
      '--agentteam-cli',
      // issue 29: the shim ends Chromium's switches before the agent's arguments; the entry strips it.
      '--',
      'agent',
      'send',
      '--target',
      '#general',
      '--content',
      'hi',
    ];
    await import('../../../main/index.js');
    await vi.waitFor(() => expect(fake.app.exitCodes).toEqual([2]));
    vi.unstubAllEnvs();
    // Outside a runtime: the agent command's own message (its token is not set).
    expect(stderr.mock.calls.map(([s]) => String(s)).join('')).toMatch(
      /AGENTTEAM_MCP_URL and AGENTTEAM_AGENT_TOKEN are not set/,
    );
    stderr.mockRestore();
    expect(fake.app.lockRequests).toBe(0);
    expect(fake.app.dockHidden).toBe(true);
    expect(createDaemon).not.toHaveBeenCalled();
    expect(fake.BrowserWindow.all).toEqual([]);
  });
});
