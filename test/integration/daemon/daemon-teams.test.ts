/**
 * issue 25 end to end on the assembled daemon (createDaemon: store, wake lifecycle, prompt
 * compiler, MCP server, team service) with two demo agents, which talk to the daemon's MCP
 * server over HTTP like real runtimes: an agent asks another (`/ask helper …`), the helper's
 * reply is handed back (`signal_only`), the asker posts what it answered; the hop budget
 * pauses a chain, Continue grants another and wakes what was held; a restart keeps the chain.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, mergeMap, from, startWith } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiEvent, type Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

const teamConfig = (agentHops?: number) => ({
  agents: [
    { id: 'demo', name: 'Demo', runtime: 'demo' },
    { id: 'helper', name: 'Helper', runtime: 'demo' },
  ],
  channels: { local: {} },
  ...(agentHops === undefined ? {} : { limits: { agentHops } }),
});

async function start(config: unknown, dir?: string): Promise<{ daemon: Daemon; dir: string }> {
  const d = dir ?? (await mkdtemp(join(tmpdir(), 'agentteam-teams-')));
  if (dir === undefined) {
    dirs.push(d);
    await writeFile(join(d, 'agentteam.json'), JSON.stringify(config));
  }
  const daemon = await createDaemon({ dataDir: d });
  daemons.push(daemon);
  return { daemon, dir: d };
}

/** Resolves with every wake once at least `count` exist and all of them are terminal (re-checked on each wake event). */
function allTerminal(daemon: Daemon, count: number): Promise<Wake[]> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e) => e.name === 'wake.status'),
      startWith(null),
      mergeMap(() => from(daemon.api['wakes.list']({}))),
      filter((ws) => ws.length >= count && ws.every((w) => isTerminal(w.status))),
    ),
  );
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('agent teams on the assembled daemon (two demo agents)', () => {
  it('Demo asks Helper, Helper answers, the answer is handed back and Demo posts it', async () => {
    const { daemon } = await start(teamConfig());
    const sent = await daemon.api['messages.send']({
      target: '#general',
      content: '@demo /ask helper which test first?',
    });
    const wakes = await allTerminal(daemon, 3);
    expect(wakes).toHaveLength(3);
    const [operator, asked, handBack] = wakes;
    // The operator's message started the chain; every wake carries it.
    expect(wakes.map((w) => w.chainId)).toEqual([sent.messageId, sent.messageId, sent.messageId]);
    expect(operator).toMatchObject({ agentId: 'demo', cause: 'operator', hop: 0, status: 'reply_sent' });
    expect(asked).toMatchObject({
      agentId: 'helper',
      cause: 'agent_mention',
      hop: 1,
      hopBudget: 6,
      askedById: 'demo',
      askedByName: 'Demo',
      status: 'reply_sent',
    });
    // contract §9.1/§9.3: the hand-back is signal_only — no final-check; issue 38: the lead's answer covers it (§9.2), so it ends reply_sent.
    expect(handBack).toMatchObject({
      agentId: 'demo',
      cause: 'hand_back',
      hop: 2,
      askedById: 'helper',
      askedByName: 'Helper',
      status: 'reply_sent',
      reason: null,
      finalCheck: false,
    });
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.authorId)).toEqual(['operator', 'demo', 'helper', 'demo']);
    expect(messages[1]).toMatchObject({ chainId: sent.messageId, addressed: [{ agentId: 'helper', name: 'Helper' }] });
    expect(messages[2]?.content).toContain('You asked: "which test first?"');
    expect(messages[3]?.content).toContain('Helper answered: You asked: "which test first?"');
    // The hand-back carries the reply's message id: the one delivered to Demo is Helper's.
    expect(handBack?.messageId).toBe(messages[2]?.id);
    // The asked agent's delivery named who asked and the exact target; the turn context lists the team.
    const inspected = await daemon.api['wakes.inspect']({ wakeToken: asked?.wakeToken ?? '' });
    const delivery = inspected.promptInputs.find((p) => p.kind === 'delivery')?.text ?? '';
    expect(delivery).toContain('Demo (@demo) asked you in the message below. Answer on exactly "#general"');
    const context = inspected.promptInputs.find((p) => p.kind === 'turn_context')?.text ?? '';
    expect(context).toContain('- @demo · Demo · demo · ready');
    expect(context).not.toContain('- @helper');
    const chains = await daemon.api['chains.list']({ target: '#general' });
    expect(chains).toMatchObject([{ chainId: sent.messageId, status: 'open', hops: 2, budget: 6 }]);
    // No wake left active, no no-response alert for the signal-only wake.
    expect(await daemon.api['wakes.list']({ activeOnly: true })).toEqual([]);
  });

  it("the operator's `@demo /ask @helper …` wakes the helper too: it answers, nothing quotes a mention back, two hops", async () => {
    const { daemon } = await start(teamConfig());
    const sent = await daemon.api['messages.send']({
      target: '#general',
      content: '@demo /ask @helper which test first? cc @demo',
    });
    const wakes = await allTerminal(daemon, 4);
    expect(wakes.map((w) => [w.agentId, w.cause, w.hop]).sort()).toEqual(
      [
        ['demo', 'operator', 0],
        ['helper', 'operator', 0],
        ['helper', 'agent_mention', 1],
        ['demo', 'hand_back', 2],
      ].sort(),
    );
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    const agents = messages.filter((m) => m.authorKind === 'agent');
    // Only the demo's ask addresses anyone; the question it quotes, the helper's answers and the
    // handed-back answer it posts name no agent (a quoted "@helper" would wake the helper again).
    expect(agents.filter((m) => (m.addressed ?? []).length > 0).map((m) => [m.authorId, m.content])).toEqual([
      ['demo', '[demo] @helper which test first? cc demo'],
    ]);
    expect(agents.filter((m) => m.content.includes('@'))).toHaveLength(1);
    // Named as the one to ask, the helper answered each wake (it never asks itself): once, or once
    // per wake when the demo's ask reached it after its first answer (a newer message: a new send).
    const helperPosts = agents.filter((m) => m.authorId === 'helper').map((m) => m.content);
    expect(helperPosts.length === 1 || helperPosts.length === 2).toBe(true);
    for (const post of helperPosts) expect(post).toContain('You asked: "which test first? cc demo"');
    expect(agents.at(-1)).toMatchObject({
      authorId: 'demo',
      content: expect.stringMatching(/^\[demo\] Helper answered: You asked: "which test first\? cc demo"/),
    });
    expect(await daemon.api['chains.list']({})).toMatchObject([{ chainId: sent.messageId, hops: 2, status: 'open' }]);
  });

  it('an agent mentioning itself wakes no one', async () => {
    const { daemon } = await start(teamConfig());
    await daemon.api['messages.send']({ target: '#general', content: '@demo /ask demo are you there?' });
    const wakes = await allTerminal(daemon, 1);
    expect(wakes.map((w) => [w.agentId, w.cause])).toEqual([['demo', 'operator']]);
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages[1]).toMatchObject({ authorId: 'demo', addressed: [] });
    // One chain, the operator's: the agent's message starts none of its own.
    const chains = await daemon.api['chains.list']({});
    expect(chains).toHaveLength(1);
    expect(chains[0]).toMatchObject({ hops: 0, status: 'open' });
  });

  it('at the hop budget the hand-back is held and the chain pauses; Continue (after a restart) grants more and delivers it', async () => {
    const first = await start(teamConfig(1));
    const paused = firstValueFrom(
      first.daemon.events$.pipe(
        filter(
          (e): e is Extract<ApiEvent, { name: 'chain.updated' }> =>
            e.name === 'chain.updated' && e.payload.status === 'paused',
        ),
      ),
    );
    const sent = await first.daemon.api['messages.send']({ target: '#general', content: '@demo /ask helper ping?' });
    const event = await paused;
    expect(event.payload).toMatchObject({
      chainId: sent.messageId,
      status: 'paused',
      hops: 1,
      budget: 1,
      heldFor: [{ agentId: 'demo', name: 'Demo' }],
    });
    const wakes = await allTerminal(first.daemon, 2);
    expect(wakes.map((w) => [w.agentId, w.cause])).toEqual([
      ['demo', 'operator'],
      ['helper', 'agent_mention'],
    ]);
    // The helper's reply is stored and shown, and woke no one.
    const { messages } = await first.daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.authorId)).toEqual(['operator', 'demo', 'helper']);
    expect(event.payload.heldMessageId).toBe(messages[2]?.id);

    // The chain survives a restart without resetting its budget.
    await first.daemon.stop();
    const second = await start(undefined, first.dir);
    expect(await second.daemon.api['chains.list']({ pausedOnly: true })).toMatchObject([
      { chainId: sent.messageId, hops: 1, budget: 1, status: 'paused' },
    ]);
    const continued = await second.daemon.api['chains.continue']({ target: '#general' });
    expect(continued).toMatchObject({ status: 'open', hops: 2, budget: 2, continues: 1, heldMessageId: null });
    const after = await allTerminal(second.daemon, 3);
    expect(after[2]).toMatchObject({ agentId: 'demo', cause: 'hand_back', hop: 2, status: 'reply_sent' });
    const shown = await second.daemon.api['messages.list']({ target: '#general' });
    expect(shown.messages.at(-1)?.content).toContain('Helper answered:');
    // Nothing is paused any more: a second Continue says so.
    await expect(second.daemon.api['chains.continue']({})).rejects.toThrow(ApiError);
  });

  it('the Team board lists every agent, idle when nothing runs', async () => {
    const { daemon } = await start(teamConfig());
    await daemon.api['messages.send']({ target: '#general', content: '@demo hi' });
    await allTerminal(daemon, 1);
    const board = await daemon.api['team.board']({});
    expect(board.map((a) => [a.agentId, a.name, a.runtime, a.state])).toEqual([
      ['demo', 'Demo', 'demo', 'idle'],
      ['helper', 'Helper', 'demo', 'idle'],
    ]);
  });
});
