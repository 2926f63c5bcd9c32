/** issue 25: the Team board store ("who needs me" first) and the chain store (a conversation's paused chain). */
import { describe, expect, it, vi } from 'vitest';
import type { Chain, TeamAgent } from '../../../../shared/api/contract.js';
import { ChainStore } from '../../../../renderer/src/state/chain-store.js';
import { TeamStore, needsOperator, teamBoardRows } from '../../../../renderer/src/state/team-store.js';

const entry = (over: Partial<TeamAgent> & Pick<TeamAgent, 'agentId' | 'state'>): TeamAgent => ({
  name: over.agentId.toUpperCase(),
  runtime: 'claude-code',
  target: null,
  title: null,
  since: null,
  wakeToken: null,
  approvalId: null,
  reason: null,
  ready: true,
  ...over,
});

const chainOf = (over: Partial<Chain> = {}): Chain => ({
  chainId: 'm1',
  target: '#general',
  status: 'open',
  hops: 2,
  budget: 6,
  continues: 0,
  heldMessageId: null,
  heldFor: [],
  startedAt: '2026-03-02T09:00:00.000Z',
  pausedAt: null,
  updatedAt: '2026-03-02T09:00:00.000Z',
  ...over,
});

describe('the Team board order', () => {
  it('puts who needs the operator first — approval, failed — then working (longest first), idle, then available (issue 40: not signed in)', () => {
    const rows = teamBoardRows([
      entry({ agentId: 'idle', state: 'idle' }),
      entry({ agentId: 'w2', state: 'working', since: '2026-03-02T09:05:00.000Z' }),
      entry({ agentId: 'signin', state: 'needs_sign_in', ready: false }),
      entry({ agentId: 'w1', state: 'working', since: '2026-03-02T09:01:00.000Z' }),
      entry({ agentId: 'failed', state: 'failed', reason: 'cli_exited' }),
      entry({ agentId: 'ask', state: 'waiting_approval', since: '2026-03-02T09:06:00.000Z' }),
    ]);
    expect(rows.map((r) => r.agentId)).toEqual(['ask', 'failed', 'w1', 'w2', 'idle', 'signin']);
    expect(rows.filter((r) => needsOperator(r.state)).map((r) => r.agentId)).toEqual(['ask', 'failed']);
  });

  it('replaces the board from team.board and updates one agent per team.updated, telling subscribers', () => {
    const store = new TeamStore();
    const heard = vi.fn();
    store.subscribe('board', heard);
    expect(store.loaded).toBe(false);
    store.replace([entry({ agentId: 'claude', state: 'idle' }), entry({ agentId: 'codex', state: 'idle' })]);
    expect(store.loaded).toBe(true);
    const before = store.board;
    store.upsert(entry({ agentId: 'codex', state: 'waiting_approval', target: '#general' }));
    expect(store.board).not.toBe(before);
    expect(store.board.map((e) => [e.agentId, e.state])).toEqual([
      ['codex', 'waiting_approval'],
      ['claude', 'idle'],
    ]);
    store.upsert(entry({ agentId: 'opencode', state: 'working', since: '2026-03-02T09:01:00.000Z' }));
    expect(store.board.map((e) => e.agentId)).toEqual(['codex', 'opencode', 'claude']);
    expect(heard).toHaveBeenCalledTimes(3);
    // A new board replaces the old one entirely (an agent removed from the config is gone).
    store.replace([entry({ agentId: 'claude', state: 'idle' })]);
    expect(store.board.map((e) => e.agentId)).toEqual(['claude']);
  });
});

describe('the chain store', () => {
  it("gives a conversation's newest paused chain, the same object until one of its chains changes", () => {
    const store = new ChainStore();
    store.applyAll([
      chainOf({ chainId: 'old', status: 'paused', hops: 6, startedAt: '2026-03-02T08:00:00.000Z' }),
      chainOf({ chainId: 'new', status: 'paused', hops: 6, startedAt: '2026-03-02T09:00:00.000Z' }),
      chainOf({ chainId: 'elsewhere', status: 'paused', target: '#other' }),
    ]);
    const paused = store.pausedChainOf('#general');
    expect(paused?.chainId).toBe('new');
    expect(store.pausedChainOf('#general')).toBe(paused);
    expect(store.pausedChainOf('#quiet')).toBeNull();
    const heard = vi.fn();
    store.subscribe('t:#general', heard);
    // The operator's Continue: open again with a bigger budget; the older paused chain is next.
    store.apply(chainOf({ chainId: 'new', hops: 6, budget: 12, continues: 1, updatedAt: '2026-03-02T09:10:00.000Z' }));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(store.pausedChainOf('#general')?.chainId).toBe('old');
    expect(store.get('new')?.budget).toBe(12);
  });

  it('never lets an older update of a chain replace a newer one', () => {
    const store = new ChainStore();
    store.apply(chainOf({ status: 'open', budget: 12, updatedAt: '2026-03-02T09:10:00.000Z' }));
    store.apply(chainOf({ status: 'paused', hops: 6, updatedAt: '2026-03-02T09:05:00.000Z' }));
    expect(store.get('m1')?.status).toBe('open');
    expect(store.pausedChainOf('#general')).toBeNull();
  });
});
