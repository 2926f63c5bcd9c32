/**
 * The default data dir for `npm start` (plain JS: start.mjs runs before any build). Must
 * match main/serve/default-data-dir.ts; test/unit/main/serve/default-data-dir.test.ts checks both.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultDataDir(env = process.env, platform = process.platform, home = homedir()) {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'AgentTeam');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'AgentTeam');
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.config'), 'AgentTeam');
}
