import { describe, expect, it } from 'vitest';
import { agentProviderFromEnv } from '../../../../../main/daemon/runtime/agent-provider.js';

describe('agentProviderFromEnv (one provider for Codex and OpenCode)', () => {
  it('takes the provider from OPENAI_BASE_URL / OPENAI_API_KEY in the agent env', () => {
    expect(agentProviderFromEnv({})).toBeNull();
    expect(agentProviderFromEnv({ OPENAI_BASE_URL: '' })).toBeNull();
    expect(agentProviderFromEnv({ OPENAI_BASE_URL: 'http://h/v1', OPENAI_API_KEY: 'k' })).toEqual({
      id: 'agentteam',
      name: 'AgentTeam agent provider',
      baseUrl: 'http://h/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
    });
    expect(agentProviderFromEnv({ OPENAI_BASE_URL: 'http://h/v1' })?.apiKeyEnv).toBeNull();
  });
});
