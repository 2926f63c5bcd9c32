/**
 * Claude Code sign-in for an agent (issue 15). The agent keeps its own HOME and
 * CLAUDE_CONFIG_DIR (its settings, hooks, plugins, MCP servers, CLAUDE.md, transcripts stay
 * isolated); only the credential store is the person's, through Claude Code's own
 * `CLAUDE_SECURESTORAGE_CONFIG_DIR`:
 *
 * - Linux/Windows: `<dir>/.credentials.json` of the person's config dir (`$CLAUDE_CONFIG_DIR`
 *   or `~/.claude`) is read and written in place. Claude Code writes it by an atomic rename
 *   in that directory and re-reads it when its mtime changes, so every agent and the person's
 *   own `claude` share ONE file and one refresh token (never a copy: a refreshed copy would log
 *   the others out, anthropics/claude-code#25609, #41507).
 * - macOS: the Keychain entry is named after the config dir; an empty
 *   `CLAUDE_SECURESTORAGE_CONFIG_DIR` selects the default entry (the person's `claude login`),
 *   a set `CLAUDE_CONFIG_DIR` of the person selects theirs — so a per-agent config dir does not
 *   look like a logout (anthropics/claude-code#92252). HOME stays the person's there, because
 *   the login Keychain is found through it.
 *
 * `auth: "env"` sets none of this: only keys in the agent's `env` (or the daemon's
 * `ANTHROPIC_*`) sign it in. Nothing here reads or copies a token.
 */
import { join } from 'node:path';
import type { AuthMode, RuntimeWords } from '../../../../shared/agent-readiness.js';
import type { PersonProfile } from '../auth/person-profile.js';

/** The person's Claude config dir (where `claude login` keeps `.credentials.json` on Linux). */
export function personClaudeConfigDir(person: PersonProfile): string {
  const set = person.env.CLAUDE_CONFIG_DIR;
  return set !== undefined && set !== '' ? set : join(person.home, '.claude');
}

/** The env that points the agent's Claude Code at the person's credential store (empty for `env` mode). */
export function claudeSignInEnv(auth: AuthMode, person: PersonProfile): Record<string, string> {
  if (auth !== 'cli-login') return {};
  const set = person.env.CLAUDE_CONFIG_DIR;
  if (person.platform === 'darwin')
    return { CLAUDE_SECURESTORAGE_CONFIG_DIR: set !== undefined && set !== '' ? set : '', HOME: person.home };
  return { CLAUDE_SECURESTORAGE_CONFIG_DIR: personClaudeConfigDir(person) };
}

/**
 * Flags that keep the person's (and the workspace's) settings out: only our `--settings`
 * source and the per-agent user settings load, so no project hook, permission rule or plugin
 * of the workspace's `.claude/` applies; MCP servers are already `--strict-mcp-config`.
 */
export const CLAUDE_ISOLATION_ARGS: readonly string[] = ['--setting-sources', 'user'];

/** issue 39: what a person reads about this runtime (its descriptor's words; the sentences are shared/agent-readiness.ts). */
export const CLAUDE_WORDS: RuntimeWords = {
  label: 'Claude Code',
  cli: '`claude`',
  login: '`claude login`',
  key: '`ANTHROPIC_API_KEY`',
};
