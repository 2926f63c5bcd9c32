import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeLaunch, resolveClaudeCommand } from '../../../../../../main/daemon/runtime/claude-code/claude-launch.js';

const mcp = { url: 'http://127.0.0.1:1234/mcp', token: 't0k', headers: { Authorization: 'Bearer t0k' } };
const base = {
  command: null,
  args: [],
  env: {},
  model: null,
  mcp,
  runtimeDir: '/rt/a1',
  resumeSessionId: null,
  processEnv: {},
  projectRoot: '/nowhere',
};

describe('claudeLaunch', () => {
  it('builds the stream-json command with our MCP server only (alwaysLoad) and both tools allowed without prompts', () => {
    const l = claudeLaunch(base);
    expect(l.args.slice(0, 6)).toEqual([
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    // The config (with the bearer token) goes to a 0600 file, never into argv.
    expect(l.args[l.args.indexOf('--mcp-config') + 1]).toBe('/rt/a1/mcp.json');
    expect(l.mcpConfigFile.path).toBe('/rt/a1/mcp.json');
    expect(l.args.join(' ')).not.toContain('t0k');
    const config = JSON.parse(l.mcpConfigFile.content);
    expect(config).toEqual({
      mcpServers: { agentteam: { type: 'http', url: mcp.url, headers: mcp.headers, alwaysLoad: true } },
    });
    expect(l.args).toContain('--strict-mcp-config');
    expect(l.args[l.args.indexOf('--allowedTools') + 1]).toBe('mcp__agentteam__message_send,mcp__agentteam__reaction');
    expect(l.args[l.args.indexOf('--permission-mode') + 1]).toBe('dontAsk');
    expect(l.args).not.toContain('--resume');
    expect(l.args).not.toContain('--append-system-prompt');
  });

  it('carries the thread contract as the appended system prompt when given', () => {
    const l = claudeLaunch({ ...base, threadContract: 'You are Claude (@claude), an agent in AgentTeam.' });
    expect(l.args[l.args.indexOf('--append-system-prompt') + 1]).toBe(
      'You are Claude (@claude), an agent in AgentTeam.',
    );
  });

  it('isolates HOME and CLAUDE_CONFIG_DIR per agent, turns telemetry off, inherits only provider variables, and puts the agent env and args on top', () => {
    const l = claudeLaunch({
      ...base,
      model: 'sonnet',
      resumeSessionId: 'sess-1',
      args: ['--max-turns', '9'],
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', DISABLE_TELEMETRY: '0' },
      processEnv: { PATH: '/bin', HOME: '/root', ANTHROPIC_API_KEY: 'k', SECRET_DB_PASSWORD: 'no' },
    });
    expect(l.env).toMatchObject({
      HOME: '/rt/a1/home',
      CLAUDE_CONFIG_DIR: '/rt/a1/claude-config',
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      DISABLE_TELEMETRY: '0',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_ERROR_REPORTING: '1',
    });
    expect(l.env.SECRET_DB_PASSWORD).toBeUndefined();
    expect(l.args.slice(-6)).toEqual(['--model', 'sonnet', '--resume', 'sess-1', '--max-turns', '9']);
  });

  it('resolves the binary: config command, else this project’s node_modules/.bin/claude, else claude on PATH', () => {
    expect(resolveClaudeCommand('/opt/claude', '/x')).toBe('/opt/claude');
    expect(resolveClaudeCommand(null, mkdtempSync(join(tmpdir(), 'noclaude-')))).toBe('claude');
    expect(resolveClaudeCommand(null, join(import.meta.dirname, '../../../../../..'))).toMatch(
      /node_modules\/\.bin\/claude$/,
    );
  });
});
