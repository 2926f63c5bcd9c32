/**
 * issue 14 "The CLI agent-tools surface made real", with one real CLI: the real Claude Code against
 * the fake model, an agent with `"agentTools": "cli"` under the default `permissions: "ask"`. The
 * daemon is given how to run this checkout's CLI (as `agentteam serve` gives its own) and puts the
 * `agentteam` shim first on the runtime's PATH — nothing is added to the agent's config.
 *
 * - The prompt names the real command; the model runs `agentteam agent send …` through Bash; that
 *   exact command needs no approval (our tools never ask), the reply arrives as the agent — never
 *   the operator — through the daemon's MCP tool, and the wake ends `reply_sent`.
 * - A chained command (`agentteam agent send …; touch …`) still asks the operator: denied, nothing
 *   of it ran, and the wake ends by the contract in one terminal status. So does one with an extra
 *   option (issue 29: the fast path takes only the documented options).
 * - Codex and OpenCode find the same shim from their own shell tools (Codex: `exec_command`, in a
 *   non-login shell so /etc/profile cannot reset PATH) and their own CLI command never asks either.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { DaemonHarness, type RealRuntime } from '../../fixtures/daemon-harness.js';
import { checkoutAgentCli } from '../../fixtures/agent-cli.js';
import { SHELL_REPLY } from '../../fixtures/fake-model-script.js';

/** This checkout's CLI under this Node, as `agentteam serve` launches itself (the current build, else the source). */
const AGENT_CLI = checkoutAgentCli();

let harness: DaemonHarness;

/** Sends `[[shell:command]]`, expects that exact command to be asked as Bash for the wake, denies it, waits for the end. */
async function askedThenDenied(h: DaemonHarness, command: string): Promise<void> {
  const asked = firstValueFrom(
    h.daemon.events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
      filter((e) => e.payload.status === 'pending'),
      timeout(90_000),
    ),
  );
  const { wakeToken } = await h.send('#general', `[[shell:${command}]] run this`);
  const { payload: approval } = await asked;
  expect(approval).toMatchObject({ tool: 'Bash', summary: command, wakeTokens: [wakeToken] });
  await h.api['approvals.answer']({ id: approval.id, decision: 'deny' });
  const wake = await h.terminal(wakeToken, 120_000);
  expect(isTerminal(wake.status)).toBe(true);
}
beforeAll(async () => {
  harness = await DaemonHarness.start('claude-code', { agentTools: 'cli', agentCli: AGENT_CLI });
  await harness.ready(60_000);
}, 90_000);
afterAll(async () => {
  await harness?.dispose();
}, 60_000);

describe.skipIf(process.platform === 'win32')(
  'a reply through `agentteam agent send` (Claude Code, agentTools "cli")',
  () => {
    it(
      'the exact command needs no approval: reply_sent, authored by the agent, via the shell',
      { timeout: 150_000 },
      async () => {
        const h = harness;
        const shim = join(h.dir, 'bin', 'agentteam');
        expect(statSync(shim).mode & 0o100).toBe(0o100);
        const { wakeToken, messageId } = await h.send('#general', '[[shell-send]] please answer');
        const wake = await h.terminal(wakeToken, 120_000);
        expect(wake).toMatchObject({ status: 'reply_sent', finalCheck: false });

        const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
        const replies = messages.filter((m) => m.authorKind === 'agent');
        expect(replies.map((m) => m.content)).toEqual([SHELL_REPLY]);
        expect(replies[0]).toMatchObject({ authorId: h.agentId });
        expect(messages.filter((m) => m.authorKind === 'operator').map((m) => m.id)).toEqual([messageId]);
        // It went through the shell tool, not the MCP tool directly, and nobody was asked.
        expect(h.model.requests.some((r) => r.reply?.script === 'shell_send' && r.reply.toolName === 'Bash')).toBe(
          true,
        );
        expect(h.model.requests.some((r) => r.reply?.toolName?.endsWith('message_send'))).toBe(false);
        expect(await h.api['approvals.list']({})).toEqual([]);
        // Claude did ask (permission mode "default"): the daemon answered it as one of our own tools.
        expect(h.logLines.filter((l) => l.message === 'approval: own agent-tools command allowed')).toHaveLength(1);
        // The prompt named the real command (the CLI variant), never the MCP tool.
        const prompt = h.model.requests.find((r) => r.input.includes('[[shell-send]]'))?.input ?? '';
        expect(prompt).toContain("`agentteam agent send --target '#general' --content '<reply>'`");
        expect(prompt).not.toContain('mcp__agentteam__message_send');
      },
    );

    it('a chained command still asks the operator; denied, none of it runs', { timeout: 150_000 }, async () => {
      const h = harness;
      await askedThenDenied(h, "agentteam agent send --target '#general' --content 'chained'; touch chained.txt");
      expect(existsSync(join(h.workspace, 'chained.txt'))).toBe(false);
      const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
      expect(messages.some((m) => m.content === 'chained')).toBe(false);
    });

    it(
      'an extra option (a Chromium launcher switch) makes the command ask like any other (issue 29)',
      { timeout: 150_000 },
      async () => {
        const h = harness;
        await askedThenDenied(
          h,
          "agentteam agent send --target '#general' --content 'crafted' '--renderer-cmd-prefix=touch x'",
        );
        const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
        expect(messages.some((m) => m.content === 'crafted')).toBe(false);
      },
    );
  },
);

describe.skipIf(process.platform === 'win32').each(['codex', 'opencode'] as const satisfies readonly RealRuntime[])(
  'a reply through `agentteam agent send` (%s, agentTools "cli")',
  (runtime) => {
    let h: DaemonHarness;
    beforeAll(async () => {
      h = await DaemonHarness.start(runtime, { agentTools: 'cli', agentCli: AGENT_CLI });
      await h.ready(60_000);
    }, 90_000);
    afterAll(async () => {
      await h?.dispose();
    }, 60_000);

    it(
      'its shell finds agentteam; the command needs no approval; reply_sent as the agent',
      { timeout: 150_000 },
      async () => {
        const { wakeToken } = await h.send(
          '#general',
          "[[shell:agentteam agent send --target '#general' --content 'via the cli']] go",
        );
        const wake = await h.terminal(wakeToken, 120_000);
        expect(wake.status).toBe('reply_sent');
        const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
        expect(messages.find((m) => m.authorKind === 'agent')).toMatchObject({
          content: 'via the cli',
          authorId: h.agentId,
        });
        expect(await h.api['approvals.list']({})).toEqual([]);
        expect(h.logLines.filter((l) => l.message === 'approval: own agent-tools command allowed')).toHaveLength(1);
      },
    );
  },
);
