/** issue 30: the agent call gate hands out at most its budget per event-loop turn, in order, dropping nothing. */
import { describe, expect, it } from 'vitest';
import { AgentCallGate } from '../../../../../main/daemon/mcp/agent-call-gate.js';

/** Resolves in the check phase of the next loop iteration at the earliest. */
const nextIteration = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe('AgentCallGate', () => {
  it('admits its budget at once, then the rest a budget per later turn, first come first handled', async () => {
    const gate = new AgentCallGate(2);
    const handled: number[] = [];
    const turns: number[][] = [];
    const calls = Array.from({ length: 7 }, async (_, i) => {
      const wait = gate.admit();
      if (wait !== undefined) await wait;
      handled.push(i);
    });
    // The synchronous part of this turn: the first two were admitted without waiting.
    await Promise.resolve();
    turns.push([...handled]);
    while (handled.length < 7) {
      const before = handled.length;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (handled.length > before) turns.push(handled.slice(before));
    }
    await Promise.all(calls);
    expect(handled).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(turns).toEqual([[0, 1], [2, 3], [4, 5], [6]]);
    expect(gate.deferred).toBe(5);
  });

  it('a new turn has a fresh budget', async () => {
    const gate = new AgentCallGate(1);
    expect(gate.admit()).toBeUndefined();
    expect(gate.admit()).toBeInstanceOf(Promise);
    await nextIteration();
    await nextIteration();
    expect(gate.admit()).toBeUndefined();
  });

  it('refuses a budget below one', () => {
    expect(() => new AgentCallGate(0)).toThrow(/at least 1/);
  });
});
