import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../main/serve/default-data-dir.js';
// @ts-expect-error plain JS module without types (npm start runs it before any build)
import { defaultDataDir as startScriptDataDir } from '../../../../scripts/default-data-dir.mjs';

const cases: Array<[string, NodeJS.ProcessEnv, NodeJS.Platform, string]> = [
  ['linux default', {}, 'linux', join('/home/p', '.config', 'AgentTeam')],
  ['linux XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '/x/cfg' }, 'linux', join('/x/cfg', 'AgentTeam')],
  ['linux empty XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '' }, 'linux', join('/home/p', '.config', 'AgentTeam')],
  ['macOS', {}, 'darwin', join('/home/p', 'Library', 'Application Support', 'AgentTeam')],
  [
    'Windows APPDATA',
    { APPDATA: 'C:/Users/p/AppData/Roaming' },
    'win32',
    join('C:/Users/p/AppData/Roaming', 'AgentTeam'),
  ],
];

describe('default data dir (Electron userData for "AgentTeam")', () => {
  it.each(cases)('%s', (_name, env, platform, expected) => {
    expect(defaultDataDir(env, platform, '/home/p')).toBe(expected);
    // npm start (scripts/start.mjs) must pick the same folder as the app and the CLI.
    expect((startScriptDataDir as typeof defaultDataDir)(env, platform, '/home/p')).toBe(expected);
  });
});
