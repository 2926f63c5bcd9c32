/**
 * issue 29 with the real Claude Code and OpenCode (fake model): their own file tools are denied the daemon's
 * state in the data dir under every policy (deny rules apply in every permission mode) — through `permissions.deny` rules the daemon passes with `--settings`. The
 * agent's own workspace (its folder under the data dir) stays readable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

describe.each(['claude-code', 'opencode'] as const)('%s', (runtime) => {
  let h: DaemonHarness;
  beforeAll(async () => {
    // The default policy `ask`: without the deny rules, a Read outside the workspace would be asked of
    // the operator (a pending approval); with them it is refused at once and nobody is asked.
    // (`full` is the same rule in Claude Code, but bypassPermissions refuses to run as root, as CI does.)
    h = await DaemonHarness.start(runtime);
    await h.ready(60_000);
  }, 150_000);
  afterAll(async () => {
    await h?.dispose();
  });

  /** Asks the model to Read `path`; resolves with what it reported back of the tool's result. */
  async function readThrough(path: string): Promise<string> {
    const { wakeToken } = await h.send('#general', `[[read:${path}]] read it`);
    const wake = await h.terminal(wakeToken, 120_000);
    expect(wake.status).toBe('reply_sent');
    const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
    return messages.filter((m) => m.authorKind === 'agent').at(-1)?.content ?? '';
  }

  it(
    "a read of agentteam.json and of the shim is refused; a file in the agent's own workspace is read",
    { timeout: 300_000 },
    async () => {
      const secret = 'workspace-file-4711';
      writeFileSync(join(h.workspace, 'notes.txt'), `${secret}\n`);
      expect(await readThrough(join(h.workspace, 'notes.txt'))).toContain(secret);

      const config = await readThrough(join(h.dir, 'agentteam.json'));
      expect(config).not.toContain('"agents"');
      expect(config).toMatch(/denied|not allowed|permission/i);
      const shim = await readThrough(join(h.dir, 'bin', 'agentteam'));
      expect(shim).not.toContain('#!/bin/sh');
      expect(await h.api['approvals.list']({})).toEqual([]);
    },
  );
});
