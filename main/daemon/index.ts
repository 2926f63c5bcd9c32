/** The daemon's public face: its factory (`createDaemon`, used by `agentteam serve` and the Electron app) and types. */
export { createDaemon } from './daemon.js';
export type { CreateDaemonOptions } from './daemon-types.js';
export type { Daemon } from './daemon-types.js';
export type { DaemonLog } from './daemon-log.js';
export type { SettingsPort, UiPrefs } from './settings/daemon-settings.js';
