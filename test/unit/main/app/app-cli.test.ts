/**
 * issue 14: the desktop app's binary as the agents' `agentteam` (app-cli.ts). Electron cannot run
 * here, so the binary is stood in for by a script that records its argv: the shim the daemon
 * writes for the app launches it with exactly what `appCliArgs` then recognises, and the dispatch
 * runs the real agent command (without Electron: the module imports none).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_CLI_SWITCH, appAgentCli, appCliArgs, runAppCli } from '../../../../main/app/app-cli.js';
import { installAgentCliShim } from '../../../../main/daemon/runtime/agent-cli-shim.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('agentteam app cli ')));
afterEach(() => dir.remove());

describe('appCliArgs', () => {
  it('is null for a normal start and the agent’s arguments after the switch otherwise', () => {
    expect(appCliArgs(['/opt/AgentTeam/agentteam-desktop'])).toBeNull();
    expect(appCliArgs(['/usr/bin/electron', '/src/app', '--no-sandbox'])).toBeNull();
    expect(
      appCliArgs([
        '/opt/a',
        '--ozone-platform=headless',
        '--disable-gpu',
        APP_CLI_SWITCH,
        'agent',
        'send',
        '--content',
        APP_CLI_SWITCH,
      ]),
    ).toEqual(['agent', 'send', '--content', APP_CLI_SWITCH]);
    // issue 29: the shim's `--` after the switch is stripped; an agent's own `--` after it stays.
    expect(appCliArgs(['/opt/a', APP_CLI_SWITCH, '--', 'agent', 'send', '--', '--inspect'])).toEqual([
      'agent',
      'send',
      '--',
      '--inspect',
    ]);
    // argv[0] is the binary, never the switch.
    expect(appCliArgs([APP_CLI_SWITCH, 'agent'])).toBeNull();
  });
});

describe('appAgentCli', () => {
  it('packaged on macOS and Windows: the app binary and the switch', () => {
    const mac = '/Applications/AgentTeam.app/Contents/MacOS/AgentTeam';
    expect(appAgentCli({ execPath: mac, isPackaged: true, appPath: '/x', platform: 'darwin' })).toEqual({
      command: mac,
      args: [APP_CLI_SWITCH, '--'],
    });
    expect(
      appAgentCli({ execPath: 'C:\\A\\a.exe', isPackaged: true, appPath: 'C:\\x', platform: 'win32' }).args,
    ).toEqual([APP_CLI_SWITCH, '--']);
  });

  it('Linux: headless Chromium switches first; an AppImage by its stable path', () => {
    expect(
      appAgentCli({
        execPath: '/tmp/.mount_AgentTXYZ/agentteam-desktop',
        isPackaged: true,
        appPath: '/tmp/.mount_AgentTXYZ/resources/app.asar',
        platform: 'linux',
        appImage: '/home/p/AgentTeam.AppImage',
      }),
    ).toEqual({
      command: '/home/p/AgentTeam.AppImage',
      args: ['--ozone-platform=headless', '--disable-gpu', APP_CLI_SWITCH, '--'],
    });
  });

  it('unpackaged: Electron is given the app folder', () => {
    expect(
      appAgentCli({
        execPath: '/src/node_modules/electron/dist/electron',
        isPackaged: false,
        appPath: '/src',
        platform: 'darwin',
      }),
    ).toEqual({ command: '/src/node_modules/electron/dist/electron', args: ['/src', APP_CLI_SWITCH, '--'] });
  });
});

describe.skipIf(process.platform === 'win32')('the shim written for the app', () => {
  it('launches the binary so that appCliArgs yields the agent’s command line', () => {
    // A stand-in for the app binary (in a folder with a space): it prints its own argv.
    const fakeApp = join(dir.path, 'AgentTeam app');
    writeFileSync(fakeApp, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.argv.slice(1)));\n`);
    chmodSync(fakeApp, 0o700);
    const launcher = appAgentCli({ execPath: fakeApp, isPackaged: true, appPath: '', platform: 'linux' });
    const shim = join(installAgentCliShim(join(dir.path, 'data'), launcher), 'agentteam');
    const agentArgs = ['agent', 'send', '--target', '#general', '--content', 'a b "c" $d', '--inspect-brk=0'];
    const argv = JSON.parse(execFileSync(shim, agentArgs, { encoding: 'utf8' })) as string[];
    expect(appCliArgs([fakeApp, ...argv])).toEqual(agentArgs);
    // issue 29: every agent argument comes after the end of Chromium's switches.
    const end = argv.indexOf('--');
    expect(argv.slice(end - 1, end + 1)).toEqual([APP_CLI_SWITCH, '--']);
    expect(argv.slice(end + 1)).toEqual(agentArgs);
  });
});

describe('runAppCli', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l) } };
  };

  it('refuses anything but the agent commands, naming the Node CLI', async () => {
    const r = io();
    expect(await runAppCli(['serve'], r.io, {})).toBe(2);
    expect(r.err.join('\n')).toMatch(
      /runs only "agentteam agent send\|react"; "serve" is the operator's and needs the agentteam CLI of a source install/,
    );
  });

  it('runs the real agent command (outside a runtime it says what is missing)', async () => {
    const r = io();
    expect(await runAppCli(['agent', 'send', '--target', '#general', '--content', 'hi'], r.io, {})).toBe(2);
    expect(r.err.join('\n')).toMatch(/AGENTTEAM_MCP_URL and AGENTTEAM_AGENT_TOKEN are not set/);
  });
});
