import { Registry } from 'prom-client';
import type { Agent } from '../../../../../shared/api/contract.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { HookEventMap } from '../../../../../main/daemon/bus/hook-events.js';
import { Subject } from 'rxjs';
import { COMPACTED_AFTER_OVERFLOW } from '../../../../../shared/api/contract.js';
import { describe, expect, it } from 'vitest';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import { DEFAULT_DAEMON_LIMITS } from '../../../../../shared/config.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEvent,
  RuntimeEventEnvelope,
  StartResult,
} from '../../../../../main/daemon/runtime/runtime-adapter.js';
import { AgentSession, type PromptInputRecord } from '../../../../../main/daemon/services/agent-session.js';
import { RENEW_DETAIL, RENEWAL_REASONS } from '../../../../../main/daemon/services/agent-session-machine.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/wake-lifecycle.js';
import type { WakeJournal } from '../../../../../main/daemon/wake/wake-ports.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';

/** A scripted adapter: the test emits its events and sees what was delivered. */
class ScriptedAdapter implements RuntimeAdapter {
  readonly runtime = 'codex' as const;
  readonly events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.events.asObservable();
  readonly delivered: string[] = [];
  generation = 1;
  refuse = false;
  stops = 0;
  async start(): Promise<StartResult> {
    this.emit({ type: 'ready', sessionId: 's1', resumed: false });
    return { ok: true, sessionId: 's1', resumed: false };
  }
  async deliver(text: string): Promise<DeliverResult> {
    this.delivered.push(text);
    return this.refuse ? { ok: false, code: 'not_running', message: 'the runtime is not running' } : { ok: true };
  }
  async interrupt() {}
  async stop() {
    this.stops += 1;
  }
  emit(event: RuntimeEvent, generation = this.generation): void {
    this.events.next({ ...event, generation } as RuntimeEventEnvelope);
  }
}

/** issue 38: an adapter whose session compacts natively; the test settles each compaction. */
class CompactingAdapter extends ScriptedAdapter {
  readonly compacted: Array<string | null> = [];
  #settle: ((r: DeliverResult) => void) | null = null;
  compact(continuation: string | null): Promise<DeliverResult> {
    this.compacted.push(continuation);
    return new Promise((resolve) => (this.#settle = resolve));
  }
  settle(result: DeliverResult): void {
    this.#settle?.(result);
    this.#settle = null;
  }
}

const journal: WakeJournal = {
  insertWake: () => undefined,
  appendWakeEvent: () => true,
  listWakes: () => [],
  transaction: (fn) => fn(),
  saveRecoveryBatch: () => undefined,
};
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function setup<A extends ScriptedAdapter = ScriptedAdapter>(adapter: A = new ScriptedAdapter() as A) {
  const lifecycle = new WakeLifecycle({
    journal,
    renderFinalCheck: (groups) => `FINAL-CHECK ${groups.map((g) => g.target).join(',')}`,
    metrics: createWakeMetrics(new Registry()),
    pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
  });
  lifecycle.registerAgent({ agentId: 'a1', publicName: 'a1', displayName: 'A1', runtime: 'codex', model: null });
  const statuses: WakeStatusEvent[] = [];
  lifecycle.wakeStatus$.subscribe((s) => statuses.push(s));
  const prompts: PromptInputRecord[] = [];
  const down: string[] = [];
  const states: Agent['state'][] = [];
  const turns: Array<'fresh' | 'wake'> = [];
  const recovered: string[][] = [];
  const compactions: Array<readonly string[]> = [];
  const compactionDetails: Array<string | null> = [];
  const renewalReasons: string[] = [];
  /** What `renewSession` was asked with, and what it does (the roster replaces the process: `renewWith`). */
  const renewals: string[] = [];
  const renew: { with: (() => RuntimeAdapter) | null; done: Promise<boolean> | null } = { with: null, done: null };
  const bus = new HookBus();
  const hooks: Array<{ name: string; event: HookEventMap[keyof HookEventMap] }> = [];
  bus.turnStart$.subscribe((event) => hooks.push({ name: 'turn.start', event }));
  bus.turnEnd$.subscribe((event) => hooks.push({ name: 'turn.end', event }));
  bus.runtimeLocal$.subscribe((event) => hooks.push({ name: 'runtime.local', event }));
  bus.approvalWait$.subscribe((event) => hooks.push({ name: 'approval.wait', event }));
  const session = new AgentSession({
    agentId: 'a1',
    lifecycle,
    bus,
    ports: {
      renderDelivery: (d, turn) => {
        turns.push(turn);
        return `DELIVERY ${d.wakes.map((w) => w.messageId).join(',')}`;
      },
      recordPromptInput: (r) => prompts.push(r),
      onRuntimeDown: (d) => down.push(d),
      onRecovery: (frontiers) => recovered.push(frontiers.map((f) => f.wakeToken)),
      // What the daemon's timeline marks: the wakes the runtime works on at the compaction.
      onContextCompacted: (detail) => {
        compactions.push(lifecycle.workingOn('a1', []));
        compactionDetails.push(detail);
      },
      renderContinuation: (wakes) => `CONTINUE ${wakes.map((w) => `${w.messageId}@${w.targetKey}`).join(',')}`,
      onOverflowRenewal: (detail) => renewalReasons.push(detail),
      // As the roster does (agent-roster.ts `renew`): one replacement, on a later tick.
      renewSession: (detail) => {
        renewals.push(detail);
        const make = renew.with;
        if (make !== null)
          renew.done = Promise.resolve().then(() => session.replace(() => ({ ok: true, adapter: make() }), detail));
      },
      onState: (state) => states.push(state),
    },
  });
  expect(await session.start({ ok: true, adapter })).toBe(true);
  const post = (token: string, seq = 1) =>
    lifecycle.enqueue('a1', {
      wakeToken: token,
      messageId: `m_${token}`,
      target: '#general',
      targetSeq: seq,
      deliveryClass: 'visible_reply',
    });
  const statusOf = (token: string) => statuses.filter((s) => s.wakeToken === token).map((s) => s.status);
  return {
    adapter,
    lifecycle,
    session,
    statuses,
    prompts,
    down,
    states,
    turns,
    recovered,
    compactions,
    compactionDetails,
    renewalReasons,
    renewals,
    renew,
    hooks,
    post,
    statusOf,
  };
}

describe('AgentSession: the lifecycle side (the host of every RuntimeAdapter)', () => {
  it('writes admitted rows as one delivery and marks them delivered once accepted', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    expect(s.adapter.delivered).toEqual(['DELIVERY m_w1']);
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    expect(s.prompts).toEqual([{ agentId: 'a1', kind: 'delivery', wakeTokens: ['w1'], text: 'DELIVERY m_w1' }]);
  });

  it('the host answers one final-check per row, then nothing: the next boundary ends completed_without_visible_reply', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    expect(await s.session.host.onTurnBoundary()).toBe('FINAL-CHECK #general');
    expect(s.prompts.filter((p) => p.kind === 'final_check')).toHaveLength(1);
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered', 'final_check_sent', 'completed_without_visible_reply']);
  });

  it('a send result settles the row; the boundary then asks for nothing', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.lifecycle.onSendResult({
      agentId: 'a1',
      status: 'sent',
      targetKey: '#general' as TargetKey,
      seenUpToSeq: 1,
    });
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    expect(s.statusOf('w1').at(-1)).toBe('reply_sent');
  });

  it('a turn that ends in error fails the pending rows with the runtime error detail; interrupted too', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'runtime_error', detail: 'API error 400' });
    s.adapter.emit({ type: 'turn_end', outcome: 'error' });
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed')?.detail).toBe('API error 400');
    s.post('w2', 2);
    await flush();
    s.adapter.emit({ type: 'turn_end', outcome: 'interrupted' });
    expect(s.statuses.find((e) => e.wakeToken === 'w2' && e.status === 'failed')?.detail).toBe(
      'the turn was interrupted',
    );
  });

  it('local text reaches the wake status as byte and rune counts only (contract §6.5)', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'local_text', bytes: 12, runes: 10 });
    s.adapter.emit({ type: 'local_text', bytes: 3, runes: 3 });
    await s.session.host.onTurnBoundary();
    await s.session.host.onTurnBoundary();
    const terminal = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'completed_without_visible_reply');
    expect(terminal?.localText).toEqual({ bytes: 15, runes: 13 });
  });

  it('a refused delivery fails the rows it carried', async () => {
    const s = await setup();
    s.adapter.refuse = true;
    s.post('w1');
    await flush();
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed')?.detail).toMatch(/not running/);
  });

  it('a final-check the adapter could not write ends the rows at once (no retry)', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    await s.session.host.onTurnBoundary();
    s.adapter.emit({ type: 'final_check', outcome: 'failed', via: 'user_message', detail: 'process gone' });
    const terminal = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'completed_without_visible_reply');
    expect(terminal?.detail).toMatch(/final_check_undeliverable: process gone/);
  });

  // issue 16: the replacement recovers the runtime-visible rows (one recovery frontier per target);
  // issue 24 (contract §9.2, §12): they end `failed/cli_exited` with the crash's detail — a crash is
  // never reclassified as "no visible reply".
  it('crash → rows wait for the replacement, which ends them failed/cli_exited and recovers them; the restarted process is a new lifecycle generation; stale events are ignored', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'exit', code: null, signal: 'SIGKILL', expected: false });
    expect(s.statusOf('w1').at(-1)).toBe('delivered');
    s.adapter.generation = 2;
    s.adapter.emit({ type: 'ready', sessionId: 's1', resumed: true });
    expect(s.statusOf('w1').at(-1)).toBe('failed');
    const ended = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed');
    expect([ended?.reason, ended?.detail]).toEqual(['cli_exited', 'the codex runtime exited unexpectedly (SIGKILL)']);
    expect(s.recovered).toEqual([['w1']]);
    expect(s.lifecycle.generation('a1')).toBe(1);
    s.adapter.emit({ type: 'turn_end', outcome: 'error' }, 1);
    s.post('w2', 2);
    await flush();
    expect(s.statusOf('w2')).toEqual(['queued', 'delivered']);
    s.adapter.emit({ type: 'gave_up', restarts: 5 });
    expect(s.down).toEqual([expect.stringContaining('5 times')]);
    // No replacement comes after gave_up: what waited for one ends failed (§9.2).
    expect(s.statusOf('w2').at(-1)).toBe('failed');
  });

  it('a crash fails a runtime-visible recovery row at once (at most one recovery per wake), keeps the others for the replacement', async () => {
    const s = await setup();
    s.post('w1');
    s.lifecycle.enqueue('a1', {
      wakeToken: 'wk_recovery_1',
      messageId: 'msg_recovery_1',
      target: '#general',
      targetSeq: 1,
      deliveryClass: 'visible_reply',
    });
    await flush();
    s.adapter.emit({ type: 'exit', code: null, signal: 'SIGKILL', expected: false });
    expect(s.statusOf('wk_recovery_1').at(-1)).toBe('failed');
    expect(s.statuses.find((e) => e.wakeToken === 'wk_recovery_1' && e.status === 'failed')?.reason).toBe('cli_exited');
    expect(s.statusOf('w1').at(-1)).toBe('delivered');
  });

  it('a native compaction is a continuation (issue 24): rows stay pending, the send scope survives, nothing is recovered; the turn ends by the ordinary rule', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_compacted' });
    expect(s.compactions).toEqual([['w1']]);
    expect(s.recovered).toEqual([]);
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    expect(s.lifecycle.checkSendScope('a1', targetKey('#general'), false)).toEqual({ ok: true, crossTarget: false });
    // Nothing was written again into the session.
    expect(s.adapter.delivered).toEqual(['DELIVERY m_w1']);
    s.adapter.emit({ type: 'turn_end', outcome: 'completed' });
    // The one final-check at the turn's end, then the ordinary no-reply ending.
    expect(await s.session.host.onTurnBoundary()).toBe('FINAL-CHECK #general');
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered', 'final_check_sent', 'completed_without_visible_reply']);
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'completed_without_visible_reply')?.reason).toBe(
      'no_reply',
    );
  });

  it('an overflow where the session compacts (issue 38): compacted and continued in the SAME session; the wake keeps its row and scope and ends by the ordinary rule', async () => {
    const s = await setup(new CompactingAdapter());
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_overflow', canCompact: true });
    // Asked to compact, with the continuation for the wake it works on: nothing ends, nothing is recovered or renewed.
    expect(s.adapter.compacted).toEqual(['CONTINUE m_w1@#general']);
    expect(s.recovered).toEqual([]);
    expect(s.renewals).toEqual([]);
    // The overflowed turn fails and ends: its boundary chooses no final-check, and its failure ends nothing.
    s.adapter.emit({ type: 'runtime_error', detail: 'Prompt is too long', reason: 'context_overflow' });
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    s.adapter.emit({ type: 'turn_end', outcome: 'error' });
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    expect(s.lifecycle.checkSendScope('a1', targetKey('#general'), false)).toEqual({ ok: true, crossTarget: false });
    // The compaction settled: the timeline says why, the continuation is a prompt_input; the task is not written again.
    s.adapter.settle({ ok: true });
    await flush();
    expect(s.compactionDetails).toEqual([COMPACTED_AFTER_OVERFLOW]);
    expect(s.compactions).toEqual([['w1']]);
    expect(s.prompts.map((p) => [p.kind, p.wakeTokens, p.text])).toEqual([
      ['delivery', ['w1'], 'DELIVERY m_w1'],
      ['continuation', ['w1'], 'CONTINUE m_w1@#general'],
    ]);
    expect(s.adapter.delivered).toEqual(['DELIVERY m_w1']);
    // The continuation's turn ends by the ordinary rule: its one final-check, then no_reply.
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    expect(await s.session.host.onTurnBoundary()).toBe('FINAL-CHECK #general');
    expect(await s.session.host.onTurnBoundary()).toBeNull();
    s.adapter.emit({ type: 'turn_end', outcome: 'completed' });
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered', 'final_check_sent', 'completed_without_visible_reply']);
    expect(s.recovered).toEqual([]);
  });

  it('an overflow where the compaction fails (issue 38): §6.6 with that reason on the timeline, before the wake ends', async () => {
    const s = await setup(new CompactingAdapter());
    s.renew.with = () => new ScriptedAdapter();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_overflow', canCompact: true });
    s.adapter.emit({ type: 'turn_end', outcome: 'error' });
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    s.adapter.settle({ ok: false, code: 'write_failed', message: 'Not enough messages to compact.' });
    await flush();
    expect(s.renewalReasons).toEqual([RENEWAL_REASONS.failed('Not enough messages to compact.')]);
    expect(s.statusOf('w1').at(-1)).toBe('completed_without_visible_reply');
    expect(s.recovered).toEqual([['w1']]);
    expect(s.renewals).toEqual([RENEW_DETAIL]);
    expect(s.prompts.filter((p) => p.kind === 'continuation')).toEqual([]);
  });

  it('an overflow right after a compaction (issue 38): §6.6, never a second compaction', async () => {
    const s = await setup(new CompactingAdapter());
    s.renew.with = () => new ScriptedAdapter();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_overflow', canCompact: true });
    s.adapter.emit({ type: 'turn_end', outcome: 'error' });
    s.adapter.settle({ ok: true });
    await flush();
    // The continuation's turn overflows again.
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_overflow', canCompact: true });
    expect(s.adapter.compacted).toHaveLength(1);
    expect(s.renewalReasons).toEqual([RENEWAL_REASONS.repeated]);
    expect(s.recovered).toEqual([['w1']]);
    expect(s.renewals).toEqual([RENEW_DETAIL]);
  });

  // issue 24 (§6.6): this test asserted the recovery went into the same, overflowed session.
  it('a context reset recovers the runtime-visible rows into a FRESH session: nothing more is written into the overflowed one', async () => {
    const s = await setup();
    const fresh = new ScriptedAdapter();
    s.renew.with = () => fresh;
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'context_overflow', canCompact: false });
    expect(s.statusOf('w1').at(-1)).toBe('completed_without_visible_reply');
    // issue 24: the original says why it ended without a reply: its context overflowed.
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'completed_without_visible_reply')?.reason).toBe(
      'context_overflow',
    );
    expect(s.recovered).toEqual([['w1']]);
    expect(s.renewals).toEqual([RENEW_DETAIL]);
    // The recovery wake (the recovery service enqueues it at once) and a new message, while the
    // overflowed process's failed turn ends: neither is written into it, neither fails.
    s.post('w_recovery', 1);
    s.post('w2', 2);
    s.adapter.emit({ type: 'turn_end', outcome: 'error' });
    await flush();
    expect(s.adapter.delivered).toEqual(['DELIVERY m_w1']);
    expect(await s.renew.done).toBe(true);
    await flush();
    expect(s.adapter.stops).toBe(1);
    // Delivered only once the fresh session is ready, as its first (fresh) turn.
    expect(fresh.delivered).toEqual(['DELIVERY m_w_recovery,m_w2']);
    expect(s.turns.at(-1)).toBe('fresh');
    expect(s.statusOf('w_recovery')).toEqual(['queued', 'delivered']);
    expect(s.statusOf('w2')).toEqual(['queued', 'delivered']);
    // One terminal for the original, none for the others; nothing recovered twice.
    expect(s.statusOf('w1').filter((st) => st !== 'queued' && st !== 'delivered')).toEqual([
      'completed_without_visible_reply',
    ]);
    expect(s.recovered).toEqual([['w1']]);
    expect(s.states.slice(-2)).toEqual(['starting', 'idle']);
  });

  it('a recovery that overflows its fresh session too ends failed/context_overflow, is never recovered again, and the session is renewed again', async () => {
    const s = await setup();
    const fresh = new ScriptedAdapter();
    const third = new ScriptedAdapter();
    s.renew.with = () => fresh;
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'context_overflow', canCompact: false });
    // The recovery wake (a synthetic message, as the recovery service enqueues it).
    s.lifecycle.enqueue('a1', {
      wakeToken: 'wk_recovery_1',
      messageId: 'msg_recovery_1',
      target: '#general',
      targetSeq: 1,
      deliveryClass: 'visible_reply',
    });
    await s.renew.done;
    await flush();
    expect(fresh.delivered).toEqual(['DELIVERY msg_recovery_1']);
    s.renew.with = () => third;
    fresh.emit({ type: 'context_overflow', canCompact: false });
    const ended = s.statuses.find((e) => e.wakeToken === 'wk_recovery_1' && e.status === 'failed');
    expect(ended?.reason).toBe('context_overflow');
    expect(s.recovered).toEqual([['w1']]);
    expect(s.renewals).toEqual([RENEW_DETAIL, RENEW_DETAIL]);
    expect(await s.renew.done).toBe(true);
    expect(fresh.stops).toBe(1);
    // The third session takes new work as a fresh one.
    s.post('w2', 2);
    await flush();
    expect(third.delivered).toEqual(['DELIVERY m_w2']);
    expect(s.turns.at(-1)).toBe('fresh');
  });

  it('an expected exit fails nothing; stop stops the adapter and answers no more final-checks', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'exit', code: 0, signal: null, expected: true });
    expect(s.statusOf('w1').at(-1)).toBe('delivered');
    await s.session.stop();
    expect(s.adapter.stops).toBe(1);
    expect(await s.session.host.onTurnBoundary()).toBeNull();
  });
});

describe('AgentSession.replace: a new configuration restarts the runtime (issue 14)', () => {
  it('the old process is stopped (its interrupted turn fails nothing), the new one recovers the runtime-visible rows and takes new ones as a fresh session', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    // Stopping a process mid-turn: its turn ends interrupted, then it exits as asked.
    s.adapter.stop = async () => {
      s.adapter.stops += 1;
      s.adapter.emit({ type: 'turn_end', outcome: 'interrupted' });
      s.adapter.emit({ type: 'exit', code: 0, signal: null, expected: true });
    };
    const next = new ScriptedAdapter();
    expect(await s.session.replace(() => ({ ok: true, adapter: next }), 'restarted with a new workspace')).toBe(true);
    expect(s.adapter.stops).toBe(1);
    // issue 24: a reconfiguration is a replacement, not "no visible reply".
    expect(s.statusOf('w1').at(-1)).toBe('failed');
    const ended = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed');
    expect([ended?.reason, ended?.detail]).toEqual(['process_replaced', 'restarted with a new workspace']);
    expect(s.recovered).toEqual([['w1']]);
    expect(s.states.slice(-3)).toEqual(['stopped', 'starting', 'idle']);
    s.post('w2', 2);
    await flush();
    expect(next.delivered).toEqual(['DELIVERY m_w2']);
    expect(s.turns.at(-1)).toBe('fresh');
    expect(s.statusOf('w2')).toEqual(['queued', 'delivered']);
  });

  it('a replacement that cannot be built ends the rows that waited for it failed, reports the runtime down, and fails later wakes with why', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    expect(
      await s.session.replace(() => ({ ok: false, code: 'workspace_invalid', message: 'no such folder' }), 'restarted'),
    ).toBe(false);
    expect(s.statusOf('w1').at(-1)).toBe('failed');
    expect(s.down).toEqual(['no such folder']);
    // A later wake is not held forever: it fails at once with why the runtime is down.
    s.post('w2', 2);
    await flush();
    expect(s.statusOf('w2')).toEqual(['queued', 'failed']);
    expect(s.statuses.find((e) => e.wakeToken === 'w2' && e.status === 'failed')?.detail).toBe('no such folder');
  });
});

describe('AgentSession: the agent state and the hook bus bridge', () => {
  it('a turn: busy, turn.start with the wakes it carries (remembered for the turn), tool and local-text counts, turn.end, idle', async () => {
    const s = await setup();
    expect(s.states).toEqual(['idle']);
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    const turnId = s.session.turnId;
    expect(turnId).toMatch(/^turn_/);
    expect(s.states.at(-1)).toBe('busy');
    s.adapter.emit({ type: 'tool_call', name: 'mcp__agentteam__message_send' });
    s.adapter.emit({ type: 'local_text', bytes: 5, runes: 4 });
    s.adapter.emit({ type: 'turn_end', outcome: 'completed' });
    expect(s.hooks).toEqual([
      {
        name: 'turn.start',
        event: { turnId, agentId: 'a1', channel: 'local', wakeTokens: ['w1'], target: '#general' },
      },
      { name: 'runtime.local', event: { turnId, kind: 'tool_call', tool: 'mcp__agentteam__message_send' } },
      { name: 'runtime.local', event: { turnId, kind: 'local_text', bytes: 5, runes: 4 } },
      { name: 'turn.end', event: { turnId } },
    ]);
    expect(s.session.turnId).toBeNull();
    expect(s.states.at(-1)).toBe('idle');
    expect(s.session.wakesOfTurn(turnId as string)).toEqual(['w1']);
    expect(s.session.wakesOfTurn('turn_unknown')).toEqual([]);
  });

  it('no tool or local-text hook outside a turn', async () => {
    const s = await setup();
    s.adapter.emit({ type: 'tool_call', name: 'x' });
    s.adapter.emit({ type: 'local_text', bytes: 1, runes: 1 });
    expect(s.hooks).toEqual([]);
  });

  it('the first delivery is a fresh turn, later ones are wakes (contract §8.1)', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.lifecycle.onSendResult({
      agentId: 'a1',
      status: 'sent',
      targetKey: '#general' as TargetKey,
      seenUpToSeq: 1,
    });
    s.post('w2', 2);
    await flush();
    expect(s.turns).toEqual(['fresh', 'wake']);
  });

  it('an unexpected exit ends the turn and restarts; a replacement persists its recovery frontiers; gave_up is crashed', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.generation = 2;
    s.adapter.emit({ type: 'ready', sessionId: 's1', resumed: true });
    expect(s.recovered).toEqual([['w1']]);
    s.adapter.emit({ type: 'exit', code: 1, signal: null, expected: false });
    expect(s.hooks.map((h) => h.name)).toEqual(['turn.start', 'turn.end']);
    expect(s.states.at(-1)).toBe('starting');
    s.adapter.emit({ type: 'gave_up', restarts: 5 });
    expect(s.states.at(-1)).toBe('crashed');
  });

  it('a runtime that could not be built, or not started, is crashed and reported down', async () => {
    const lifecycle = new WakeLifecycle({
      journal,
      renderFinalCheck: () => 'FC',
      metrics: createWakeMetrics(new Registry()),
      pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
    });
    lifecycle.registerAgent({ agentId: 'a1', publicName: 'a1', displayName: 'A1', runtime: 'codex', model: null });
    const make = () => {
      const down: string[] = [];
      const states: Agent['state'][] = [];
      const session = new AgentSession({
        agentId: 'a1',
        lifecycle,
        bus: new HookBus(),
        ports: {
          renderDelivery: () => 'D',
          recordPromptInput: () => undefined,
          onRecovery: () => undefined,
          onContextCompacted: () => undefined,
          renewSession: () => undefined,
          onRuntimeDown: (d) => down.push(d),
          onState: (state) => states.push(state),
        },
      });
      return { session, down, states };
    };
    const unbuilt = make();
    expect(await unbuilt.session.start({ ok: false, code: 'runtime_unsupported', message: 'no such runtime' })).toBe(
      false,
    );
    expect({ down: unbuilt.down, states: unbuilt.states }).toEqual({ down: ['no such runtime'], states: ['crashed'] });
    const unstarted = make();
    const adapter = new ScriptedAdapter();
    adapter.start = async () => ({ ok: false, code: 'spawn_failed', message: 'ENOENT' });
    expect(await unstarted.session.start({ ok: true, adapter })).toBe(false);
    expect({ down: unstarted.down, states: unstarted.states }).toEqual({ down: ['ENOENT'], states: ['crashed'] });
  });

  it('stop: the expected exit still ends the running turn on the bus, then the agent is stopped', async () => {
    const s = await setup();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.stop = async () => {
      s.adapter.stops += 1;
      s.adapter.emit({ type: 'exit', code: 0, signal: null, expected: true });
    };
    await s.session.stop();
    expect(s.hooks.map((h) => h.name)).toEqual(['turn.start', 'turn.end']);
    expect(s.states.at(-1)).toBe('stopped');
  });
});

describe('AgentSession: the runtime\'s own "waiting on the operator" signal (issue 14, Codex waitingOnApproval)', () => {
  const waits = (s: Awaited<ReturnType<typeof setup>>) =>
    s.hooks.filter((h) => h.name === 'approval.wait').map((h) => h.event as HookEventMap['approval.wait']);

  it('pauses the running turn through approval.wait, once per change, balanced', async () => {
    const s = await setup();
    s.adapter.emit({ type: 'operator_wait', waiting: true }); // no turn yet: nothing to pause
    s.adapter.emit({ type: 'operator_wait', waiting: false });
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    const turnId = (s.hooks.find((h) => h.name === 'turn.start')?.event as HookEventMap['turn.start']).turnId;
    s.adapter.emit({ type: 'operator_wait', waiting: true });
    s.adapter.emit({ type: 'operator_wait', waiting: true });
    s.adapter.emit({ type: 'operator_wait', waiting: false });
    s.adapter.emit({ type: 'operator_wait', waiting: false });
    expect(waits(s)).toEqual([
      { turnId, agentId: 'a1', waiting: true },
      { turnId, agentId: 'a1', waiting: false },
    ]);
  });

  it('a turn that ends while waiting leaves nothing for the next turn to release', async () => {
    const s = await setup();
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'operator_wait', waiting: true });
    s.adapter.emit({ type: 'turn_end', outcome: 'interrupted' });
    s.adapter.emit({ type: 'turn_start', sessionId: 's1' });
    s.adapter.emit({ type: 'operator_wait', waiting: false });
    expect(waits(s).map((w) => w.waiting)).toEqual([true]);
  });
});

/** issue 42: a woken agent's adapter whose first `failures` starts fail as a start timeout does. */
class FlakyStartAdapter extends ScriptedAdapter {
  starts = 0;
  constructor(readonly failures: number) {
    super();
  }
  override async start(): Promise<StartResult> {
    this.starts += 1;
    if (this.starts > this.failures) return super.start();
    // The abandoned process's exit, as the skeleton reports a failed start.
    this.emit({ type: 'exit', code: null, signal: 'SIGKILL', expected: true });
    return { ok: false, code: 'start_timeout', message: 'codex app-server was not ready within 30 s' };
  }
}

describe('AgentSession: a wake-up whose start fails (issue 42)', () => {
  async function asleep(woken: FlakyStartAdapter) {
    const s = await setup();
    expect(await s.session.sleep(() => ({ ok: true, adapter: woken }))).toBe(true);
    s.states.length = 0;
    return s;
  }

  it('is started once more: the delivery is written, the agent never reads crashed', async () => {
    const woken = new FlakyStartAdapter(1);
    const s = await asleep(woken);
    s.post('w1');
    await flush();
    await flush();
    expect(woken.starts).toBe(2);
    expect(woken.delivered).toEqual(['DELIVERY m_w1']);
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    expect(s.states).toEqual(['starting', 'stopped', 'starting', 'idle']);
    expect(s.down).toEqual([]);
  });

  it('failing twice, its wake fails with the start\'s own failure (not "not written")', async () => {
    const woken = new FlakyStartAdapter(2);
    const s = await asleep(woken);
    s.post('w1');
    await flush();
    await flush();
    expect(woken.starts).toBe(2);
    expect(woken.delivered).toEqual([]);
    const failed = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed');
    expect(failed).toMatchObject({ reason: 'cli_exited', detail: 'codex app-server was not ready within 30 s' });
    expect(s.states.at(-1)).toBe('crashed');
  });
});
