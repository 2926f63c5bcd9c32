/**
 * Where the person's own CLI sign-ins live (issue 15): their home, their environment and the
 * platform, taken from the daemon's process unless a caller (a test) names another. Only the
 * credential locations are derived from it; the runtimes never see the rest of that home.
 */
import { homedir } from 'node:os';

export interface PersonProfile {
  /** The person's home (not the per-agent runtime HOME). */
  readonly home: string;
  /** The daemon's environment: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_DATA_HOME` as the person set them. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
}

export function currentPersonProfile(): PersonProfile {
  return { home: process.env.HOME ?? homedir(), env: process.env, platform: process.platform };
}
