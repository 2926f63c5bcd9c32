/**
 * The per-agent `CODEX_HOME/config.toml` (research/runtimes.md §2 "Codex"): the agentteam MCP
 * server over streamable HTTP with the agent's bearer token, tool calls pre-approved, plugins
 * and analytics off, and the model provider taken from the agent's config. Regenerated at
 * every start: the daemon owns this file, a person configures the agent in agentteam.json.
 *
 * The bearer token is not written to disk: Codex reads it from the environment variable named
 * by `bearer_token_env_var`, which the adapter sets on the process.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_TOKEN_ENV, type AgentProvider } from '../agent-provider.js';

/** Codex's own retry budgets on top of the shared provider; null keeps Codex's defaults. */
export interface CodexProvider extends AgentProvider {
  readonly requestMaxRetries?: number | null;
  readonly streamMaxRetries?: number | null;
  /** issue 15: no key of its own: the provider uses the person's Codex login (`auth.json`). */
  readonly requiresOpenaiAuth?: boolean;
}

export interface CodexConfigInput {
  readonly mcpUrl: string;
  /** null keeps Codex's default model. */
  readonly model: string | null;
  /** null keeps Codex's default provider (OpenAI, with the key from the agent's env). */
  readonly provider: CodexProvider | null;
  /** `read-only` unless the agent's args override `sandbox_mode`. */
  readonly sandboxMode?: 'read-only' | 'workspace-write' | 'danger-full-access';
}

/** TOML basic string: JSON's escaping is a subset TOML accepts. */
const toml = (value: string): string => JSON.stringify(value);

export function renderCodexConfig(input: CodexConfigInput): string {
  const lines: string[] = [
    '# Written by AgentTeam at each start of this agent; edit agentteam.json instead.',
    'approval_policy = "never"',
    `sandbox_mode = ${toml(input.sandboxMode ?? 'read-only')}`,
    'check_for_update_on_startup = false',
    // issue 14: commands run in a non-login shell with the environment the daemon gave the runtime:
    // a login shell re-reads /etc/profile, which resets PATH (losing the agentteam shim and the person's
    // PATH; HOME is the agent's own, so no ~/.profile would be read anyway).
    'allow_login_shell = false',
  ];
  if (input.model !== null) lines.push(`model = ${toml(input.model)}`);
  if (input.provider !== null) lines.push(`model_provider = ${toml(input.provider.id)}`);
  // Plugins look up GitHub/ChatGPT hosts at startup (research/runtimes.md §2).
  lines.push('', '[features]', 'plugins = false', '', '[analytics]', 'enabled = false');
  if (input.provider !== null) {
    const p = input.provider;
    lines.push('', `[model_providers.${p.id}]`, `name = ${toml(p.name)}`, `base_url = ${toml(p.baseUrl)}`);
    if (p.apiKeyEnv !== null) lines.push(`env_key = ${toml(p.apiKeyEnv)}`);
    else if (p.requiresOpenaiAuth === true) lines.push('requires_openai_auth = true');
    // Only the Responses API works ("wire_api = chat" is rejected, research/runtimes.md §2).
    lines.push('wire_api = "responses"');
    if (p.requestMaxRetries != null) lines.push(`request_max_retries = ${p.requestMaxRetries}`);
    if (p.streamMaxRetries != null) lines.push(`stream_max_retries = ${p.streamMaxRetries}`);
  }
  lines.push(
    '',
    '[mcp_servers.agentteam]',
    `url = ${toml(input.mcpUrl)}`,
    `bearer_token_env_var = ${toml(MCP_TOKEN_ENV)}`,
    // Without it the call fails: "MCP tool call requires approval, but approval policy is never".
    'default_tools_approval_mode = "approve"',
    'startup_timeout_sec = 20',
    '',
  );
  return lines.join('\n');
}

/** Writes `config.toml` into the agent's CODEX_HOME (created 0700; the file 0600). */
export async function writeCodexHome(codexHome: string, input: CodexConfigInput): Promise<string> {
  await mkdir(codexHome, { recursive: true, mode: 0o700 });
  const file = join(codexHome, 'config.toml');
  await writeFile(file, renderCodexConfig(input), { mode: 0o600 });
  return file;
}
