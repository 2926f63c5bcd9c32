/**
 * The daemon factory used by both composition roots (`agentteam serve`, the Electron app).
 * TEMPORARY SEAM: the assembled daemon (store, wakes, prompts, watchdog, delivery, MCP,
 * runtimes) lands in the integration commit; until then this refuses to start.
 */
import type { Daemon, DaemonOptions } from './daemon-types.js';

export type { Daemon, DaemonLog, DaemonOptions } from './daemon-types.js';

export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  throw new Error(`the daemon is not assembled yet (data dir ${options.dataDir})`);
}
