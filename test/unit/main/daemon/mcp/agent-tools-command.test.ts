/**
 * `agentteam agent send|react` (issue 14 "CLI agent-tools surface"): an MCP client of the
 * daemon's real MCP server, authenticated by the agent's own token from its environment.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentCommand } from '../../../../../main/daemon/mcp/agent-tools-command.js';
import { runCli } from '../../../../../main/serve/cli-main.js';
import { agentToolsEnv } from '../../../../../main/daemon/mcp/agent-tools-env.js';
import { startMcpServer, type AgentteamMcpServer } from '../../../../../main/daemon/mcp/mcp-server.js';
import { RecordingCommunicationHandler } from '../../../../fixtures/recording-communication-handler.js';

let handler: RecordingCommunicationHandler;
let server: AgentteamMcpServer;

beforeEach(async () => {
  handler = new RecordingCommunicationHandler();
  server = await startMcpServer({ handler, limits: { sendsPerMinute: 2, maxMessageBytes: 1000 } });
});
afterEach(async () => {
  await server.close();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => void out.push(l), err: (l: string) => void err.push(l) } };
}

describe('agentteam agent send', () => {
  it('posts as the agent whose token is in the environment, through message_send', async () => {
    const env = agentToolsEnv(server.issueToken('alice'));
    const c = io();
    const code = await agentCommand(['send', '--target', '#general', '--content', 'hi from the shell'], {
      io: c.io,
      env,
    });
    expect(c.err).toEqual([]);
    expect(code).toBe(0);
    expect(handler.sends).toMatchObject([
      { agentId: 'alice', target: '#general', content: 'hi from the shell', allowCrossTarget: false },
    ]);
    expect(JSON.parse(c.out[0] ?? '')).toEqual({
      status: 'sent',
      target_key: '#general',
      seen_up_to_seq: 1,
      message_id: 'm_1',
    });
  });

  it('passes --allow-cross-target, and reads --content - from stdin', async () => {
    const env = agentToolsEnv(server.issueToken('alice'));
    const c = io();
    const code = await agentCommand(['send', '--target', 'dm:@bob', '--content', '-', '--allow-cross-target'], {
      io: c.io,
      env,
      readStdin: async () => 'line one\n"quoted" line two',
    });
    expect(code).toBe(0);
    expect(handler.sends).toMatchObject([
      { agentId: 'alice', target: 'dm:@bob', content: 'line one\n"quoted" line two', allowCrossTarget: true },
    ]);
  });

  it('a refusal of the scope guard is one stderr line with its code, exit 1, nothing sent', async () => {
    handler.refuseTarget.set('#elsewhere', { ok: false, code: 'out_of_scope', message: 'not your input' });
    const c = io();
    const code = await agentCommand(['send', '--target', '#elsewhere', '--content', 'x'], {
      io: c.io,
      env: agentToolsEnv(server.issueToken('alice')),
    });
    expect(code).toBe(1);
    expect(c.err).toEqual(['agentteam agent send: not your input (out_of_scope)']);
    expect(handler.sends).toEqual([]);
  });

  it('the same per-agent rate limit as message_send', async () => {
    const env = agentToolsEnv(server.issueToken('alice'));
    const codes: number[] = [];
    const c = io();
    for (let i = 0; i < 3; i++)
      codes.push(await agentCommand(['send', '--target', '#general', '--content', `m${i}`], { io: c.io, env }));
    expect(codes).toEqual([0, 0, 1]);
    expect(c.err.at(-1)).toMatch(/\(rate_limited\)$/);
  });

  it('a token the daemon does not know is refused (never falls back to anyone)', async () => {
    const { url } = server.issueToken('alice');
    const c = io();
    const code = await agentCommand(['send', '--target', '#general', '--content', 'x'], {
      io: c.io,
      env: { AGENTTEAM_MCP_URL: url, AGENTTEAM_AGENT_TOKEN: 'not-a-token' },
    });
    expect(code).toBe(1);
    expect(c.err[0]).toMatch(/\(auth_failed\)$/);
    expect(handler.calls).toBe(0);
  });

  it('outside an agent runtime (no token in the environment) it says so, exit 2', async () => {
    const c = io();
    expect(await agentCommand(['send', '--target', '#general', '--content', 'x'], { io: c.io, env: {} })).toBe(2);
    expect(c.err[0]).toMatch(/AGENTTEAM_MCP_URL and AGENTTEAM_AGENT_TOKEN are not set.*agentteam send/);
  });

  it('usage errors exit 2 and name the problem', async () => {
    const env = agentToolsEnv(server.issueToken('alice'));
    for (const argv of [
      ['send', '--target', '#general'],
      ['send', '--target', '#general', '--content', 'x', '--emoji', 'y'],
      ['post'],
    ]) {
      const c = io();
      expect(await agentCommand(argv, { io: c.io, env })).toBe(2);
      expect(c.err[0]).toMatch(/^agentteam agent: /);
    }
  });

  it('is reachable as `agentteam agent …` from the CLI entry', async () => {
    const c = io();
    expect(await runCli(['agent', 'send', '--target', '#general'], { io: c.io })).toBe(2);
    expect(c.err[0]).toMatch(/--content is required/);
  });
});

describe('agentteam agent react', () => {
  it('reacts as the agent through the reaction tool; an unknown message is refused', async () => {
    handler.knownMessages.add('m_9');
    const env = agentToolsEnv(server.issueToken('alice'));
    const ok = io();
    expect(await agentCommand(['react', '--message-id', 'm_9', '--emoji', '👍'], { io: ok.io, env })).toBe(0);
    expect(handler.reactions).toEqual([{ agentId: 'alice', messageId: 'm_9', emoji: '👍' }]);
    const bad = io();
    expect(await agentCommand(['react', '--message-id', 'm_0', '--emoji', '👍'], { io: bad.io, env })).toBe(1);
    expect(bad.err[0]).toMatch(/\(unknown_message\)$/);
  });
});
