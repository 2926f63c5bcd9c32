/**
 * issue 14 "The CLI agent-tools surface made real", with one real CLI: the real Claude Code
 * against the fake model, which asks its shell tool (Bash, allowed for this one command through
 * the agent's `args`) to run `agentteam agent send …`. The reply arrives as the agent — never as
 * the operator — through the daemon's MCP tool, and the wake ends `reply_sent`.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';
import { SHELL_REPLY } from '../../fixtures/fake-model-script.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `agentteam` on the agent's PATH: this checkout's CLI under this Node (a packaged app ships its own bin). */
function agentteamShim(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-bin-'));
  const file = join(dir, 'agentteam');
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  writeFileSync(
    file,
    `#!/bin/sh\nexec "${process.execPath}" --import "${tsx}" "${join(ROOT, 'main', 'serve', 'cli.ts')}" "$@"\n`,
  );
  chmodSync(file, 0o755);
  return dir;
}

let harness: DaemonHarness | null = null;
let shim = '';
afterAll(async () => {
  await harness?.dispose();
  if (shim !== '') rmSync(shim, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('a reply through `agentteam agent send` (Claude Code)', () => {
  it(
    'the agent replies from its shell with its own token → reply_sent, authored by the agent',
    { timeout: 180_000 },
    async () => {
      shim = agentteamShim();
      harness = await DaemonHarness.start('claude-code', {
        agentArgs: ['--allowedTools', 'Bash(agentteam agent send:*)'],
        agentEnv: { PATH: `${shim}:${process.env.PATH ?? ''}` },
      });
      const h = harness;
      await h.ready(60_000);
      const { wakeToken, messageId } = await h.send('#general', '[[shell-send]] please answer');
      const wake = await h.terminal(wakeToken, 120_000);
      expect(wake).toMatchObject({ status: 'reply_sent', finalCheck: false });

      const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
      const replies = messages.filter((m) => m.content === SHELL_REPLY);
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({ authorId: h.agentId, authorKind: 'agent' });
      expect(messages.filter((m) => m.authorKind === 'operator').map((m) => m.id)).toEqual([messageId]);
      // It went through the shell tool, not the MCP tool directly.
      expect(h.model.requests.some((r) => r.reply?.script === 'shell_send' && r.reply.toolName === 'Bash')).toBe(true);
    },
  );
});
