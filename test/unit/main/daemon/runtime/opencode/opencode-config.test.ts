import { describe, expect, it } from 'vitest';
import {
  DEAD_NPM_REGISTRY,
  opencodeDirs,
  opencodeIsolationEnv,
  opencodeModelRef,
  OPENCODE_PERSON_LOGIN_PROVIDER,
  renderOpencodeConfig,
} from '../../../../../../main/daemon/runtime/opencode/opencode-config.js';
import { MCP_TOKEN_ENV } from '../../../../../../main/daemon/runtime/agent-provider.js';

const provider = { id: 'fake', name: 'Fake', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'FAKE_KEY' };

describe('OpenCode config (research/runtimes.md §2)', () => {
  it('configures agentteam as a remote MCP server whose bearer header comes from the env (no token on disk)', () => {
    const config = renderOpencodeConfig({ mcpUrl: 'http://127.0.0.1:5/mcp', model: 'fake-model', provider });
    expect(config.mcp).toEqual({
      agentteam: {
        type: 'remote',
        url: 'http://127.0.0.1:5/mcp',
        headers: { Authorization: `Bearer {env:${MCP_TOKEN_ENV}}` },
        oauth: false,
        enabled: true,
      },
    });
    expect(config.autoupdate).toBe(false);
    expect(config.share).toBe('disabled');
  });

  it("issue 15: the person's login uses OpenCode's built-in openai provider at the endpoint, no key of its own", () => {
    const config = renderOpencodeConfig({
      mcpUrl: 'http://x/mcp',
      model: 'fake-model',
      provider: { id: OPENCODE_PERSON_LOGIN_PROVIDER, name: 'x', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: null },
    });
    expect(config.model).toBe('openai/fake-model');
    // No `npm` (its own @ai-sdk/openai) and no apiKey: the key comes from the linked auth.json.
    expect(config.provider).toEqual({
      openai: { options: { baseURL: 'http://127.0.0.1:9/v1' }, models: { 'fake-model': { name: 'fake-model' } } },
    });
  });

  it('declares an OpenAI-compatible provider and uses it for model and small_model', () => {
    const config = renderOpencodeConfig({ mcpUrl: 'http://x/mcp', model: 'fake-model', provider });
    expect(config.model).toBe('fake/fake-model');
    expect(config.small_model).toBe('fake/fake-model');
    expect(config.provider).toEqual({
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:FAKE_KEY}' },
        models: { 'fake-model': { name: 'fake-model' } },
      },
    });
  });

  it('keeps a provider-qualified model as given, and OpenCode defaults without one', () => {
    expect(opencodeModelRef({ mcpUrl: '', model: 'anthropic/claude', provider: null })).toBe('anthropic/claude');
    const config = renderOpencodeConfig({ mcpUrl: 'http://x/mcp', model: null, provider: null });
    expect(config).not.toHaveProperty('model');
    expect(config).not.toHaveProperty('provider');
  });

  it('isolates every XDG dir and switches off startup network traffic', () => {
    const dirs = opencodeDirs('/agents/a1');
    const env = opencodeIsolationEnv(dirs, 'pw', 'tok');
    expect(env).toMatchObject({
      HOME: '/agents/a1',
      XDG_CONFIG_HOME: '/agents/a1/xdg/config',
      XDG_DATA_HOME: '/agents/a1/xdg/data',
      XDG_CACHE_HOME: '/agents/a1/xdg/cache',
      XDG_STATE_HOME: '/agents/a1/xdg/state',
      OPENCODE_SERVER_PASSWORD: 'pw',
      [MCP_TOKEN_ENV]: 'tok',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      npm_config_registry: DEAD_NPM_REGISTRY,
    });
  });
});
