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

export const CODEX_MCP_TOKEN_ENV = 'AGENTTEAM_MCP_TOKEN';
/** The provider id used when the agent's env names an OpenAI-compatible endpoint. */
export const CODEX_PROVIDER_ID = 'agentteam';

export interface CodexProvider {
  readonly id: string;
  readonly name: string;
  /** Base URL including `/v1`. */
  readonly baseUrl: string;
  /** Env var holding the API key, or null for none. */
  readonly envKey: string | null;
  /** Codex's own retry budgets; null keeps Codex's defaults. */
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

/**
 * The provider an agent's config names (DESIGN.md "Config": a person points a runtime at any
 * provider): `OPENAI_BASE_URL` in the agent's env becomes a Responses-API provider whose key is
 * `OPENAI_API_KEY`. Anything else is left to Codex (and to `-c` overrides in the agent's args).
 */
export function codexProviderFromAgentEnv(env: Readonly<Record<string, string>>): CodexProvider | null {
  const baseUrl = env.OPENAI_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') return null;
  return {
    id: CODEX_PROVIDER_ID,
    name: 'AgentTeam agent provider',
    baseUrl,
    envKey: env.OPENAI_API_KEY === undefined ? null : 'OPENAI_API_KEY',
  };
}

export function renderCodexConfig(input: CodexConfigInput): string {
  const lines: string[] = [
    '# Written by AgentTeam at each start of this agent; edit agentteam.json instead.',
    'approval_policy = "never"',
    `sandbox_mode = ${toml(input.sandboxMode ?? 'read-only')}`,
    'check_for_update_on_startup = false',
  ];
  if (input.model !== null) lines.push(`model = ${toml(input.model)}`);
  if (input.provider !== null) lines.push(`model_provider = ${toml(input.provider.id)}`);
  // Plugins look up GitHub/ChatGPT hosts at startup (research/runtimes.md §2).
  lines.push('', '[features]', 'plugins = false', '', '[analytics]', 'enabled = false');
  if (input.provider !== null) {
    const p = input.provider;
    lines.push('', `[model_providers.${p.id}]`, `name = ${toml(p.name)}`, `base_url = ${toml(p.baseUrl)}`);
    if (p.envKey !== null) lines.push(`env_key = ${toml(p.envKey)}`);
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
    `bearer_token_env_var = ${toml(CODEX_MCP_TOKEN_ENV)}`,
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
