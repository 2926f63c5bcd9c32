/**
 * What a first run seeds (issue 8): the `#general` conversation, the demo agent (issue 25: and a
 * second demo agent, `helper`, so `@demo /ask helper …` shows a hand-off with no LLM), and the real
 * runtime CLIs found on PATH (each runtime's descriptor names its own, runtime/registry.ts). `firstRunConfig` is pure: the
 * caller says which commands exist (see `findOnPath`), so the result is testable;
 * `seedFirstRun` writes it, only when `<data-dir>/agentteam.json` does not exist yet — never a rewrite.
 */
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ConfigSchema, GENERAL_CONVERSATION, type Config } from '../../shared/config.js';
import { CONFIG_FILE } from './config/load-config.js';
import { runtimeDescriptors } from './runtime/registry.js';
import type { FirstRunOffer } from './runtime/runtime-descriptor.js';

/** The conversations a first run creates. */
export const FIRST_RUN_CONVERSATIONS = [GENERAL_CONVERSATION] as const;

/** A runtime CLI a first run looks for (its descriptor's offer, registry.ts), and whether it found it. */
export interface OfferedRuntime extends FirstRunOffer {
  /** Found on PATH: seeded as an agent. Otherwise only offered (shown, not configured). */
  readonly found: boolean;
}

export interface FirstRunSeed {
  /** The config to write to `<data-dir>/agentteam.json` (already validated by `ConfigSchema`). */
  readonly config: Config;
  readonly conversations: readonly string[];
  readonly offered: readonly OfferedRuntime[];
}

/** The seeded config: the demo agents always, each runtime CLI only when `isFound(command)`. */
export function firstRunConfig(isFound: (command: string) => boolean): FirstRunSeed {
  // issue 39: what each runtime seeds is its descriptor's (the demo's two agents always, issue 25).
  const runtimes = runtimeDescriptors();
  const offered: OfferedRuntime[] = runtimes.flatMap((r) =>
    r.firstRun.offered.map((o) => ({ ...o, found: isFound(o.command) })),
  );
  const agents = [
    ...runtimes.flatMap((r) => r.firstRun.always.map((a) => ({ ...a }))),
    ...offered.filter((o) => o.found).map((o) => ({ ...o.agent })),
  ];
  // Channel settings are left to the schema defaults (the watchdog spec's), under "local".
  const config = ConfigSchema.parse({ agents, channels: { local: {} } });
  return { config, conversations: FIRST_RUN_CONVERSATIONS, offered };
}

/** Writes the first-run config when the data dir has none. Returns whether it did. */
export function seedFirstRun(dataDir: string, isFound: (command: string) => boolean = (c) => findOnPath(c)): boolean {
  const file = join(dataDir, CONFIG_FILE);
  if (existsSync(file)) return false;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { config } = firstRunConfig(isFound);
  try {
    // 'wx': never overwrite a file another process wrote meanwhile.
    writeFileSync(
      file,
      `${JSON.stringify({ agents: config.agents.map((a) => ({ id: a.id, name: a.name, runtime: a.runtime, ...(a.command !== null ? { command: a.command } : {}), ...(a.preset !== undefined ? { preset: a.preset } : {}) })), channels: { local: {} } }, null, 2)}\n`,
      // 0600: the person may add provider keys to it later (issue 16 "Files").
      { flag: 'wx', mode: 0o600 },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  return true;
}

/** Whether `command` is an executable file in one of PATH's folders (PATHEXT on Windows). */
export function findOnPath(
  command: string,
  path: string = process.env.PATH ?? '',
  platform: NodeJS.Platform = process.platform,
  pathExt: string = process.env.PATHEXT ?? '.EXE;.CMD;.BAT',
): boolean {
  const exts = platform === 'win32' ? ['', ...pathExt.split(';').filter((e) => e !== '')] : [''];
  for (const dir of path.split(platform === 'win32' ? ';' : delimiter)) {
    if (dir === '') continue;
    for (const ext of exts) {
      try {
        accessSync(join(dir, command + ext), platform === 'win32' ? constants.F_OK : constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}
