/**
 * issue 25, model-based (fast-check): for any sequence of agent messages — who speaks, whom it
 * mentions (itself included), over a real Store, the real wake lifecycle, delivery tracker,
 * communication and team services — every chain has at most its budget of agent-caused wakes
 * (mentions and hand-backs), its `hops` counts exactly those, every wake ends with exactly one
 * terminal status, and none is left active.
 */
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { ResponseDeliverySchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { isTerminal } from '../../../../../shared/wake-status.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import { ConversationService } from '../../../../../main/daemon/services/conversation-service.js';
import { TeamService } from '../../../../../main/daemon/teams/team-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const AGENTS = ['ann', 'bob', 'cy'] as const;
const general = targetKey('#general');
const dirs: TempDir[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function team(agentHops: number) {
  const dir = makeTempDir('agentteam-chains-model-');
  dirs.push(dir);
  const store = Store.open(dir.path);
  store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  for (const a of AGENTS) store.upsertMember({ id: a, kind: 'agent', name: a.toUpperCase() });
  store.ensureConversation(general);
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    pendingCapacity: 4,
  });
  for (const a of AGENTS)
    lifecycle.registerAgent({ agentId: a, publicName: a, displayName: a.toUpperCase(), runtime: 'demo', model: null });
  const tracker = new DeliveryTracker({
    bus: new HookBus(),
    channelFor: () =>
      new LocalChannel({ appendMessage: (m) => store.appendMessage({ ...m, target: targetKey(m.target) }) }),
    settingsFor: () => ResponseDeliverySchema.parse({}),
    undelivered: store,
  });
  const ids = new Set<string>(AGENTS);
  const chains = new TeamService({
    store,
    lifecycle,
    agentHops,
    agentIds: () => ids,
    runtimeOf: () => 'demo',
    displayName: (id) => id.toUpperCase(),
  });
  let turn = 0;
  const communication = new CommunicationService({
    store,
    lifecycle,
    tracker,
    currentTurn: () => `turn_${turn}`,
    onMessageStored: () => undefined,
    team: chains,
  });
  const conversations = new ConversationService({
    store,
    lifecycle,
    tracker,
    agentIds: () => ids,
    runtimeOf: () => 'demo',
    maxMessageBytes: 32_768,
    onMessageStored: () => undefined,
    chains,
  });
  /** One turn of `agent`: its rows become runtime-visible, it sends `content` (when given), the turn ends. */
  const runTurn = async (agent: string, content: string | null): Promise<boolean> => {
    const rows = lifecycle.pending(agent);
    if (rows.length === 0) return false;
    turn += 1;
    lifecycle.onDelivered(
      agent,
      lifecycle.generation(agent),
      rows.map((r) => r.wakeToken),
    );
    if (content !== null) await communication.messageSend(agent, { target: general, content, allowCrossTarget: false });
    // A final-check turn that sends nothing ends its rows `no_reply`; signal-only rows end at the first boundary.
    if (lifecycle.onTurnBoundary(agent, lifecycle.generation(agent)) !== null)
      lifecycle.onTurnBoundary(agent, lifecycle.generation(agent));
    return true;
  };
  const close = () => {
    communication.dispose();
    void tracker.stop();
    lifecycle.dispose();
    store.close();
  };
  return { store, lifecycle, conversations, communication, chains, runTurn, close };
}

const step = fc.record({
  speaker: fc.constantFrom(...AGENTS),
  mentions: fc.subarray([...AGENTS]),
  silent: fc.boolean(),
});

it('agent-caused wakes per chain never exceed its budget; every wake ends exactly once', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.array(step, { minLength: 1, maxLength: 25 }),
      fc.boolean(),
      async (budget, steps, continueOnce) => {
        const t = team(budget);
        try {
          t.conversations.post('#general', '@ann start');
          let continued = false;
          for (const s of steps) {
            const content = s.silent ? null : `${s.mentions.map((m) => `@${m}`).join(' ')} reply`;
            await t.runTurn(s.speaker, content);
            const paused = t.store.listChains({ pausedOnly: true });
            if (continueOnce && !continued && paused.length > 0) {
              t.chains.continueChain({});
              continued = true;
            }
          }
          // Drain: every agent's remaining rows end (final-check, then no_reply; signal-only at once).
          for (let i = 0; i < 200; i += 1) {
            let ran = false;
            for (const a of AGENTS) ran = (await t.runTurn(a, null)) || ran;
            if (!ran) break;
          }
          const wakes = t.store.listWakes({});
          for (const chain of t.store.listChains({})) {
            const agentCaused = wakes.filter(
              (w) => w.chainId === chain.id && (w.cause === 'agent_mention' || w.cause === 'hand_back'),
            );
            expect(agentCaused.length).toBeLessThanOrEqual(chain.budget);
            expect(chain.hops).toBe(agentCaused.length);
            expect(chain.budget).toBe(budget * (1 + chain.continues));
            // A wake's hop is its place in the chain's count, each once.
            expect(agentCaused.map((w) => w.hop).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(
              agentCaused.map((_, i) => i + 1),
            );
          }
          for (const w of wakes) {
            expect(w.agentId === w.askedById).toBe(false);
            const terminals = t.store
              .listWakeEvents(w.wakeToken)
              .filter((e) => e.status !== null && isTerminal(e.status));
            expect(terminals).toHaveLength(1);
            // A hand-back is signal_only: it ends as its class, or `reply_sent` when its agent then posts to
            // its target (issue 38: that send covers it, §9.2).
            if (w.cause === 'hand_back')
              expect([
                ['signal_only', 'completed_without_visible_reply', 'signal_only'],
                ['signal_only', 'reply_sent', null],
              ]).toContainEqual([w.deliveryClass, w.status, w.reason]);
          }
          expect(t.store.listWakes({ activeOnly: true })).toEqual([]);
        } finally {
          t.close();
        }
      },
    ),
    { numRuns: 25 },
  );
});

/**
 * issue 25, the "chain with 0 hops started by an agent message" once seen: an agent that sends
 * again in the turn after its first message settled its wake (a CLI posting twice, or the demo
 * answering an input whose wake an earlier reply of the turn already settled) has no wake left
 * to take a chain from. That message used to start a chain of its own — 0 hops, and a fresh
 * budget for whomever it mentioned.
 */
it('a second message in the turn, after the first settled the wake, joins its chain: no 0-hop chain, no fresh budget', async () => {
  const t = team(1);
  try {
    const operator = t.conversations.post('#general', '@ann start').message;
    const rows = t.lifecycle.pending('ann');
    t.lifecycle.onDelivered(
      'ann',
      t.lifecycle.generation('ann'),
      rows.map((r) => r.wakeToken),
    );
    const send = (content: string) =>
      t.communication.messageSend('ann', { target: general, content, allowCrossTarget: false });
    expect(await send('first answer')).toMatchObject({ ok: true });
    expect(t.store.listWakes({ activeOnly: true })).toEqual([]);
    // Nothing of ann's is active any more: the next message still belongs to the operator's chain.
    const late = await send('one more thing');
    expect(late).toMatchObject({ ok: true });
    expect(t.store.listChains({}).map((c) => [c.id, c.hops])).toEqual([[operator.id, 0]]);
    // A late mention spends the operator chain's budget (1): bob is woken, the next one is held.
    expect(await send('@bob have a look')).toMatchObject({ ok: true });
    expect(t.store.listWakes({}).filter((w) => w.agentId === 'bob')).toMatchObject([
      { chainId: operator.id, cause: 'agent_mention', hop: 1, hopBudget: 1 },
    ]);
    expect(await send('@cy and you?')).toMatchObject({ ok: true });
    expect(t.store.listWakes({}).filter((w) => w.agentId === 'cy')).toEqual([]);
    expect(t.store.listChains({})).toMatchObject([{ id: operator.id, hops: 1, status: 'paused' }]);
  } finally {
    t.close();
  }
});

/**
 * issue 41: an agent's send outside its turn to a conversation no chain has yet used to start a
 * chain of its own — a fresh hop budget per new conversation (up to limits.conversationsPerHour
 * an hour). The budget follows the agent's own sends: the chain that last woke it pays.
 */
it('a send outside the turn to a new conversation spends the chain that last woke the author, not a fresh budget', async () => {
  const t = team(1);
  try {
    const operator = t.conversations.post('#general', '@ann start').message;
    // ann's turn answers and ends: nothing of ann's is active or pending any more.
    expect(await t.runTurn('ann', 'done')).toBe(true);
    expect(t.lifecycle.pending('ann')).toEqual([]);
    const elsewhere = (target: string, content: string) =>
      t.communication.messageSend('ann', { target: targetKey(target), content, allowCrossTarget: true });
    // Outside any turn, to a conversation it starts: bob is woken on the operator chain's budget (1) …
    expect(await elsewhere('#side-1', '@bob look here')).toMatchObject({ ok: true });
    expect(t.store.listWakes({ agentId: 'bob' })).toMatchObject([
      { chainId: operator.id, target: '#side-1', cause: 'agent_mention', hop: 1, hopBudget: 1 },
    ]);
    // … and the next new conversation finds that budget spent: cy is held, the chain pauses.
    expect(await elsewhere('#side-2', '@cy and here')).toMatchObject({ ok: true });
    expect(t.store.listWakes({ agentId: 'cy' })).toEqual([]);
    expect(t.store.listChains({}).map((c) => [c.id, c.hops, c.status])).toEqual([[operator.id, 1, 'paused']]);
  } finally {
    t.close();
  }
});
