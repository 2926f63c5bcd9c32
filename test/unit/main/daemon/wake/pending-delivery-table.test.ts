import { describe, expect, it } from 'vitest';
import { targetKey } from '../../../../../shared/target.js';
import { PendingDeliveryTable, type WakeAdmission } from '../../../../../main/daemon/wake/index.js';

const general = targetKey('#general');

const wake = (
  n: number,
  target = '#general',
  cls: WakeAdmission['deliveryClass'] = 'visible_reply',
): WakeAdmission => ({
  wakeToken: `w${n}`,
  messageId: `m${n}`,
  target,
  targetKey: targetKey(target),
  targetSeq: n,
  deliveryClass: cls,
});

describe('PendingDeliveryTable (pure, contract §9)', () => {
  it('rows carry the §9.1 fields and start awaiting_check', () => {
    const t = new PendingDeliveryTable(2);
    const [effect] = t.enqueue(wake(1, '#Dev:Ab12'.toLowerCase()));
    expect(effect?.kind).toBe('admitted');
    expect(t.row('w1')).toMatchObject({
      messageId: 'm1',
      target: '#dev:ab12',
      targetKey: '#dev:ab12',
      targetSeq: 1,
      wakeToken: 'w1',
      deliveryClass: 'visible_reply',
      status: 'awaiting_check',
    });
  });

  it('returns effects instead of doing I/O: a boundary reports final_check_sent rows and the groups to render', () => {
    const t = new PendingDeliveryTable(4);
    t.enqueue(wake(1));
    t.markDelivered(0, ['w1']);
    const r = t.boundary(0, 'turn_end');
    expect(r.effects.map((e) => e.kind)).toEqual(['final_check_sent']);
    expect(r.finalCheck).toEqual([{ target: '#general', wakes: [{ messageId: 'm1', targetSeq: 1, wakeToken: 'w1' }] }]);
  });

  it('skips rows not yet runtime-visible at a boundary', () => {
    const t = new PendingDeliveryTable(4);
    t.enqueue(wake(1));
    expect(t.boundary(0, 'turn_end')).toEqual({ effects: [], finalCheck: null });
    expect(t.row('w1')?.status).toBe('awaiting_check');
  });

  it('ignores duplicate wake tokens', () => {
    const t = new PendingDeliveryTable(1);
    t.enqueue(wake(1));
    t.enqueue(wake(2));
    expect(t.enqueue(wake(2))).toEqual([]);
    expect(t.queued).toBe(1);
  });

  it('terminate() is the one terminal helper: a second call for the token is a no-op, and it admits the next wake', () => {
    const t = new PendingDeliveryTable(1);
    t.enqueue(wake(1));
    t.enqueue(wake(2));
    const first = t.terminate('w1', { status: 'failed', reason: null, detail: 'x' });
    expect(first.map((e) => e.kind)).toEqual(['terminal', 'admitted']);
    expect(t.terminate('w1', { status: 'reply_sent', reason: null, detail: null })).toEqual([]);
    expect(t.row('w2')).toBeDefined();
  });

  it('keeps the FIFO bound with 10,000 queued wakes and admits them all in order', () => {
    const t = new PendingDeliveryTable(16);
    for (let i = 1; i <= 10_000; i++) t.enqueue(wake(i));
    const admitted: string[] = [];
    while (t.size > 0) {
      const first = t.rows().next().value;
      if (first === undefined) break;
      for (const e of t.terminate(first.wakeToken, { status: 'failed', reason: null, detail: 'x' }))
        if (e.kind === 'admitted') admitted.push(e.row.wakeToken);
      expect(t.size).toBeLessThanOrEqual(16);
    }
    expect(admitted).toHaveLength(10_000 - 16);
    expect(admitted[0]).toBe('w17');
    expect(admitted.at(-1)).toBe('w10000');
  });

  it('rejects a capacity that is not a positive integer (a bug, so it throws)', () => {
    expect(() => new PendingDeliveryTable(0)).toThrow(/capacity/);
  });
});

describe('PendingDeliveryTable applies the one rule', () => {
  it('handling answers, without settling, exactly what the same send result then settles (§9.2, issue 39: one owner)', () => {
    const t = new PendingDeliveryTable(8);
    for (const w of [wake(1), wake(2, '#ops'), wake(3, '#general', 'signal_only'), wake(4), wake(5)]) t.enqueue(w);
    // w5 is admitted but not yet written into the runtime: not being handled, never answered as settled.
    t.markDelivered(0, ['w1', 'w2', 'w3', 'w4']);
    const asked = t.handling(general, 3);
    expect(asked).toEqual([
      { wakeToken: 'w1', settled: true },
      { wakeToken: 'w2', settled: false },
      { wakeToken: 'w3', settled: true },
      { wakeToken: 'w4', settled: false },
    ]);
    expect(t.size).toBe(5); // asking changed nothing
    const settled = t.sendResult(general, 3).flatMap((e) => (e.kind === 'terminal' ? [e.row.wakeToken] : []));
    expect(settled).toEqual(asked.filter((h) => h.settled).map((h) => h.wakeToken));
  });

  it('chargeRefusal marks the runtime-visible rows only, and a later refusal replaces the earlier (issue 15)', () => {
    const t = new PendingDeliveryTable(4);
    t.enqueue(wake(1));
    t.enqueue(wake(2));
    t.markDelivered(0, ['w1']);
    expect(t.chargeRefusal('rate_limited')).toEqual(['w1']);
    expect(t.chargeRefusal('out_of_scope')).toEqual(['w1']);
    expect([t.row('w1')?.refusal, t.row('w2')?.refusal]).toEqual(['out_of_scope', null]);
  });

  it('restoreInFlight: the journal facts decide, one frontier per target, nothing admitted, a wake already here skipped', () => {
    const t = new PendingDeliveryTable(4);
    t.enqueue(wake(9));
    const r = t.restoreInFlight([
      { ...wake(1), repliedUpToSeq: 1 },
      { ...wake(2), repliedUpToSeq: 1 },
      { ...wake(3, '#ops'), recoveries: 1 },
      { ...wake(4, '#general', 'signal_only') },
      { ...wake(5), repliedUpToSeq: 1 },
      { ...wake(9), repliedUpToSeq: 0 },
    ]);
    expect(r.effects.map((e) => [e.kind, e.row.wakeToken, e.kind === 'terminal' ? e.outcome.status : null])).toEqual([
      ['terminal', 'w1', 'reply_sent'],
      // issue 24: the daemon restart is a failure of the wakes it interrupted, recovered or not.
      ['terminal', 'w2', 'failed'],
      ['terminal', 'w3', 'failed'],
      ['terminal', 'w4', 'completed_without_visible_reply'],
      ['terminal', 'w5', 'failed'],
    ]);
    expect(r.recovery).toEqual([
      { target: general, targetSeq: 5, messageId: 'm5', wakeToken: 'w5', wakeTokens: ['w2', 'w5'] },
    ]);
    // The restored rows never entered the table; the wake already there is untouched.
    expect([...t.rows()].map((row) => row.wakeToken)).toEqual(['w9']);
  });

  it('requeue: the stored queue re-enters in order behind the FIFO bound, wakes already here are not counted', () => {
    const t = new PendingDeliveryTable(2);
    t.enqueue(wake(1));
    const r = t.requeue([wake(1), wake(2), wake(3)]);
    expect(r.requeued).toBe(2);
    expect(r.effects.map((e) => [e.kind, e.row.wakeToken])).toEqual([['admitted', 'w2']]);
    expect(t.queued).toBe(1);
  });

  it('processReplaced ends visible rows by the same rule as a daemon restart (only the failure differs)', () => {
    const wakes = [wake(1), wake(2, '#ops', 'signal_only'), wake(3), wake(4, '#ops')];
    const replaced = new PendingDeliveryTable(4);
    for (const w of wakes) replaced.enqueue(w);
    replaced.markDelivered(0, ['w1', 'w2', 'w3', 'w4']);
    const a = replaced.processReplaced(1);
    // A fresh table after the restart: the same wakes, now only in the journal.
    const b = new PendingDeliveryTable(4).restoreInFlight(wakes);
    const ends = (effects: typeof a.effects) =>
      effects.flatMap((e) => (e.kind === 'terminal' ? [[e.row.wakeToken, e.outcome.status, e.outcome.reason]] : []));
    const reasonOf = (failure: string) => [
      ['w1', 'failed', failure],
      ['w2', 'completed_without_visible_reply', 'signal_only'],
      ['w3', 'failed', failure],
      ['w4', 'failed', failure],
    ];
    expect(ends(a.effects)).toEqual(reasonOf('process_replaced'));
    expect(ends(b.effects)).toEqual(reasonOf('daemon_restarted'));
    expect(a.recovery).toEqual(b.recovery);
  });

  it("issue 24: a crash's replacement fails the visible rows with the exit's reason and detail, once; the next replacement does not reuse it", () => {
    const t = new PendingDeliveryTable(4);
    t.enqueue(wake(1));
    t.enqueue(wake(2));
    t.markDelivered(0, ['w1']);
    expect(t.processExited(0, 'the codex runtime exited unexpectedly (SIGKILL)', 'cli_exited')).toEqual([]);
    const r = t.processReplaced(1);
    expect(r.effects.flatMap((e) => (e.kind === 'terminal' ? [[e.row.wakeToken, e.outcome]] : []))).toEqual([
      ['w1', { status: 'failed', reason: 'cli_exited', detail: 'the codex runtime exited unexpectedly (SIGKILL)' }],
    ]);
    expect(r.recovery.map((f) => f.wakeTokens)).toEqual([['w1']]);
    // w2 never reached the dead process: re-offered, and a replacement without an exit says so.
    t.markDelivered(1, ['w2']);
    const again = t.processReplaced(2);
    expect(again.effects.find((e) => e.kind === 'terminal')).toMatchObject({
      row: { wakeToken: 'w2' },
      outcome: { status: 'failed', reason: 'process_replaced' },
    });
  });
});
