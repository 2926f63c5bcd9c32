/**
 * Model-based test (fast-check `fc.commands`) of the wake lifecycle over an in-memory journal:
 * arbitrary interleavings of inbound wakes, deliveries, send results with arbitrary frontiers,
 * reactions, turn boundaries, undeliverable final-checks, runtime errors, stale events from
 * older generations and process replacements. Invariants (contract §6.2, §6.4, §9):
 * ≤ 1 terminal per wake; every wake terminal once its turns end; ≤ 1 final-check per row;
 * the FIFO bound holds and admission keeps enqueue order; no row resurrected after cleanup.
 * A reference model runs beside the real lifecycle: after every command each wake's status and
 * terminal classification (reply_sent / completed_without_visible_reply / failed, with reason and
 * detail, §9.3) must match it, in the journal and on the wake_status stream.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';
import { WakeReferenceModel } from '../../../../fixtures/wake-reference-model.js';

const TARGETS = ['#general', '#general:ab12', '#ops', 'dm:@ann'] as const;
const CAPACITY = 3;

type Real = ReturnType<typeof wakeHarness>;
interface Model {
  readonly ref: WakeReferenceModel;
  readonly seqByTarget: number[];
}

const TERMINAL = new Set(['reply_sent', 'failed', 'completed_without_visible_reply']);

function pendingTokens(r: Real): string[] {
  return r.lifecycle.pending(r.agentId).map((p) => p.wakeToken);
}
function statusOf(r: Real, token: string) {
  return r.journal.statusOf(token);
}

function checkInvariants(m: Model, r: Real): void {
  const pending = new Set(pendingTokens(r));
  expect(pending.size).toBeLessThanOrEqual(CAPACITY);
  expect(pendingTokens(r)).toEqual(m.ref.rows());
  for (const token of m.ref.order) {
    const w = r.journal.wakes.get(token);
    expect(w).toBeDefined();
    if (w === undefined) continue;
    // §9.2/§9.3: the classification, not only "some terminal": status, reason and detail as the model says.
    const expected = m.ref.wakes.get(token)?.outcome ?? null;
    expect(w.status, `status of ${token}`).toBe(m.ref.status(token));
    if (expected !== null) {
      expect({ status: w.status, reason: w.reason, detail: w.detail }, `outcome of ${token}`).toEqual(expected);
      const published = r.terminals(token).map((e) => ({ status: e.status, reason: e.reason, detail: e.detail }));
      expect(published, `wake_status terminal of ${token}`).toEqual([expected]);
    } else {
      expect(r.terminals(token)).toEqual([]);
    }
    expect(w.terminalsAccepted).toBeLessThanOrEqual(1);
    expect(w.terminalsRefused).toBe(0);
    expect(w.finalChecks).toBeLessThanOrEqual(1);
    expect(r.terminals(token).length).toBeLessThanOrEqual(1);
    // no resurrection: a terminal wake is never in the table again
    if (TERMINAL.has(w.status)) expect(pending.has(token)).toBe(false);
  }
  // admission order (first offer of each wake) is enqueue order
  const firstOffers: string[] = [];
  const seen = new Set<string>();
  for (const d of r.deliveries) {
    for (const w of d.wakes) {
      if (seen.has(w.wakeToken)) continue;
      seen.add(w.wakeToken);
      firstOffers.push(w.wakeToken);
    }
  }
  expect(firstOffers).toEqual(m.ref.order.slice(0, firstOffers.length));
}

type Cmd = fc.Command<Model, Real>;

class Inbound implements Cmd {
  constructor(
    readonly t: number,
    readonly signal: boolean,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    m.seqByTarget[this.t] = (m.seqByTarget[this.t] ?? 0) + 1;
    const token = `w${m.ref.order.length + 1}`;
    const messageId = `m${m.ref.order.length + 1}`;
    const seq = m.seqByTarget[this.t] as number;
    m.ref.enqueue({ token, messageId, key: targetKey(TARGETS[this.t] as string), seq, signal: this.signal });
    r.lifecycle.enqueue(r.agentId, {
      wakeToken: token,
      messageId,
      target: TARGETS[this.t] as string,
      targetSeq: seq,
      deliveryClass: this.signal ? 'signal_only' : 'visible_reply',
    });
    expect(statusOf(r, token)).toBeDefined();
    checkInvariants(m, r);
  }
  toString = () => `Inbound(${TARGETS[this.t]},${this.signal ? 'signal' : 'visible'})`;
}

class DeliverAll implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    m.ref.delivered(m.ref.generation, pendingTokens(r));
    r.lifecycle.onDelivered(r.agentId, m.ref.generation, pendingTokens(r));
    checkInvariants(m, r);
  }
  toString = () => 'DeliverAll';
}

class Send implements Cmd {
  constructor(
    readonly t: number,
    readonly seenDelta: number,
    readonly status: 'sent' | 'already_sent' | 'failed',
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const key = targetKey(TARGETS[this.t] as string);
    const seen = Math.max(0, (m.seqByTarget[this.t] ?? 0) + this.seenDelta);
    const before = r.lifecycle
      .pending(r.agentId)
      .map((p) => ({ token: p.wakeToken, key: p.targetKey, seq: p.targetSeq }));
    m.ref.sendResult(this.status, key, seen);
    r.lifecycle.onSendResult({ agentId: r.agentId, status: this.status, targetKey: key, seenUpToSeq: seen });
    const after = new Set(pendingTokens(r));
    for (const row of before) {
      const covered = this.status !== 'failed' && row.key === key && row.seq <= seen;
      // §9.2: exactly the covered rows (of either class, issue 38) settle reply_sent; everything else is untouched
      expect(after.has(row.token)).toBe(!covered);
      if (covered) expect(statusOf(r, row.token)).toBe('reply_sent');
    }
    checkInvariants(m, r);
  }
  toString = () => `Send(${TARGETS[this.t]},delta=${this.seenDelta},${this.status})`;
}

class React implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.ref.order.length > 0;
  run(m: Model, r: Real): void {
    const token = m.ref.order[this.pick % m.ref.order.length] as string;
    const row = r.lifecycle.pending(r.agentId).find((p) => p.wakeToken === token);
    const others = pendingTokens(r).filter((t) => t !== token);
    const messageId = m.ref.wakes.get(token)?.messageId as string;
    m.ref.reaction(messageId);
    r.lifecycle.onReactionConfirmed({ agentId: r.agentId, messageId });
    if (row?.deliveryClass === 'visible_reply') expect(statusOf(r, token)).toBe('reply_sent');
    for (const t of others) expect(pendingTokens(r)).toContain(t);
    checkInvariants(m, r);
  }
  toString = () => `React(${this.pick})`;
}

class Boundary implements Cmd {
  constructor(
    readonly kind: 'turn_end' | 'idle' | 'compaction',
    readonly undeliverable: boolean,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const before = r.lifecycle.pending(r.agentId).map((p) => ({ token: p.wakeToken, status: p.status }));
    const expected = m.ref.boundary(m.ref.generation);
    const injection = r.lifecycle.onTurnBoundary(r.agentId, m.ref.generation, this.kind);
    // §6.4/§8.3: one final-check, covering exactly the visible unresolved rows, grouped by target in FIFO order.
    expect(injection?.wakeTokens ?? null).toEqual(expected);
    for (const row of before) {
      // §6.4: a row whose final-check already went out is never injected again
      if (row.status === 'final_check_sent') expect(injection?.wakeTokens ?? []).not.toContain(row.token);
    }
    if (injection !== null && this.undeliverable) {
      m.ref.finalCheckUndeliverable(m.ref.generation, injection.wakeTokens, 'stdin closed');
      r.lifecycle.onFinalCheckUndeliverable(r.agentId, m.ref.generation, injection.wakeTokens, 'stdin closed');
      for (const t of injection.wakeTokens) expect(statusOf(r, t)).toBe('completed_without_visible_reply');
    }
    checkInvariants(m, r);
  }
  toString = () => `Boundary(${this.kind}${this.undeliverable ? ',undeliverable' : ''})`;
}

class RuntimeError implements Cmd {
  constructor(readonly exited: boolean) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const before = pendingTokens(r);
    m.ref.runtimeError(m.ref.generation, 'runtime error', this.exited);
    r.lifecycle.onRuntimeError(r.agentId, m.ref.generation, 'runtime error', { processExited: this.exited });
    for (const t of before) expect(statusOf(r, t)).toBe('failed');
    if (this.exited) expect(pendingTokens(r)).toEqual([]);
    checkInvariants(m, r);
  }
  toString = () => `RuntimeError(${this.exited ? 'exited' : 'alive'})`;
}

class StaleEvents implements Cmd {
  check = (m: Readonly<Model>) => m.ref.generation > 0;
  run(m: Model, r: Real): void {
    const snapshot = JSON.stringify([r.lifecycle.pending(r.agentId), r.journal.events.length]);
    const old = m.ref.generation - 1;
    expect(r.lifecycle.onTurnBoundary(r.agentId, old)).toBeNull();
    r.lifecycle.onTurnBoundary(r.agentId, old, 'idle');
    r.lifecycle.onFinalCheckUndeliverable(r.agentId, old, pendingTokens(r));
    r.lifecycle.onRuntimeError(r.agentId, old, 'late error');
    r.lifecycle.onDelivered(r.agentId, old, m.ref.order);
    r.lifecycle.onProcessReplaced(r.agentId, old);
    expect(JSON.stringify([r.lifecycle.pending(r.agentId), r.journal.events.length])).toBe(snapshot);
    checkInvariants(m, r);
  }
  toString = () => 'StaleEvents';
}

class Replace implements Cmd {
  check = () => true;
  run(m: Model, r: Real): void {
    m.ref.replaced(m.ref.generation + 1);
    r.lifecycle.onProcessReplaced(r.agentId, m.ref.generation);
    for (const p of r.lifecycle.pending(r.agentId)) expect(p.generation).toBe(m.ref.generation);
    checkInvariants(m, r);
  }
  toString = () => 'Replace';
}

const target = fc.integer({ min: 0, max: TARGETS.length - 1 });
const commands = [
  fc.tuple(target, fc.boolean()).map(([t, s]) => new Inbound(t, s)),
  fc.tuple(target, fc.boolean()).map(([t, s]) => new Inbound(t, s)),
  fc.constant(new DeliverAll()),
  fc.constant(new DeliverAll()),
  fc
    .tuple(
      target,
      fc.integer({ min: -3, max: 2 }),
      fc.constantFrom('sent' as const, 'already_sent' as const, 'failed' as const),
    )
    .map(([t, d, s]) => new Send(t, d, s)),
  fc.nat(50).map((n) => new React(n)),
  fc
    .tuple(
      fc.constantFrom('turn_end' as const, 'turn_end' as const, 'idle' as const, 'compaction' as const),
      fc.boolean(),
    )
    .map(([k, u]) => new Boundary(k, u)),
  fc.boolean().map((e) => new RuntimeError(e)),
  fc.constant(new StaleEvents()),
  fc.constant(new Replace()),
];

/** After the commands: the process keeps running turns with no reply until the table is empty. */
function drain(m: Model, r: Real): void {
  if (!m.ref.accepting) {
    m.ref.replaced(m.ref.generation + 1);
    r.lifecycle.onProcessReplaced(r.agentId, m.ref.generation);
  }
  for (
    let i = 0;
    i < 4 * (m.ref.order.length + 1) && (pendingTokens(r).length > 0 || r.lifecycle.queued(r.agentId) > 0);
    i++
  ) {
    m.ref.delivered(m.ref.generation, pendingTokens(r));
    r.lifecycle.onDelivered(r.agentId, m.ref.generation, pendingTokens(r));
    expect(r.lifecycle.onTurnBoundary(r.agentId, m.ref.generation)?.wakeTokens ?? null).toEqual(
      m.ref.boundary(m.ref.generation),
    );
    checkInvariants(m, r);
  }
}

describe('wake lifecycle model (fc.commands)', () => {
  it('holds the contract invariants over 1,000 random sequences', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const model: Model = { ref: new WakeReferenceModel(CAPACITY), seqByTarget: [] };
        const real = wakeHarness({ capacity: CAPACITY, autoDeliver: false });
        fc.modelRun(() => ({ model, real }), cmds);
        drain(model, real);
        checkInvariants(model, real);
        // every wake is terminal once its turns have ended, and the table is empty
        for (const token of model.ref.order) expect(TERMINAL.has(statusOf(real, token) ?? '')).toBe(true);
        expect(pendingTokens(real)).toEqual([]);
        expect(real.released.length).toBe(model.ref.order.length);
      }),
      { numRuns: 1000 },
    );
  });
});
