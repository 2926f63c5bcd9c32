import { describe, expect, it } from 'vitest';
import { parseSshHost, sshHostLabel } from '../../../shared/agent-host.js';
import { ConfigSchema } from '../../../shared/config.js';

describe('agents[].host (issue 43)', () => {
  it.each([
    ['ssh://dev@build.example.com', { user: 'dev', hostname: 'build.example.com', port: 22 }],
    ['ssh://agentteam-remote@127.0.0.1:2222', { user: 'agentteam-remote', hostname: '127.0.0.1', port: 2222 }],
    ['ssh://me@[::1]:22', { user: 'me', hostname: '::1', port: 22 }],
  ])('reads %s', (text, host) => {
    expect(parseSshHost(text)).toEqual({ ok: true, host });
  });

  it.each([
    ['build.example.com', 'is not an SSH address'],
    ['ssh://build.example.com', 'is not an SSH address'],
    ['ssh://dev:secret@host', 'is not a user name'],
    ['ssh://-oProxyCommand=x@host', 'is not a user name'],
    ['ssh://dev@-oProxyCommand=x', 'is not a host name'],
    ['ssh://dev@host:0', 'outside 1–65535'],
    ['ssh://dev@host:70000', 'outside 1–65535'],
    ['ssh://dev@host/path', 'is not an SSH address'],
    ['ssh://dev@host name', 'is not a host name'],
  ])('refuses %s with a sentence naming the form', (text, words) => {
    const res = parseSshHost(text);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.message).toContain(words);
      expect(res.message).toContain('ssh://user@host');
    }
  });

  it('labels a host as user@host[:port]', () => {
    expect(sshHostLabel({ user: 'a', hostname: 'h', port: 22 })).toBe('a@h');
    expect(sshHostLabel({ user: 'a', hostname: '::1', port: 2200 })).toBe('a@[::1]:2200');
  });

  const agent = (extra: Record<string, unknown>) =>
    ConfigSchema.safeParse({ agents: [{ id: 'far', name: 'Far', runtime: 'claude-code', ...extra }] });

  it('accepts a Claude Code agent on a host with an absolute cwd, or none', () => {
    expect(agent({ host: 'ssh://dev@box', cwd: '/srv/repo' }).success).toBe(true);
    const parsed = agent({ host: 'ssh://dev@box' });
    expect(parsed.success && parsed.data.agents[0]?.host).toBe('ssh://dev@box');
  });

  it('accepts an ACP or Codex agent on a host (issue 43: stdio over the SSH channel, as Claude Code)', () => {
    expect(agent({ host: 'ssh://dev@box', runtime: 'acp', preset: 'qwen', cwd: '/srv/repo' }).success).toBe(true);
    expect(agent({ host: 'ssh://dev@box', runtime: 'codex', cwd: '/srv/repo' }).success).toBe(true);
  });

  it('names the JSON path and the fix of each invalid host entry', () => {
    const issues = (extra: Record<string, unknown>) => {
      const res = agent(extra);
      return res.success ? [] : res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ host: 'box' })).toEqual([expect.stringMatching(/^agents\.0\.host: "box" is not an SSH address/)]);
    expect(issues({ host: 'ssh://dev@box', cwd: 'repo' })).toEqual([
      expect.stringMatching(/^agents\.0\.cwd: .*must be absolute/),
    ]);
    // Whether the runtime runs over SSH is its descriptor's (issue 39): the daemon's load checks it
    // (test/unit/main/daemon/config/load-config.test.ts), the shared schema has no list of runtimes.
    expect(issues({ host: 'ssh://dev@box', runtime: 'opencode', cwd: '/r' })).toEqual([]);
    // issue 43: a worktree on the host is made of the repository its `cwd` lies in there, so it must name one.
    expect(issues({ host: 'ssh://dev@box', isolation: 'worktree' })).toEqual([
      expect.stringMatching(/^agents\.0\.cwd: .*"isolation": "worktree".*a git repository on that host/),
    ]);
  });

  it('accepts a worktree agent on a host (issue 43: its worktree is made on that host)', () => {
    expect(agent({ host: 'ssh://dev@box', isolation: 'worktree', cwd: '/srv/repo' }).success).toBe(true);
    expect(
      agent({ host: 'ssh://dev@box', isolation: 'worktree', cwd: '/srv/repo', worktreesDir: '/srv/wt' }).success,
    ).toBe(true);
  });
});
