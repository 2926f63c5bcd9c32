/**
 * The per-agent `CODEX_HOME/config.toml` (research/runtimes.md §2 "Codex"): the agentteam MCP
 * server over streamable HTTP with the agent's bearer token, tool calls pre-approved, plugins
 * and analytics off, and the model provider taken from the agent's config. Regenerated at
 * every start: the daemon owns this file, a person configures the agent in agentteam.json.
 *
 * The bearer token is not written to disk: Codex reads it from the environment variable named
 * by `bearer_token_env_var`, which the adapter sets on the process.
 *
 * issue 41: Codex's sandboxes `read-only` and `workspace-write` read the whole disk — the data
 * dir's tokens, keys and store included — and 0.171 has no readable-roots setting for them. Its
 * permission profiles do deny reads: `[permissions.<id>]` extending the built-in `:read-only` or
 * `:workspace` (the same two sandboxes), with `[permissions.<id>.filesystem]` entries `"deny"`,
 * enforced for every command the model runs (a path that does not exist yet is masked too, so a
 * token written after this start is covered). A profile is chosen by `default_permissions`; a
 * `sandbox` (thread/start, or `-c sandbox_mode` on the command line) replaces it, denies and all
 * (tried with 0.171). So a sandboxed policy is only a profile here — the driver names it again in
 * the thread's `config` and passes no `sandbox` — and only `danger-full-access` (`full`: can read
 * anything the person can) stays a `sandbox_mode`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_TOKEN_ENV, type AgentProvider } from '../agent-provider.js';
import type { SandboxMode } from './codex-protocol.js';

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
  /** The agent's sandbox (codex-approvals.ts `codexThreadPolicy`); `read-only` when not given. */
  readonly sandboxMode?: SandboxMode;
  /** issue 41: paths every sandboxed command is denied (workspace.ts `shellDeniedPaths`; a trailing `/` marks a folder). */
  readonly deniedPaths?: readonly string[];
}

/** issue 41: the permission profile the agent's sandbox becomes (the module comment). */
export const CODEX_PROFILE = 'agentteam';

/** The built-in profile a sandbox mode is, or null for no sandbox (`danger-full-access` stays a `sandbox_mode`). */
export function codexProfileBase(mode: SandboxMode): ':read-only' | ':workspace' | null {
  return mode === 'read-only' ? ':read-only' : mode === 'workspace-write' ? ':workspace' : null;
}

/** TOML basic string: JSON's escaping is a subset TOML accepts. */
const toml = (value: string): string => JSON.stringify(value);

export function renderCodexConfig(input: CodexConfigInput): string {
  const lines: string[] = [
    '# Written by AgentTeam at each start of this agent; edit agentteam.json instead.',
    'approval_policy = "never"',
    'check_for_update_on_startup = false',
    // issue 14: commands run in a non-login shell with the environment the daemon gave the runtime:
    // a login shell re-reads /etc/profile, which resets PATH (losing the agentteam shim and the person's
    // PATH; HOME is the agent's own, so no ~/.profile would be read anyway).
    'allow_login_shell = false',
  ];
  const base = codexProfileBase(input.sandboxMode ?? 'read-only');
  lines.push(base === null ? `sandbox_mode = "danger-full-access"` : `default_permissions = ${toml(CODEX_PROFILE)}`);
  if (input.model !== null) lines.push(`model = ${toml(input.model)}`);
  if (input.provider !== null) lines.push(`model_provider = ${toml(input.provider.id)}`);
  // Plugins look up GitHub/ChatGPT hosts at startup (research/runtimes.md §2).
  lines.push('', '[features]', 'plugins = false');
  // issue 41: a sandboxed command's network is the managed proxy's (the profile below).
  if (base !== null) lines.push('network_proxy = true');
  lines.push('', '[analytics]', 'enabled = false');
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
  if (base !== null) {
    lines.push('', `[permissions.${CODEX_PROFILE}]`, `extends = ${toml(base)}`);
    // Codex keeps a profile's denied reads — and so its network — even on a command the operator
    // approved to leave the sandbox ("escalated sandbox with restrictions"): without network the
    // `agentteam` CLI in the shell could not reach the daemon. Network goes through Codex's managed
    // proxy instead, which lets through only the daemon's host and refuses every other one.
    const daemonHost = new URL(input.mcpUrl).hostname;
    lines.push('', `[permissions.${CODEX_PROFILE}.network]`, 'enabled = true');
    lines.push('', `[permissions.${CODEX_PROFILE}.network.domains]`, `${toml(daemonHost)} = "allow"`);
    lines.push('', `[permissions.${CODEX_PROFILE}.filesystem]`);
    // A folder is denied as a whole: Codex's path entries need no trailing `/`.
    for (const path of input.deniedPaths ?? []) lines.push(`${toml(path.replace(/\/+$/, ''))} = "deny"`);
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
