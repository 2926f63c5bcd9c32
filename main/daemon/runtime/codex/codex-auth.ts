/**
 * Codex sign-in for an agent (issue 15): the agent's own `CODEX_HOME` (its generated
 * config.toml, MCP servers, sessions, AGENTS.md: none of the person's) with `auth.json` linked
 * to the person's (`$CODEX_HOME/auth.json` or `~/.codex/auth.json`, written by `codex login`).
 * A login kept in the OS keyring (`cli_auth_credentials_store = "keyring"`) is not reachable
 * this way: the agent then reads Needs sign-in, and an API key in its env still works.
 */
import { join } from 'node:path';
import type { AuthMode, RuntimeWords } from '../../../../shared/agent-readiness.js';
import type { PersonProfile } from '../auth/person-profile.js';
import { linkPersonCredential } from '../auth/shared-credential-link.js';

export function personCodexAuthFile(person: PersonProfile): string {
  const set = person.env.CODEX_HOME;
  return join(set !== undefined && set !== '' ? set : join(person.home, '.codex'), 'auth.json');
}

/** Links (cli-login) or unlinks (env) the person's Codex login in the agent's CODEX_HOME. */
export function prepareCodexSignIn(codexHome: string, auth: AuthMode, person: PersonProfile): void {
  linkPersonCredential(join(codexHome, 'auth.json'), auth === 'cli-login' ? personCodexAuthFile(person) : null);
}

/** issue 39: what a person reads about this runtime (its descriptor's words; the sentences are shared/agent-readiness.ts). */
export const CODEX_WORDS: RuntimeWords = {
  label: 'Codex',
  cli: '`codex`',
  login: '`codex login`',
  key: '`OPENAI_API_KEY`',
};
