/**
 * Per-agent OpenCode isolation and config (research/runtimes.md §2 "OpenCode"): XDG dirs under
 * the agent's runtime home, the global `opencode.json` there (never in the person's project
 * dir), the agentteam MCP server as a remote server with the agent's bearer header, and the
 * startup network traffic switched off (the OPENCODE_DISABLE_* vars, `--pure`, and a dead
 * `npm_config_registry`, without which it contacts the npm registry at startup).
 *
 * The bearer token is not written to disk: the header uses OpenCode's `{env:VAR}` substitution
 * and the adapter sets the variable on the process.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_TOKEN_ENV, type AgentProvider } from '../agent-provider.js';

/** A port nothing listens on: npm lookups fail at once instead of reaching the registry. */
export const DEAD_NPM_REGISTRY = 'http://127.0.0.1:9/';

/**
 * OpenCode keys `auth.json` by provider id, and `opencode auth login` for OpenAI stores the key
 * under its built-in `openai` provider (`{ "openai": { "type": "api", "key": … } }`). An agent
 * signed in with the person's login (issue 15) therefore uses that provider — its own SDK
 * (`@ai-sdk/openai`, Responses API) with only `baseURL` overridden — so the linked key applies.
 */
export const OPENCODE_PERSON_LOGIN_PROVIDER = 'openai';

export interface OpencodeConfigInput {
  readonly mcpUrl: string;
  /** `provider/model`, or a bare model id of `provider`; null keeps OpenCode's default. */
  readonly model: string | null;
  readonly provider: AgentProvider | null;
  /** issue 14: the `permission` key (opencode-permissions.ts); absent → OpenCode's default. */
  readonly permission?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
}

export interface OpencodeDirs {
  readonly home: string;
  readonly config: string;
  readonly data: string;
  readonly cache: string;
  readonly state: string;
}

export function opencodeDirs(home: string): OpencodeDirs {
  return {
    home,
    config: join(home, 'xdg', 'config'),
    data: join(home, 'xdg', 'data'),
    cache: join(home, 'xdg', 'cache'),
    state: join(home, 'xdg', 'state'),
  };
}

/** The model reference OpenCode wants (`provider/model`). */
export function opencodeModelRef(input: OpencodeConfigInput): string | null {
  if (input.model === null) return null;
  if (input.model.includes('/') || input.provider === null) return input.model;
  return `${input.provider.id}/${input.model}`;
}

export function renderOpencodeConfig(input: OpencodeConfigInput): Record<string, unknown> {
  const config: Record<string, unknown> = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    mcp: {
      agentteam: {
        type: 'remote',
        url: input.mcpUrl,
        headers: { Authorization: `Bearer {env:${MCP_TOKEN_ENV}}` },
        // Our server answers 401 only for a bad token; OAuth discovery would be a network detour.
        oauth: false,
        enabled: true,
      },
    },
  };
  if (input.permission !== undefined) config.permission = input.permission;
  const model = opencodeModelRef(input);
  if (model !== null) {
    config.model = model;
    // The title generator uses small_model; keep it on the same provider (no other traffic).
    config.small_model = model;
  }
  if (input.provider !== null) {
    const p = input.provider;
    const modelId = model !== null && model.startsWith(`${p.id}/`) ? model.slice(p.id.length + 1) : null;
    const models = modelId === null ? {} : { [modelId]: { name: modelId } };
    if (p.id === OPENCODE_PERSON_LOGIN_PROVIDER) {
      config.provider = { [p.id]: { options: { baseURL: p.baseUrl }, models } };
      return config;
    }
    config.provider = {
      [p.id]: {
        // Bundled with OpenCode: nothing is downloaded (research/runtimes.md §2).
        npm: '@ai-sdk/openai-compatible',
        name: p.name,
        options: {
          baseURL: p.baseUrl,
          ...(p.apiKeyEnv === null ? { apiKey: 'none' } : { apiKey: `{env:${p.apiKeyEnv}}` }),
        },
        models,
      },
    };
  }
  return config;
}

/** The env the daemon must set on `opencode serve` (on top of the agent's own env). */
export function opencodeIsolationEnv(dirs: OpencodeDirs, password: string, mcpToken: string): Record<string, string> {
  return {
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    OPENCODE_SERVER_PASSWORD: password,
    [MCP_TOKEN_ENV]: mcpToken,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    npm_config_registry: DEAD_NPM_REGISTRY,
  };
}

/**
 * issue 29: the shell OpenCode's tools run their commands in. OpenCode starts its `bash` tool with
 * its own environment (which must hold `OPENCODE_SERVER_PASSWORD` for the server), and offers no
 * setting to keep a variable out of it (only plugins can, and `--pure` keeps plugins off). So
 * `$SHELL` is this wrapper, named `bash` as OpenCode expects: it unsets the password and execs the
 * real shell, so a command cannot answer its own permission requests with it. (A process of the
 * same user can still read `/proc/<opencode pid>/environ`: see the README's security section.)
 */
export async function writeToolShell(dirs: OpencodeDirs, realShell: string): Promise<string> {
  const dir = join(dirs.home, 'tool-shell');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'bash');
  const quoted = `'${realShell.replaceAll("'", `'\\''`)}'`;
  await writeFile(
    file,
    [
      '#!/bin/sh',
      "# Written by AgentTeam: OpenCode's tool shell, without the daemon's server password (issue 29).",
      'unset OPENCODE_SERVER_PASSWORD',
      `exec ${quoted} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o700 },
  );
  return file;
}

/** Creates the XDG dirs (0700) and writes the global `opencode.json` (0600). */
export async function writeOpencodeHome(dirs: OpencodeDirs, input: OpencodeConfigInput): Promise<string> {
  for (const dir of [dirs.config, dirs.data, dirs.cache, dirs.state])
    await mkdir(dir, { recursive: true, mode: 0o700 });
  await mkdir(join(dirs.config, 'opencode'), { recursive: true, mode: 0o700 });
  const file = join(dirs.config, 'opencode', 'opencode.json');
  await writeFile(file, `${JSON.stringify(renderOpencodeConfig(input), null, 2)}\n`, { mode: 0o600 });
  return file;
}
