import { describe, expect, it, vi } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

const general = targetKey('#general');

describe('contract §12 daemon wake state machine', () => {
  it('§12.1 repeated turn_end after reply_sent emits no second terminal', () => {
    const h = wakeHarness();
    const w = h.wake('#general', { targetSeq: 1 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    expect(h.terminals(w).map((e) => e.status)).toEqual(['reply_sent']);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.terminals(w)).toHaveLength(1);
    expect(h.journal.wakes.get(w)?.terminalsAccepted).toBe(1);
  });

  it('§12.2 repeated turn_end after a no-reply terminal emits no second terminal', () => {
    const h = wakeHarness();
    const w = h.wake();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).not.toBeNull();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.terminals(w).map((e) => e.status)).toEqual(['completed_without_visible_reply']);
    for (let i = 0; i < 3; i++) expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0, 'idle')).toBeNull();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0, 'compaction')).toBeNull();
    expect(h.terminals(w)).toHaveLength(1);
    expect(h.lifecycle.pending(h.agentId)).toHaveLength(0);
  });

  it('§12.3 the first no-reply turn_end injects a final-check instead of a terminal', () => {
    const h = wakeHarness();
    const w = h.wake('#general');
    const injection = h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(injection).toEqual({ generation: 0, finalCheck: 'FINAL CHECK #general[m1]', wakeTokens: [w] });
    expect(h.terminals(w)).toHaveLength(0);
    expect(h.lifecycle.pending(h.agentId)[0]?.status).toBe('final_check_sent');
    expect(h.journal.statusOf(w)).toBe('final_check_sent');
    expect(h.events.at(-1)).toMatchObject({ wakeToken: w, status: 'final_check_sent' });
  });

  it('§12.4 a second no-reply turn_end after the final-check is terminal and never re-injects', () => {
    const h = wakeHarness();
    const w = h.wake();
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.terminals(w)).toMatchObject([{ status: 'completed_without_visible_reply', reason: 'no_reply' }]);
    expect(h.renders).toHaveLength(1);
    expect(h.journal.wakes.get(w)?.finalChecks).toBe(1);
  });

  it('§12.5 a confirmed reaction is visible-reply evidence and closes the wake', () => {
    const h = wakeHarness();
    const a = h.wake('#general');
    const b = h.wake('#general');
    expect(h.lifecycle.onReactionConfirmed({ agentId: h.agentId, messageId: 'm1' })).toBe(true);
    expect(h.terminals(a)).toMatchObject([{ status: 'reply_sent' }]);
    // exactly that row: the other wake of the same target stays pending
    expect(h.terminals(b)).toHaveLength(0);
    expect(h.lifecycle.pending(h.agentId).map((r) => r.wakeToken)).toEqual([b]);
    expect(h.lifecycle.onReactionConfirmed({ agentId: h.agentId, messageId: 'm1' })).toBe(false);
  });

  it('§12.6 a runtime error ends failed and is never reclassified as no visible reply', () => {
    const h = wakeHarness();
    const a = h.wake('#general');
    const b = h.wake('#ops');
    h.lifecycle.onTurnBoundary(h.agentId, 0); // both final_check_sent
    h.lifecycle.onRuntimeError(h.agentId, 0, 'codex app-server exited with code 1');
    expect(h.terminals().map((e) => [e.wakeToken, e.status])).toEqual([
      [a, 'failed'],
      [b, 'failed'],
    ]);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    h.lifecycle.onFinalCheckUndeliverable(h.agentId, 0, [a, b]);
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 99 });
    expect(h.terminals()).toHaveLength(2);
    expect(h.journal.statusOf(a)).toBe('failed');
    expect(h.terminals(a)[0]?.detail).toBe('codex app-server exited with code 1');
  });

  it('§12 diagnostics: without a server visible-reply confirmation the reason is no_reply', async () => {
    const h = wakeHarness({ runtime: 'codex' });
    const w = h.wake();
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.terminals(w)[0]?.reason).toBe('no_reply');
    expect(h.journal.wakes.get(w)?.reason).toBe('no_reply');
    expect(
      await h.counter('wake_completed_without_visible_reply_total', { runtime: 'codex', reason: 'no_reply' }),
    ).toBe(1);
  });

  it('§12 diagnostics: local assistant text never appears in a wake status, journal or info log (counts only)', () => {
    const h = wakeHarness();
    const secret = 'Here is my full answer: 机密的回答 🚀';
    const w = h.wake();
    h.lifecycle.onLocalText(h.agentId, 0, secret);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    const everything = JSON.stringify([h.events, h.journal.events, [...h.journal.wakes.values()], h.logs, h.renders]);
    expect(everything).not.toContain('full answer');
    expect(everything).not.toContain('机密');
    expect(h.terminals(w)[0]?.localText).toEqual({ bytes: Buffer.byteLength(secret), runes: [...secret].length });
    // §9.3: local text does not change the reason
    expect(h.terminals(w)[0]?.reason).toBe('no_reply');
  });

  it('§12 prompt: several unresolved deliveries aggregate by canonical target while each row keeps its message id, TargetSeq and own terminal', () => {
    const h = wakeHarness();
    const a = h.wake('#General', { targetSeq: 4 });
    const b = h.wake('#ops:ab12', { targetSeq: 2 });
    const c = h.wake('#general', { targetSeq: 5 });
    const injection = h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.renders[0]).toEqual([
      {
        target: '#general',
        wakes: [
          { messageId: 'm1', targetSeq: 4, wakeToken: a },
          { messageId: 'm3', targetSeq: 5, wakeToken: c },
        ],
      },
      { target: '#ops:ab12', wakes: [{ messageId: 'm2', targetSeq: 2, wakeToken: b }] },
    ]);
    expect(injection?.wakeTokens).toEqual([a, c, b]);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.terminals().map((e) => [e.wakeToken, e.messageId, e.targetSeq, e.status])).toEqual([
      [a, 'm1', 4, 'completed_without_visible_reply'],
      [b, 'm2', 2, 'completed_without_visible_reply'],
      [c, 'm3', 5, 'completed_without_visible_reply'],
    ]);
  });
});

describe('contract Phase 4 one-shot final-check', () => {
  it('a confirmed reply during the final-check turn settles reply_sent and cleans the wake', () => {
    const h = wakeHarness();
    const w = h.wake('#general', { targetSeq: 3 });
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'already_sent', targetKey: general, seenUpToSeq: 3 });
    expect(h.terminals(w)).toMatchObject([{ status: 'reply_sent' }]);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.released).toEqual([w]);
  });

  it('an undeliverable final-check (stdin closed) ends no_reply at once with a detail, without retry', () => {
    const h = wakeHarness();
    const w = h.wake();
    const injection = h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onFinalCheckUndeliverable(h.agentId, 0, injection?.wakeTokens ?? [], 'stdin closed');
    expect(h.terminals(w)).toMatchObject([
      {
        status: 'completed_without_visible_reply',
        reason: 'no_reply',
        detail: 'final_check_undeliverable: stdin closed',
      },
    ]);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.renders).toHaveLength(1);
  });

  it('a stale boundary from an older process generation is a no-op', () => {
    const h = wakeHarness();
    h.lifecycle.onProcessReplaced(h.agentId, 1);
    const w = h.wake();
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.lifecycle.pending(h.agentId)[0]?.status).toBe('awaiting_check');
    expect(h.lifecycle.onTurnBoundary(h.agentId, 1)?.wakeTokens).toEqual([w]);
  });
});

describe('contract §9.2 frontier settlement', () => {
  it('settles only rows of that target with TargetSeq <= SeenUpToSeq; higher rows get a fresh final-check later; other targets untouched', () => {
    const h = wakeHarness();
    const g1 = h.wake('#general', { targetSeq: 1 });
    const g2 = h.wake('#general', { targetSeq: 2 });
    const g3 = h.wake('#general', { targetSeq: 3 });
    const thread = h.wake('#general:ab12', { targetSeq: 1 });
    const ops = h.wake('#ops', { targetSeq: 1 });
    expect(h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 2 })).toBe(
      2,
    );
    expect(h.terminals().map((e) => e.wakeToken)).toEqual([g1, g2]);
    // a thread never collapses to its parent: #general:ab12 stays pending
    expect(h.lifecycle.pending(h.agentId).map((r) => r.wakeToken)).toEqual([g3, thread, ops]);
    const injection = h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(injection?.wakeTokens).toEqual([g3, thread, ops]);
  });

  it('a later-admitted row of a settled target gets its own fresh final-check at the next boundary', () => {
    const h = wakeHarness();
    const first = h.wake('#general', { targetSeq: 1 });
    h.lifecycle.onTurnBoundary(h.agentId, 0); // first → final_check_sent
    const later = h.wake('#general', { targetSeq: 2 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    expect(h.terminals(first)).toMatchObject([{ status: 'reply_sent' }]);
    const injection = h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(injection?.wakeTokens).toEqual([later]);
    expect(h.terminals(later)).toHaveLength(0);
  });

  it('ignores results that are not sent/already_sent', () => {
    const h = wakeHarness();
    h.wake('#general', { targetSeq: 1 });
    expect(
      h.lifecycle.onSendResult({ agentId: h.agentId, status: 'failed', targetKey: general, seenUpToSeq: 10 }),
    ).toBe(0);
    expect(h.lifecycle.pending(h.agentId)).toHaveLength(1);
  });
});

describe('contract §9.1 signal_only rows', () => {
  it('never get a final-check and end with their signal_only classification; reactions and uncovering sends do not settle them', async () => {
    const h = wakeHarness();
    const s = h.wake('#general', { deliveryClass: 'signal_only', targetSeq: 3 });
    // A send that does not cover it (lower frontier, other target) and a reaction leave it alone.
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 2 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: targetKey('#ops'), seenUpToSeq: 9 });
    h.lifecycle.onReactionConfirmed({ agentId: h.agentId, messageId: 'm1' });
    expect(h.terminals(s)).toHaveLength(0);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.renders).toHaveLength(0);
    expect(h.terminals(s)).toMatchObject([
      { status: 'completed_without_visible_reply', reason: 'signal_only', deliveryClass: 'signal_only' },
    ]);
    expect(
      await h.counter('wake_completed_without_visible_reply_total', { runtime: 'claude-code', reason: 'signal_only' }),
    ).toBe(1);
  });

  it('issue 38: a covered signal_only row (a hand-back) settles reply_sent when its agent posts to its target (§9.2 "covered rows")', () => {
    const h = wakeHarness();
    const s = h.wake('#general', { deliveryClass: 'signal_only', targetSeq: 3 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 3 });
    expect(h.terminals(s)).toMatchObject([{ status: 'reply_sent', reason: null, deliveryClass: 'signal_only' }]);
    expect(h.lifecycle.onTurnBoundary(h.agentId, 0)).toBeNull();
    expect(h.terminals(s)).toHaveLength(1);
  });
});

describe('contract §9.1 bounded FIFO admission', () => {
  it('wakes beyond capacity wait in order, are admitted as rows settle, never dropped or reordered', () => {
    const h = wakeHarness({ capacity: 2 });
    const tokens = [1, 2, 3, 4, 5].map((i) => h.wake('#general', { targetSeq: i }));
    expect(h.lifecycle.pending(h.agentId).map((r) => r.wakeToken)).toEqual(tokens.slice(0, 2));
    expect(h.lifecycle.queued(h.agentId)).toBe(3);
    expect(h.journal.statusOf(tokens[4] as string)).toBe('queued');
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    expect(h.lifecycle.pending(h.agentId).map((r) => r.wakeToken)).toEqual([tokens[1], tokens[2]]);
    h.lifecycle.onRuntimeError(h.agentId, 0, 'boom');
    expect(h.lifecycle.pending(h.agentId).map((r) => r.wakeToken)).toEqual([tokens[3], tokens[4]]);
    expect(h.deliveries.flatMap((d) => d.wakes.map((w) => w.wakeToken))).toEqual(tokens);
  });

  it('restore() after a daemon restart ends in-flight wakes failed/daemon_restarted, saves their recovery with them and re-admits queued ones in stored order', () => {
    const h = wakeHarness({ capacity: 2 });
    const tokens = [1, 2, 3, 4].map((i) => h.wake('#general', { targetSeq: i }));
    h.lifecycle.onTurnBoundary(h.agentId, 0); // tokens[0..1] final_check_sent; 2..3 queued
    // a fresh lifecycle over the same journal (daemon restart)
    const h2 = wakeHarness({ capacity: 1 });
    for (const [k, v] of h.journal.wakes) h2.journal.wakes.set(k, v);
    const restored = h2.lifecycle.restore(h2.agentId);
    expect(restored).toEqual({
      requeued: 2,
      ended: 2,
      recovery: [
        { target: '#general', targetSeq: 2, messageId: 'm2', wakeToken: tokens[1], wakeTokens: [tokens[0], tokens[1]] },
      ],
    });
    const restarted = 'AgentTeam restarted while the agent was working on this wake';
    expect(h2.terminals().map((e) => [e.wakeToken, e.status, e.reason, e.detail])).toEqual([
      [tokens[0], 'failed', 'daemon_restarted', restarted],
      [tokens[1], 'failed', 'daemon_restarted', restarted],
    ]);
    expect(h2.journal.recoveryBatches).toEqual([
      {
        agentId: h2.agentId,
        cause: 'daemon_restarted',
        markers: [{ target: '#general', frontierSeq: 2, wakeTokens: [tokens[0], tokens[1]] }],
      },
    ]);
    expect(h2.lifecycle.pending(h2.agentId).map((r) => r.wakeToken)).toEqual([tokens[2]]);
    // §8.3: the scope is not restored, it comes back only with a runtime-visible input
    expect(h2.lifecycle.checkSendScope(h2.agentId, general, false).ok).toBe(true);
    h2.lifecycle.onRuntimeError(h2.agentId, 0, 'x');
    expect(h2.lifecycle.pending(h2.agentId).map((r) => r.wakeToken)).toEqual([tokens[3]]);
    expect(h2.lifecycle.restore(h2.agentId)).toEqual({ requeued: 0, ended: 0, recovery: [] });
    for (const t of tokens.slice(0, 2)) expect(h2.journal.wakes.get(t)?.terminalsAccepted).toBe(1);
  });

  it('after a process exit nothing is admitted until the replacement starts', () => {
    const h = wakeHarness({ capacity: 1 });
    h.wake();
    const next = h.wake();
    h.lifecycle.onRuntimeError(h.agentId, 0, 'crashed', { processExited: true });
    expect(h.lifecycle.pending(h.agentId)).toHaveLength(0);
    h.lifecycle.onProcessReplaced(h.agentId, 1);
    expect(h.deliveries.at(-1)).toMatchObject({ generation: 1, wakes: [{ wakeToken: next }] });
  });
});

describe('contract §9.4 terminal cleanup', () => {
  it('releases correlation once and stale events cannot recreate rows', () => {
    const h = wakeHarness();
    const w = h.wake('#general', { targetSeq: 1 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    h.lifecycle.onDelivered(h.agentId, 0, [w]);
    h.lifecycle.onTurnBoundary(h.agentId, 0, 'idle');
    h.lifecycle.onTurnBoundary(h.agentId, 0, 'compaction');
    h.lifecycle.onRuntimeError(h.agentId, 0, 'late error');
    h.lifecycle.onFinalCheckUndeliverable(h.agentId, 0, [w]);
    h.lifecycle.onReactionConfirmed({ agentId: h.agentId, messageId: 'm1' });
    h.lifecycle.onProcessReplaced(h.agentId, 1);
    expect(h.lifecycle.pending(h.agentId)).toHaveLength(0);
    expect(h.terminals(w)).toHaveLength(1);
    expect(h.released).toEqual([w]);
  });

  it('a journal that refuses a second terminal suppresses the event and the metric', async () => {
    const h = wakeHarness();
    const w = h.wake();
    // e.g. another owner already ended this wake durably
    h.journal.appendWakeEvent({ wakeToken: w, kind: 'status', status: 'failed', detail: 'elsewhere' });
    h.lifecycle.onRuntimeError(h.agentId, 0, 'boom');
    expect(h.terminals(w)).toHaveLength(0);
    expect(await h.counter('wake_failed_total', { runtime: 'claude-code' })).toBe(0);
    expect(h.logs.some((l) => l.level === 'warn')).toBe(true);
  });
});

describe('contract §6.6 process replacement', () => {
  it('a crash: runtime-visible rows end failed/cli_exited with their recovery saved in the same transaction, one frontier per canonical target; undelivered rows re-offered', async () => {
    const h = wakeHarness({ autoDeliver: false });
    const a = h.wake('#general', { targetSeq: 3 });
    const b = h.wake('#general', { targetSeq: 7 });
    const c = h.wake('dm:@ann:zz99', { targetSeq: 2 });
    const notYet = h.wake('#ops', { targetSeq: 1 });
    h.lifecycle.onDelivered(h.agentId, 0, [a, b, c]);
    h.lifecycle.onProcessExited(h.agentId, 0, 'the claude-code runtime exited unexpectedly (SIGKILL)', 'cli_exited');
    const recovery = h.lifecycle.onProcessReplaced(h.agentId, 1);
    expect(recovery).toEqual([
      { target: '#general', targetSeq: 7, messageId: 'm2', wakeToken: b, wakeTokens: [a, b] },
      { target: 'dm:@ann:zz99', targetSeq: 2, messageId: 'm3', wakeToken: c, wakeTokens: [c] },
    ]);
    const crash = 'the claude-code runtime exited unexpectedly (SIGKILL)';
    expect(h.terminals().map((e) => [e.wakeToken, e.status, e.reason, e.detail])).toEqual([
      [a, 'failed', 'cli_exited', crash],
      [b, 'failed', 'cli_exited', crash],
      [c, 'failed', 'cli_exited', crash],
    ]);
    expect(h.journal.recoveryBatches).toEqual([
      {
        agentId: h.agentId,
        cause: 'process_replaced',
        markers: [
          { target: '#general', frontierSeq: 7, wakeTokens: [a, b] },
          { target: 'dm:@ann:zz99', frontierSeq: 2, wakeTokens: [c] },
        ],
      },
    ]);
    // §10.2: a crash is counted as a failure, never as "no visible reply".
    expect(await h.counter('wake_completed_without_visible_reply_total', { reason: 'no_reply' })).toBe(0);
    expect(await h.counter('wake_failed_total', { runtime: 'claude-code' })).toBe(3);
    expect(h.deliveries.at(-1)).toMatchObject({ generation: 1, wakes: [{ wakeToken: notYet }] });
    expect(h.lifecycle.onProcessReplaced(h.agentId, 1)).toEqual([]);
  });

  it('fail closed (§6.6): a recovery the journal cannot save rolls back with its terminals; the wakes end failed with why, an alert is raised, nothing is thrown or recovered', async () => {
    const h = wakeHarness({ autoDeliver: false });
    const a = h.wake('#general', { targetSeq: 1 });
    const signal = h.wake('#general', { targetSeq: 2, deliveryClass: 'signal_only' });
    h.lifecycle.onDelivered(h.agentId, 0, [a, signal]);
    h.lifecycle.onProcessExited(h.agentId, 0, 'the codex runtime exited unexpectedly (code 1)', 'cli_exited');
    h.journal.failNextRecoverySaves = 1;
    const before = h.journal.events.length;
    expect(h.lifecycle.onProcessReplaced(h.agentId, 1)).toEqual([]);
    // Nothing of the failed transaction stayed; each wake got exactly one terminal afterwards.
    expect(h.journal.recoveryBatches).toEqual([]);
    expect(h.journal.events.slice(before).map((e) => [e.wakeToken, e.status, e.reason])).toEqual([
      [a, 'failed', 'cli_exited'],
      [signal, 'completed_without_visible_reply', 'signal_only'],
    ]);
    expect(h.journal.wakes.get(a)).toMatchObject({ status: 'failed', terminalsAccepted: 1, terminalsRefused: 0 });
    expect(h.journal.wakes.get(a)?.detail).toBe(
      'the recovery continuation could not be saved (SQLITE_FULL: database or disk is full); the codex runtime exited unexpectedly (code 1)',
    );
    expect(h.terminals(a)).toHaveLength(1);
    expect(h.lost).toEqual([
      {
        agentId: h.agentId,
        cause: 'process_replaced',
        wakeTokens: [a],
        detail: 'SQLITE_FULL: database or disk is full',
      },
    ]);
    expect(h.logs.some((l) => l.level === 'error' && /recovery could not be saved/.test(l.message))).toBe(true);
    expect(await h.counter('wake_failed_total', { runtime: 'claude-code' })).toBe(1);
  });

  it('fail closed on a daemon restart too: the in-flight wakes end failed/daemon_restarted, not recovered, and restore still requeues the rest', () => {
    const h = wakeHarness({ capacity: 1 });
    const inFlight = h.wake('#general', { targetSeq: 1 });
    const queued = h.wake('#general', { targetSeq: 2 });
    const h2 = wakeHarness({ capacity: 1 });
    for (const [k, v] of h.journal.wakes) h2.journal.wakes.set(k, v);
    h2.journal.failNextRecoverySaves = 1;
    const launched: unknown[] = [];
    const restored = h2.lifecycle.restore(h2.agentId, (frontiers) => launched.push(frontiers));
    expect(restored).toMatchObject({ ended: 1, requeued: 1, recovery: [] });
    expect(launched).toEqual([[]]);
    expect(h2.journal.wakes.get(inFlight)).toMatchObject({ status: 'failed', reason: 'daemon_restarted' });
    expect(h2.lost.map((l) => l.wakeTokens)).toEqual([[inFlight]]);
    expect(h2.lifecycle.pending(h2.agentId).map((r) => r.wakeToken)).toEqual([queued]);
  });
});

describe('contract §10 observability', () => {
  it('wake_status events carry the §10.1 fields and are persisted before publication', () => {
    const h = wakeHarness();
    const w = h.wake('#General');
    expect(h.events.map((e) => e.status)).toEqual(['queued', 'delivered']);
    expect(h.events[0]).toEqual({
      type: 'wake_status',
      wakeToken: w,
      messageId: 'm1',
      agentId: 'claude',
      agentName: 'claude',
      agentDisplayName: 'Claude',
      runtime: 'claude-code',
      model: 'claude-sonnet-4-5',
      target: '#general',
      targetSeq: 1,
      deliveryClass: 'visible_reply',
      status: 'queued',
      reason: null,
      detail: null,
      localText: null,
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(h.journal.wakes.get(w)).toMatchObject({
      agentId: 'claude',
      runtime: 'claude-code',
      target: '#general',
      status: 'delivered',
    });
  });

  it('journals the §10.1 names and model with the wake, and the terminal info line carries them (issue 24)', () => {
    const h = wakeHarness();
    const w = h.wake('#general');
    expect(h.journal.wakes.get(w)).toMatchObject({
      agentName: 'claude',
      agentDisplayName: 'Claude',
      model: 'claude-sonnet-4-5',
    });
    expect(h.lifecycle.wakeAgent(h.agentId)).toEqual({
      agentName: 'claude',
      agentDisplayName: 'Claude',
      model: 'claude-sonnet-4-5',
    });
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    const info = h.logs.filter((l) => l.level === 'info' && l.message === 'wake status');
    expect(info).toEqual([
      expect.objectContaining({
        fields: {
          wakeToken: w,
          agentId: 'claude',
          agentName: 'claude',
          agentDisplayName: 'Claude',
          runtime: 'claude-code',
          model: 'claude-sonnet-4-5',
          target: '#general',
          status: 'completed_without_visible_reply',
          reason: 'no_reply',
        },
      }),
    ]);
  });

  it('counts received, reply_sent, failed and no-reply by runtime, never by agent id', async () => {
    const h = wakeHarness({ runtime: 'opencode' });
    h.wake('#general', { targetSeq: 1 });
    h.wake('#ops', { targetSeq: 1 });
    h.wake('#dev', { targetSeq: 1 });
    h.lifecycle.onSendResult({ agentId: h.agentId, status: 'sent', targetKey: general, seenUpToSeq: 1 });
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onRuntimeError(h.agentId, 0, 'x');
    expect(await h.counter('wake_received_total', { runtime: 'opencode' })).toBe(3);
    expect(await h.counter('wake_reply_sent_total', { runtime: 'opencode' })).toBe(1);
    expect(await h.counter('wake_failed_total', { runtime: 'opencode' })).toBe(2);
    // The agent is "claude": no label carries it (runtime="claude-code" is a runtime's series at 0, issue 41).
    const text = await h.registry.metrics();
    expect(text).not.toMatch(/="claude"|agent/);
    expect(text).toContain('wake_received_total{runtime="claude-code"} 0');
  });

  it('bounds failure detail to one line of at most 300 characters', () => {
    const h = wakeHarness();
    const w = h.wake();
    h.lifecycle.onRuntimeError(h.agentId, 0, `line1\nline2 ${'x'.repeat(1000)}`);
    const detail = h.terminals(w)[0]?.detail ?? '';
    expect(detail.length).toBe(300);
    expect(detail).not.toContain('\n');
  });
});

describe('design: the state machine holds no timers', () => {
  it('schedules nothing across a whole lifecycle (time lives in RxJS around it)', () => {
    vi.useFakeTimers();
    try {
      const h = wakeHarness({ capacity: 1 });
      h.wake('#general', { targetSeq: 1 });
      h.wake('#general', { targetSeq: 2 });
      h.lifecycle.onTurnBoundary(h.agentId, 0);
      h.lifecycle.onTurnBoundary(h.agentId, 0);
      h.lifecycle.onRuntimeError(h.agentId, 0, 'x', { processExited: true });
      h.lifecycle.onProcessReplaced(h.agentId, 1);
      expect(vi.getTimerCount()).toBe(0);
      expect(h.terminals()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('issue 30: a disabled debug level costs no fields object', () => {
  /** queued → delivered → final_check_sent → completed_without_visible_reply, with local text on the way. */
  const drive = (debug: boolean) => {
    const h = wakeHarness({ debug });
    const w = h.wake('#general');
    h.lifecycle.onLocalText(h.agentId, 0, 'thinking out loud');
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.terminals(w)).toMatchObject([{ status: 'completed_without_visible_reply' }]);
    return h.logs;
  };

  it('with debug on, every non-terminal transition and local text is a debug line with its fields', () => {
    const debug = drive(true).filter((l) => l.level === 'debug');
    expect(debug.filter((l) => l.message === 'wake status').map((l) => l.fields?.status)).toEqual([
      'queued',
      'delivered',
      'final_check_sent',
    ]);
    expect(debug.find((l) => l.message.startsWith('wake: local runtime text'))?.fields).toMatchObject({ bytes: 17 });
  });

  it('with debug off, debug is never called: no fields were built for it', () => {
    const lines = drive(false);
    expect(lines.filter((l) => l.level === 'debug')).toEqual([]);
    // the terminal line is info and still written
    expect(lines.filter((l) => l.level === 'info' && l.message === 'wake status')).toHaveLength(1);
  });
});
