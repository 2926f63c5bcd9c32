/**
 * issue 28: sign-in reuse for the ACP presets (issue 15's rule: credential material only, by a
 * link, never a copy): Gemini CLI's `~/.gemini/oauth_creds.json` (Login with Google) and Qwen
 * Code's `~/.qwen/oauth_creds.json` (Qwen OAuth) are linked into the agent's own home; its
 * settings, sessions and MCP servers stay the agent's. Copilot keeps its login in the OS keychain
 * (`copilot login`) or takes a token from the env (`COPILOT_GITHUB_TOKEN`): nothing to link.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthMode } from '../../../../shared/agent-readiness.js';
import type { AcpPreset } from '../../../../shared/config.js';
import type { PersonProfile } from './person-profile.js';
import { linkPersonCredential } from './shared-credential-link.js';

const LOGIN_FILE: Readonly<Record<AcpPreset, readonly [dir: string, file: string] | null>> = {
  gemini: ['.gemini', 'oauth_creds.json'],
  qwen: ['.qwen', 'oauth_creds.json'],
  copilot: null,
};

/** The person's login file of a preset, or null when the CLI keeps none in a file. */
export function personAcpLoginFile(preset: AcpPreset, person: PersonProfile): string | null {
  const at = LOGIN_FILE[preset];
  return at === null ? null : join(person.home, ...at);
}

/** Links (cli-login, when the person has one) or unlinks (env) the preset's login file in `agentHome`. */
export function prepareAcpSignIn(agentHome: string, preset: AcpPreset, auth: AuthMode, person: PersonProfile): void {
  const at = LOGIN_FILE[preset];
  if (at === null) return;
  const file = personAcpLoginFile(preset, person);
  linkPersonCredential(join(agentHome, ...at), auth === 'cli-login' && file !== null && existsSync(file) ? file : null);
}

/** The env key that is a sign-in of the agent's own for each preset. */
export const ACP_KEY_VARIABLES: Readonly<Record<AcpPreset, readonly string[]>> = {
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  qwen: ['OPENAI_API_KEY'],
  copilot: ['OPENAI_API_KEY', 'COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
};
