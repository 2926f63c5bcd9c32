/**
 * OpenCode sign-in for an agent (issue 15): the agent's own XDG dirs (its opencode.json, MCP
 * servers, plugins, sessions: none of the person's) with `<data>/opencode/auth.json` linked to
 * the person's (`$XDG_DATA_HOME/opencode/auth.json` or `~/.local/share/opencode/auth.json`,
 * written by `opencode auth login`).
 */
import { join } from 'node:path';
import type { AuthMode, RuntimeWords } from '../../../../shared/agent-readiness.js';
import type { PersonProfile } from '../auth/person-profile.js';
import { linkPersonCredential } from '../auth/shared-credential-link.js';

export function personOpencodeAuthFile(person: PersonProfile): string {
  const set = person.env.XDG_DATA_HOME;
  return join(set !== undefined && set !== '' ? set : join(person.home, '.local', 'share'), 'opencode', 'auth.json');
}

/** Links (cli-login) or unlinks (env) the person's OpenCode credentials in the agent's data dir. */
export function prepareOpencodeSignIn(dataDir: string, auth: AuthMode, person: PersonProfile): void {
  linkPersonCredential(
    join(dataDir, 'opencode', 'auth.json'),
    auth === 'cli-login' ? personOpencodeAuthFile(person) : null,
  );
}

/** issue 39: what a person reads about this runtime (its descriptor's words; the sentences are shared/agent-readiness.ts). */
export const OPENCODE_WORDS: RuntimeWords = {
  label: 'OpenCode',
  cli: '`opencode`',
  login: '`opencode auth login`',
  key: '`OPENAI_API_KEY`',
};
