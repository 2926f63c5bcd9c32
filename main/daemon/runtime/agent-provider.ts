/**
 * What Codex and OpenCode share about an agent's model provider and its MCP token (DESIGN.md
 * "Config": a person points a runtime at any provider; research/runtimes.md §2). Each runtime's
 * config writer renders these in its own format (codex/codex-config.ts, opencode/opencode-config.ts).
 */

/**
 * The env var carrying the agent's MCP bearer token: the token is never written to disk, the
 * runtime's config names this variable and the driver sets it on the process.
 */
export const MCP_TOKEN_ENV = 'AGENTTEAM_MCP_TOKEN';

/** The provider id used when the agent's env names an OpenAI-compatible endpoint. */
export const AGENT_PROVIDER_ID = 'agentteam';

export interface AgentProvider {
  readonly id: string;
  readonly name: string;
  /** Base URL including `/v1` (Codex speaks its Responses API, OpenCode its Chat Completions API). */
  readonly baseUrl: string;
  /** Env var holding the API key, or null for none. */
  readonly apiKeyEnv: string | null;
}

/**
 * `OPENAI_BASE_URL` in the agent's env becomes a provider keyed by `OPENAI_API_KEY`; without it
 * the runtime's own default provider is kept (and `-c`/config overrides in the agent's args).
 */
export function agentProviderFromEnv(env: Readonly<Record<string, string>>): AgentProvider | null {
  const baseUrl = env.OPENAI_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') return null;
  return {
    id: AGENT_PROVIDER_ID,
    name: 'AgentTeam agent provider',
    baseUrl,
    apiKeyEnv: env.OPENAI_API_KEY === undefined ? null : 'OPENAI_API_KEY',
  };
}

/**
 * issue 15: an endpoint with no key of the agent's own, under `cli-login`, is served by the
 * person's own sign-in: the runtime marks the provider so (Codex: `requiresOpenaiAuth`; OpenCode:
 * its built-in provider id). Null when the agent's env names no endpoint.
 */
export function signInServedProvider(
  env: Readonly<Record<string, string>>,
  auth: string,
  served: (provider: AgentProvider) => AgentProvider,
): AgentProvider | null {
  const provider = agentProviderFromEnv(env);
  return provider !== null && provider.apiKeyEnv === null && auth === 'cli-login' ? served(provider) : provider;
}
