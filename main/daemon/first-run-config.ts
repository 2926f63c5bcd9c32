/**
 * What a first run seeds (issue 8): the `#general` conversation, the demo agent, and the real
 * runtime CLIs found on PATH (`claude`, `codex`, `opencode`). Pure: the caller says which
 * commands exist (see `findOnPath`), so the result is testable and the factory decides when
 * to write it (only when `<data-dir>/agentteam.json` does not exist yet — never a rewrite).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ConfigSchema, type Config } from '../../shared/config.js';
import type { RuntimeKind } from '../../shared/wake-status.js';

/** The conversations a first run creates. */
export const FIRST_RUN_CONVERSATIONS = ['#general'] as const;

export interface OfferedRuntime {
  readonly runtime: Exclude<RuntimeKind, 'demo'>;
  readonly agentId: string;
  readonly name: string;
  readonly command: string;
  /** Found on PATH: seeded as an agent. Otherwise only offered (shown, not configured). */
  readonly found: boolean;
}

export interface FirstRunSeed {
  /** The config to write to `<data-dir>/agentteam.json` (already validated by `ConfigSchema`). */
  readonly config: Config;
  readonly conversations: readonly string[];
  readonly offered: readonly OfferedRuntime[];
}

const CANDIDATES = [
  { runtime: 'claude-code', agentId: 'claude', name: 'Claude', command: 'claude' },
  { runtime: 'codex', agentId: 'codex', name: 'Codex', command: 'codex' },
  { runtime: 'opencode', agentId: 'opencode', name: 'OpenCode', command: 'opencode' },
] as const;

/** The seeded config: the demo agent always, each runtime CLI only when `isFound(command)`. */
export function firstRunConfig(isFound: (command: string) => boolean): FirstRunSeed {
  const offered = CANDIDATES.map((c) => ({ ...c, found: isFound(c.command) }));
  const agents = [
    { id: 'demo', name: 'Demo', runtime: 'demo' as const },
    ...offered
      .filter((o) => o.found)
      .map((o) => ({ id: o.agentId, name: o.name, runtime: o.runtime, command: o.command })),
  ];
  // Channel settings are left to the schema defaults (the watchdog spec's), under "local".
  const config = ConfigSchema.parse({ agents, channels: { local: {} } });
  return { config, conversations: FIRST_RUN_CONVERSATIONS, offered };
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
