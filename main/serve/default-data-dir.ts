/**
 * The default data dir: the same folder as the Electron app's `userData` for the app name
 * "AgentTeam", so `npm start` without Electron and the app share conversations and config.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'AgentTeam';

/** Electron's `appData` + app name, per platform (Linux honours `XDG_CONFIG_HOME`). */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.config'), APP_DIR_NAME);
}
