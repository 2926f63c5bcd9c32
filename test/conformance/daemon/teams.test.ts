/**
 * issue 25 with real CLIs: one daemon (`createDaemon`) runs two real runtimes, each against its
 * own scripted fake model (test/fixtures/fake-model-script.ts, the team cases), observed only
 * through the API a person has.
 *
 * - One operator message to the lead: the lead asks the teammate through `message_send`
 *   mentioning `@teammate`; the teammate answers on the target; the lead gets that answer
 *   handed back (`signal_only`) and posts the final answer that uses it. Every wake ends in
 *   exactly one terminal status.
 * - An agent mentioning itself wakes no one.
 * - Two real CLIs mentioning each other stop at the hop budget (`limits.agentHops`): every wake
 *   terminal, none left active, the chain paused with its status.
 * - The paused chain survives a daemon restart (both CLIs restarted) without resetting its
 *   budget; the operator's Continue grants another and the loop stops at the new budget.
 *
 * The conformance table: each pairing of the three real runtimes, lead first, through the MCP tool;
 * and Claude asking Codex with CLI agent-tools (`agentteam agent send` from each one's shell).
 */
import { join } from 'node:path';
import { filter, firstValueFrom, from, mergeMap, startWith, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, Chain, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import {
  DaemonHarness,
  runtimeProcesses,
  runtimeProcessesAfter,
  type HarnessAgent,
  type RealRuntime,
} from '../../fixtures/daemon-harness.js';
import { checkoutAgentCli } from '../../fixtures/agent-cli.js';
import { finalChecksReceived } from '../../fixtures/model-final-checks.js';
import { DELEGATED_ANSWER, SHELL_TOOLS, TEAM_QUESTION, finalAnswerFrom } from '../../fixtures/fake-model-script.js';

/** This checkout's CLI under this Node, as `agentteam serve` launches itself (the current build, else the source). */
const AGENT_CLI = checkoutAgentCli();

/** Lead, teammate, and how both send (the MCP tool, or `agentteam agent send` from their shell). */
const PAIRS: ReadonlyArray<readonly [RealRuntime, RealRuntime, 'mcp' | 'cli']> = [
  ['claude-code', 'codex', 'mcp'],
  ['codex', 'opencode', 'mcp'],
  ['opencode', 'claude-code', 'mcp'],
  ['claude-code', 'codex', 'cli'],
];
/** Small, so the loop reaches it in a few real turns. */
const AGENT_HOPS = 3;
const TURN_MS = 60_000;

describe.each(PAIRS)(
  '%s asks %s (%s agent-tools): agent teams with real CLIs (fake models)',
  (leadRuntime, mateRuntime, tools) => {
    let h: DaemonHarness;
    let lead: HarnessAgent;
    let mate: HarnessAgent;

    beforeAll(async () => {
      h = await DaemonHarness.start(leadRuntime, {
        teammates: [mateRuntime],
        agentHops: AGENT_HOPS,
        ...(tools === 'cli' ? { agentTools: 'cli' as const, agentCli: AGENT_CLI } : {}),
      });
      lead = h.agent(leadRuntime);
      mate = h.agent(mateRuntime);
      await h.ready(120_000);
    }, 150_000);

    afterAll(async () => {
      await h?.dispose();
    }, 60_000);

    /** The target's wakes once `done` holds of them, re-checked at each wake event of the current daemon. */
    function wakesWhen(target: string, done: (ws: readonly Wake[]) => boolean, ms: number): Promise<Wake[]> {
      return firstValueFrom(
        h.daemon.events$.pipe(
          filter((e) => e.name === 'wake.status'),
          startWith(null),
          mergeMap(() => from(h.api['wakes.list']({ target }))),
          filter((ws) => done(ws)),
          timeout({
            first: ms,
            with: () => Promise.reject(new Error(`wakes of ${target} not settled within ${ms} ms: ${h.errorLog()}`)),
          }),
        ),
      ).then((ws) => [...ws].sort((a, b) => (a.hop ?? 0) - (b.hop ?? 0)));
    }

    const allTerminal = (count: number) => (ws: readonly Wake[]) =>
      ws.length >= count && ws.every((w) => isTerminal(w.status));

    /** Resolves with the chain once it pauses (a `chain.updated` event of the current daemon). */
    function paused(chainId: string, ms: number): Promise<Chain> {
      return firstValueFrom(
        h.daemon.events$.pipe(
          filter(
            (e): e is Extract<ApiEvent, { name: 'chain.updated' }> =>
              e.name === 'chain.updated' && e.payload.chainId === chainId && e.payload.status === 'paused',
          ),
          timeout({
            first: ms,
            with: () => Promise.reject(new Error(`chain ${chainId} not paused within ${ms} ms: ${h.errorLog()}`)),
          }),
        ),
      ).then((e) => e.payload);
    }

    /** Each wake's timeline holds exactly one terminal status (contract §6.2). */
    async function expectOneTerminalEach(wakes: readonly Wake[]): Promise<void> {
      for (const w of wakes) {
        const { events } = await h.api['wakes.inspect']({ wakeToken: w.wakeToken });
        const terminals = events.filter((e) => e.kind === 'status' && e.status !== null && isTerminal(e.status));
        expect(terminals, `${w.agentId} ${w.cause ?? ''} hop ${w.hop ?? ''}`).toHaveLength(1);
      }
    }

    it(
      'the lead asks the teammate, the answer is handed back (signal_only), the lead posts the final answer with it',
      async () => {
        const target = '#team-ask';
        const leadRequests = lead.model.requests.length;
        const mateRequests = mate.model.requests.length;
        const sent = await h.api['messages.send']({ target, content: `@${lead.agentId} [[ask:${mate.agentId}]]` });
        const wakes = await wakesWhen(target, allTerminal(3), 3 * TURN_MS);
        expect(wakes).toHaveLength(3);
        const [operator, asked, handBack] = wakes;
        expect(wakes.map((w) => w.chainId)).toEqual([sent.messageId, sent.messageId, sent.messageId]);
        expect(operator).toMatchObject({ agentId: lead.agentId, cause: 'operator', hop: 0, status: 'reply_sent' });
        expect(asked).toMatchObject({
          agentId: mate.agentId,
          runtime: mateRuntime,
          cause: 'agent_mention',
          hop: 1,
          hopBudget: AGENT_HOPS,
          askedById: lead.agentId,
          askedByName: `Conformance ${leadRuntime}`,
          status: 'reply_sent',
          finalCheck: false,
        });
        // contract §9.1/§9.3: the hand-back is a workflow callback — no final-check; issue 38: the lead's final answer covers it (§9.2): reply_sent.
        expect(handBack).toMatchObject({
          agentId: lead.agentId,
          cause: 'hand_back',
          hop: 2,
          askedById: mate.agentId,
          status: 'reply_sent',
          reason: null,
          finalCheck: false,
        });
        await expectOneTerminalEach(wakes);

        // What the channel shows: the ask (addressed to the teammate), its answer, the lead's final answer that uses it.
        const { messages } = await h.api['messages.list']({ target });
        expect(messages.map((m) => [m.authorId, m.content])).toEqual([
          ['operator', `@${lead.agentId} [[ask:${mate.agentId}]]`],
          [lead.agentId, `@${mate.agentId} ${TEAM_QUESTION}`],
          [mate.agentId, DELEGATED_ANSWER],
          [lead.agentId, finalAnswerFrom(mate.agentId, DELEGATED_ANSWER)],
        ]);
        expect(messages[1]?.addressed).toEqual([{ agentId: mate.agentId, name: `Conformance ${mateRuntime}` }]);
        // The hand-back carried the teammate's reply (its message id) to the lead.
        expect(handBack?.messageId).toBe(messages[2]?.id);

        // At the models: the teammate's CLI got the delivery naming who asked and the exact target;
        // the lead's CLI got the hand-back and answered it with the final answer; no final-check anywhere.
        const mateInputs = mate.model.requests.slice(mateRequests).map((r) => r.input);
        expect(mateInputs.some((i) => i.includes(`(@${lead.agentId}) asked you in the message below`))).toBe(true);
        expect(mateInputs.some((i) => i.includes(`Answer on exactly "${target}"`))).toBe(true);
        const leadCalls = lead.model.requests.slice(leadRequests);
        expect(leadCalls.map((r) => r.reply?.script).filter((s) => s?.startsWith('team_'))).toEqual([
          'team_ask',
          'team_final',
        ]);
        // Each send went through the surface the agents have: the MCP tool, or `agentteam agent send` in their shell.
        const sends = [...leadCalls, ...mate.model.requests.slice(mateRequests)]
          .filter((r) => ['team_ask', 'team_answer', 'team_final'].includes(r.reply?.script ?? ''))
          .map((r) => r.reply?.toolName ?? '');
        expect(sends).toHaveLength(3);
        for (const tool of sends)
          if (tools === 'cli') expect(SHELL_TOOLS).toContain(tool);
          else expect(tool).toMatch(/message_send$/);
        expect(finalChecksReceived(leadCalls, target)).toBe(0);
        expect(finalChecksReceived(mate.model.requests.slice(mateRequests), target)).toBe(0);

        const [chain] = await h.api['chains.list']({ target });
        expect(chain).toMatchObject({ chainId: sent.messageId, status: 'open', hops: 2, budget: AGENT_HOPS });
        // No wake left active; the signal-only wake raised no no-response alert.
        expect(await h.api['wakes.list']({ activeOnly: true })).toEqual([]);
        const alerts = h.events.flatMap((e) =>
          e.name === 'alert.raised' && wakes.some((w) => w.wakeToken === e.payload.wakeToken) ? [e.payload.kind] : [],
        );
        expect(alerts).toEqual([]);
      },
      4 * TURN_MS,
    );

    it(
      'an agent mentioning itself wakes no one',
      async () => {
        const target = '#team-self';
        await h.idle(TURN_MS);
        const { wakeToken, messageId } = await h.send(target, `[[ask:${lead.agentId}]]`);
        expect((await h.terminal(wakeToken, TURN_MS)).status).toBe('reply_sent');
        await h.idle(TURN_MS);
        const { messages } = await h.api['messages.list']({ target });
        expect(messages.map((m) => [m.authorId, m.content])).toEqual([
          ['operator', `@${lead.agentId} [[ask:${lead.agentId}]]`],
          [lead.agentId, `@${lead.agentId} ${TEAM_QUESTION}`],
        ]);
        expect(messages[1]?.addressed).toEqual([]);
        // The agent's message was routed before its send returned: nothing woke, and the chain spent no hop.
        expect((await h.api['wakes.list']({ target })).map((w) => w.wakeToken)).toEqual([wakeToken]);
        expect(await h.api['chains.list']({ target })).toMatchObject([{ chainId: messageId, hops: 0, status: 'open' }]);
      },
      2 * TURN_MS,
    );

    it(
      'two agents mentioning each other stop at the hop budget: every wake terminal, none active, the chain paused',
      async () => {
        const target = '#team-loop';
        await h.idle(TURN_MS);
        const sent = await h.api['messages.send']({
          target,
          content: `@${lead.agentId} [[loop:${lead.agentId},${mate.agentId}]]`,
        });
        const chain = await paused(sent.messageId, (AGENT_HOPS + 1) * TURN_MS);
        expect(chain).toMatchObject({
          status: 'paused',
          hops: AGENT_HOPS,
          budget: AGENT_HOPS,
          continues: 0,
          // The held mention: the agent the last message addressed.
          heldFor: [{ agentId: AGENT_HOPS % 2 === 0 ? mate.agentId : lead.agentId }],
        });
        const wakes = await wakesWhen(target, allTerminal(AGENT_HOPS + 1), TURN_MS);
        // Operator wake, then one agent-caused wake per hop, alternating, each the other agent's mention.
        expect(wakes.map((w) => [w.agentId, w.cause, w.hop])).toEqual(
          Array.from({ length: AGENT_HOPS + 1 }, (_, i) => [
            i % 2 === 0 ? lead.agentId : mate.agentId,
            i === 0 ? 'operator' : 'agent_mention',
            i,
          ]),
        );
        expect(wakes.every((w) => w.status === 'reply_sent')).toBe(true);
        await expectOneTerminalEach(wakes);
        expect(await h.api['wakes.list']({ activeOnly: true })).toEqual([]);
        // The held message is stored and shown; it woke no one.
        const { messages } = await h.api['messages.list']({ target });
        expect(messages).toHaveLength(AGENT_HOPS + 2);
        expect(chain.heldMessageId).toBe(messages.at(-1)?.id);
        expect(wakes.some((w) => w.messageId === chain.heldMessageId)).toBe(false);
        expect(h.logLines.some((l) => l.message === 'chain paused at its hop budget')).toBe(true);
      },
      (AGENT_HOPS + 3) * TURN_MS,
    );

    it(
      'the paused chain survives a daemon restart without resetting its budget; Continue grants another',
      async () => {
        const target = '#team-loop';
        const [before] = await h.api['chains.list']({ target, pausedOnly: true });
        expect(before).toMatchObject({ status: 'paused', hops: AGENT_HOPS, budget: AGENT_HOPS });
        const chainId = (before as Chain).chainId;

        await h.restart();
        await h.ready(120_000);
        expect(await h.api['chains.list']({ target })).toMatchObject([
          { chainId, status: 'paused', hops: AGENT_HOPS, budget: AGENT_HOPS, heldMessageId: before?.heldMessageId },
        ]);
        // Nothing woke across the restart: the held mention waits for the operator.
        expect(await h.api['wakes.list']({ target })).toHaveLength(AGENT_HOPS + 1);

        const again = paused(chainId, (AGENT_HOPS + 1) * TURN_MS);
        const continued = await h.api['chains.continue']({ chainId });
        expect(continued).toMatchObject({ status: 'open', hops: AGENT_HOPS + 1, budget: 2 * AGENT_HOPS, continues: 1 });
        expect(await again).toMatchObject({ hops: 2 * AGENT_HOPS, budget: 2 * AGENT_HOPS, continues: 1 });
        const wakes = await wakesWhen(target, allTerminal(2 * AGENT_HOPS + 1), TURN_MS);
        expect(wakes.map((w) => w.hop)).toEqual(Array.from({ length: 2 * AGENT_HOPS + 1 }, (_, i) => i));
        expect(wakes.slice(AGENT_HOPS + 1).every((w) => w.hopBudget === 2 * AGENT_HOPS)).toBe(true);
        expect(wakes.every((w) => w.status === 'reply_sent')).toBe(true);
        await expectOneTerminalEach(wakes);
        expect(await h.api['wakes.list']({ activeOnly: true })).toEqual([]);
      },
      (AGENT_HOPS + 5) * TURN_MS,
    );

    it('stop: both runtimes end with the daemon, each in its own HOME under the data dir; no orphans', async () => {
      const running = runtimeProcesses(h.dir);
      if (running === null) return expect.fail('cannot list processes on this platform (/proc)');
      // The check can fail: each agent's CLI runs now, its HOME under its own folder of the data dir.
      for (const a of [lead, mate])
        expect(running.some((p) => p.home?.startsWith(join(h.dir, 'runtimes', a.agentId)))).toBe(true);
      await h.stop();
      expect(await runtimeProcessesAfter(h.dir)).toEqual([]);
    }, 60_000);
  },
);
