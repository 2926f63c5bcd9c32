import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_TOKEN_ENV } from '../../../../../../main/daemon/runtime/agent-provider.js';
import { renderCodexConfig, writeCodexHome } from '../../../../../../main/daemon/runtime/codex/codex-config.js';
import { answerCodexServerRequest } from '../../../../../../main/daemon/runtime/codex/codex-server-requests.js';
import type { RpcServerRequest } from '../../../../../../main/daemon/runtime/codex/codex-rpc-client.js';

/** Only the method matters to the answer; the params are not read. */
const serverRequest = (method: string) => ({ id: 1, method, params: {} }) as RpcServerRequest;

const provider = {
  id: 'fake',
  name: 'Fake "quoted"',
  baseUrl: 'http://127.0.0.1:9999/v1',
  apiKeyEnv: 'FAKE_KEY',
  requestMaxRetries: 0,
  streamMaxRetries: 0,
};

describe('Codex config.toml (research/runtimes.md §2)', () => {
  it('pre-approves the agentteam MCP tools over streamable HTTP and reads the bearer token from the env', () => {
    const toml = renderCodexConfig({ mcpUrl: 'http://127.0.0.1:1234/mcp', model: 'fake-model', provider });
    expect(toml).toContain('[mcp_servers.agentteam]\nurl = "http://127.0.0.1:1234/mcp"');
    expect(toml).toContain(`bearer_token_env_var = "${MCP_TOKEN_ENV}"`);
    expect(toml).toContain('default_tools_approval_mode = "approve"');
    expect(toml).toContain('approval_policy = "never"');
    expect(toml).toContain('[features]\nplugins = false');
    expect(toml).toContain('[analytics]\nenabled = false');
  });

  it('writes the model provider with the Responses API and escapes strings', () => {
    const toml = renderCodexConfig({ mcpUrl: 'http://127.0.0.1:1/mcp', model: 'fake-model', provider });
    expect(toml).toContain('model = "fake-model"\nmodel_provider = "fake"');
    expect(toml).toContain(
      '[model_providers.fake]\nname = "Fake \\"quoted\\""\nbase_url = "http://127.0.0.1:9999/v1"\nenv_key = "FAKE_KEY"\nwire_api = "responses"',
    );
    expect(toml).toContain('request_max_retries = 0');
  });

  it('leaves model and provider to Codex when the agent names none', () => {
    const toml = renderCodexConfig({ mcpUrl: 'http://127.0.0.1:1/mcp', model: null, provider: null });
    expect(toml).not.toMatch(/^model/m);
    expect(toml).not.toContain('[model_providers.');
  });

  it('issue 41: a sandboxed policy is a permission profile denying the given paths; full stays a sandbox_mode', () => {
    const input = { mcpUrl: 'http://127.0.0.1:1/mcp', model: null, provider: null };
    const deniedPaths = ['/data/serve-token', '/data/runtimes/', '/data/we "quoted"'];
    const readOnly = renderCodexConfig({ ...input, sandboxMode: 'read-only', deniedPaths });
    expect(readOnly).toContain('default_permissions = "agentteam"');
    // Codex refuses `sandbox_mode` beside `default_permissions`.
    expect(readOnly).not.toContain('sandbox_mode');
    expect(readOnly).toContain('[features]\nplugins = false\nnetwork_proxy = true');
    expect(readOnly).toContain(
      [
        '[permissions.agentteam]',
        'extends = ":read-only"',
        '',
        // Network only to the daemon's host, through Codex's managed proxy.
        '[permissions.agentteam.network]',
        'enabled = true',
        '',
        '[permissions.agentteam.network.domains]',
        '"127.0.0.1" = "allow"',
        '',
        '[permissions.agentteam.filesystem]',
        '"/data/serve-token" = "deny"',
        '"/data/runtimes" = "deny"',
        '"/data/we \\"quoted\\"" = "deny"',
      ].join('\n'),
    );
    expect(renderCodexConfig({ ...input, sandboxMode: 'workspace-write', deniedPaths })).toContain(
      '[permissions.agentteam]\nextends = ":workspace"',
    );
    // Without a mode: read-only, as before.
    expect(renderCodexConfig(input)).toContain('extends = ":read-only"');
    const full = renderCodexConfig({ ...input, sandboxMode: 'danger-full-access', deniedPaths });
    expect(full).toContain('sandbox_mode = "danger-full-access"');
    expect(full).not.toContain('default_permissions');
    expect(full).not.toContain('[permissions.');
    expect(full).not.toContain('network_proxy');
  });

  it('writes config.toml 0600 in a 0700 CODEX_HOME', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'codex-config-')), 'codex-home');
    const file = await writeCodexHome(dir, { mcpUrl: 'http://127.0.0.1:1/mcp', model: null, provider: null });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readFile(file, 'utf8')).toContain('[mcp_servers.agentteam]');
  });
});

describe('deterministic answers to Codex server→client requests', () => {
  it.each([
    ['item/commandExecution/requestApproval', { result: { decision: 'decline' } }],
    ['item/fileChange/requestApproval', { result: { decision: 'decline' } }],
    ['mcpServer/elicitation/request', { result: { action: 'decline', content: null, _meta: null } }],
    ['item/tool/requestUserInput', { result: { answers: {} } }],
    ['item/permissions/requestApproval', { result: { permissions: {}, scope: 'turn' } }],
  ])('%s is declined', (method, expected) => {
    expect(answerCodexServerRequest(serverRequest(method))).toEqual(expected);
  });

  it('legacy approvals are denied with a reason, unknown methods get method-not-found', () => {
    expect(answerCodexServerRequest(serverRequest('execCommandApproval'))).toMatchObject({
      result: { decision: { denied: { rejection: expect.stringContaining('AgentTeam') } } },
    });
    expect(answerCodexServerRequest(serverRequest('account/chatgptAuthTokens/refresh'))).toMatchObject({
      error: { code: -32601 },
    });
  });
});
