/**
 * issue 14 on the real Claude Code CLI (fake model): a workspace and policy chosen from the agent
 * detail (`agents.update`) restart the agent's runtime with them. The next wake's shell command
 * runs in the NEW folder without a question (`full`), and its reply arrives via the tool.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

let h: DaemonHarness;
beforeAll(async () => {
  // Claude Code refuses bypassPermissions (`full`) for root unless IS_SANDBOX=1 (this machine runs tests as root).
  h = await DaemonHarness.start('claude-code', { agentEnv: { IS_SANDBOX: '1' } });
  await h.ready(60_000);
}, 90_000);
afterAll(async () => {
  await h?.dispose();
}, 60_000);

it('agents.update {cwd, permissions} restarts the real CLI there: the next command runs in the new folder, unasked', async () => {
  const next = join(h.dir, 'next-project');
  mkdirSync(next);
  const restarted = h.agentState('idle', 60_000);
  const agent = await h.api['agents.update']({ agentId: h.agentId, cwd: next, permissions: 'full' });
  expect(agent).toMatchObject({ cwd: next, permissions: 'full' });
  await restarted;
  expect(h.logLines.some((l) => l.message.startsWith('agent restarting') && l.fields.cwd === next)).toBe(true);

  const { wakeToken } = await h.send('#general', '[[shell:touch moved.txt]] Please create the file.');
  const done = await h.terminal(wakeToken, 90_000);
  expect(done.status).toBe('reply_sent');
  expect(existsSync(join(next, 'moved.txt'))).toBe(true);
  expect(existsSync(join(h.dir, 'work', 'moved.txt'))).toBe(false);
  // `full`: nothing was asked of the operator.
  expect(await h.api['approvals.list']({})).toEqual([]);
}, 180_000);
