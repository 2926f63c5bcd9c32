/**
 * issue 28: sign-in reuse for the ACP presets (issue 15's rule: credential material only, by a
 * link, never a copy): Gemini CLI's `~/.gemini/oauth_creds.json` (Login with Google) and Qwen
 * Code's `~/.qwen/oauth_creds.json` (Qwen OAuth) are linked into the agent's own home; its
 * settings, sessions and MCP servers stay the agent's. Copilot keeps its login in the OS keychain
 * (`copilot login`) or takes a token from the env (`COPILOT_GITHUB_TOKEN`): nothing to link.
 * Each preset names its file in acp-presets.ts (`loginFile`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthMode } from '../../../../shared/agent-readiness.js';
import type { PersonProfile } from '../auth/person-profile.js';
import { linkPersonCredential } from '../auth/shared-credential-link.js';

/** Where a preset's CLI keeps its login under a home (acp-presets.ts `loginFile`); null: in no file. */
export type AcpLoginFile = readonly [dir: string, file: string] | null;

/** The person's login file of a preset, or null when the CLI keeps none in a file. */
export function personAcpLoginFile(at: AcpLoginFile, person: PersonProfile): string | null {
  return at === null ? null : join(person.home, ...at);
}

/** Links (cli-login, when the person has one) or unlinks (env) the preset's login file in `agentHome`. */
export function prepareAcpSignIn(agentHome: string, at: AcpLoginFile, auth: AuthMode, person: PersonProfile): void {
  if (at === null) return;
  const file = personAcpLoginFile(at, person);
  linkPersonCredential(join(agentHome, ...at), auth === 'cli-login' && file !== null && existsSync(file) ? file : null);
}
