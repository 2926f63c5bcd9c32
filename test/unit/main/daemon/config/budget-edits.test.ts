/** issue 27: Raise budget's edit of agentteam.json, and the budget changes a reload brings. */
import { Subject, toArray, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../../shared/api/contract.js';
import { ConfigSchema, type Config } from '../../../../../shared/config.js';
import { budgetChanges, budgetEdits } from '../../../../../main/daemon/config/agent-edits.js';

const config = (budgets: Record<string, unknown>): Config =>
  ConfigSchema.parse({
    agents: Object.entries(budgets).map(([id, budget]) => ({
      id,
      name: id,
      runtime: 'demo',
      ...(budget === undefined ? {} : { budget }),
    })),
  });

describe('budgetEdits', () => {
  it('sets the agent’s budget, writes nothing when it is already that; an unknown agent is a clear error', () => {
    const c = config({ a: { tokens: 10 }, b: undefined });
    expect(budgetEdits('b', { tokens: 50 })(c)).toEqual([{ path: ['agents', 1, 'budget'], value: { tokens: 50 } }]);
    expect(budgetEdits('a', { tokens: 10 })(c)).toEqual([]);
    expect(() => budgetEdits('nobody', { tokens: 1 })(c)).toThrow(ApiError);
  });

  it('issue 39: null removes the budget key; nothing to write for an agent without one', () => {
    const c = config({ a: { tokens: 10 }, b: undefined });
    expect(budgetEdits('a', null)(c)).toEqual([{ path: ['agents', 0, 'budget'], remove: true }]);
    expect(budgetEdits('b', null)(c)).toEqual([]);
  });
});

describe('budgetChanges', () => {
  it('names each agent whose budget a reload changed, once per change; others and unchanged reloads say nothing', async () => {
    const reloads = new Subject<Config>();
    const changed = firstValueFrom(budgetChanges(config({ a: { tokens: 10 }, b: undefined }), reloads).pipe(toArray()));
    reloads.next(config({ a: { tokens: 10 }, b: undefined }));
    reloads.next(config({ a: { tokens: 20 }, b: undefined }));
    reloads.next(config({ a: { tokens: 20 }, b: { costUsd: 1 } }));
    reloads.next(config({ a: { tokens: 20 } }));
    reloads.complete();
    expect(await changed).toEqual(['a', 'b']);
  });
});
