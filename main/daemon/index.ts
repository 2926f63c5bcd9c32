/**
 * The daemon factory used by both composition roots (`agentteam serve`, the Electron app).
 * A first run (no agentteam.json yet) writes the seeded config: the demo agent, plus the runtime
 * CLIs found on PATH. An existing file is never rewritten.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_FILE } from './config/load-config.js';
import { assembleDaemon, type DaemonDeps, type RuntimeFactory, type SettingsPort } from './daemon.js';
import type { Daemon, DaemonOptions } from './daemon-types.js';
import { findOnPath, firstRunConfig } from './first-run-config.js';
import { compileThreadContract } from './prompt/thread-contract.js';
import { sendSurfaceFor } from './prompt/tool-names.js';
import { createRuntimeAdapter } from './runtime/runtime-factory.js';

export type { Daemon, DaemonLog, DaemonOptions } from './daemon-types.js';
export type { RuntimeFactory, SettingsPort } from './daemon.js';

export interface CreateDaemonOptions extends DaemonOptions {
  /** Where the UI's settings are kept (electron-store in the app, conf in serve); in memory when absent. */
  readonly settings?: SettingsPort;
  /** Replaces the runtime factory (tests of the assembly only). */
  readonly createRuntime?: RuntimeFactory;
}

/** The folder holding this project's package.json (and node_modules/.bin of the runtime CLIs). */
export function projectRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'agentteam-desktop') return dir;
      } catch {
        // not ours; keep climbing
      }
    }
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** Writes the first-run config when the data dir has none. Returns whether it did. */
export function seedFirstRun(dataDir: string, isFound: (command: string) => boolean = (c) => findOnPath(c)): boolean {
  const file = join(dataDir, CONFIG_FILE);
  if (existsSync(file)) return false;
  mkdirSync(dataDir, { recursive: true });
  const { config } = firstRunConfig(isFound);
  try {
    // 'wx': never overwrite a file another process wrote meanwhile.
    writeFileSync(
      file,
      `${JSON.stringify({ agents: config.agents.map((a) => ({ id: a.id, name: a.name, runtime: a.runtime, ...(a.command !== null ? { command: a.command } : {}) })), channels: { local: {} } }, null, 2)}\n`,
      { flag: 'wx' },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  return true;
}

export async function createDaemon(options: CreateDaemonOptions): Promise<Daemon> {
  if (seedFirstRun(options.dataDir))
    options.log?.info('first run: wrote the seeded config', { file: join(options.dataDir, CONFIG_FILE) });
  const root = projectRoot();
  const createRuntime: RuntimeFactory =
    options.createRuntime ??
    ((agent, ctx) => {
      const contract = compileThreadContract(agent, sendSurfaceFor(agent.runtime));
      return createRuntimeAdapter(agent, {
        mcp: ctx.mcp,
        host: ctx.host,
        dataDir: ctx.dataDir,
        projectRoot: root,
        threadContractFingerprint: contract.fingerprint,
        threadContractText: contract.text,
        log: ctx.log,
      });
    });
  const deps: DaemonDeps = { createRuntime, ...(options.settings ? { settings: options.settings } : {}) };
  return assembleDaemon(options, deps);
}
