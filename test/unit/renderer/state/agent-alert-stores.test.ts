/** The agents and the alerts, as events bring them (state/agent-store.ts, state/alert-store.ts; issue 23). */
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../../shared/api/contract.js';
import { AgentStore } from '../../../../renderer/src/state/agent-store.js';
import { AlertStore } from '../../../../renderer/src/state/alert-store.js';
import { demoAgent } from '../../../fixtures/fake-client-api.js';

const alert = (id: string): Alert => ({
  id,
  kind: 'delivery_failed',
  target: '#general',
  wakeToken: null,
  responseId: null,
  message: `alert ${id}`,
  at: '2026-11-30T10:00:00.000Z',
});

describe('AgentStore', () => {
  it('keeps the roster (who the agents are) the same array through busy/idle and readiness, and changes it on add or rename (issue 30)', () => {
    const store = new AgentStore();
    let roster = 0;
    let agents = 0;
    store.subscribe('roster', () => roster++);
    store.subscribe('agents', () => agents++);
    store.replace([demoAgent(), demoAgent({ id: 'claude', name: 'Claude' })]);
    const first = store.roster;
    expect(first.map((a) => [a.id, a.name])).toEqual([
      ['demo', 'Demo'],
      ['claude', 'Claude'],
    ]);
    expect(first[0]).not.toHaveProperty('state');
    for (let i = 0; i < 10; i++) store.upsert(demoAgent({ state: i % 2 === 0 ? 'busy' : 'idle' }));
    expect(store.roster).toBe(first);
    expect([roster, agents]).toEqual([1, 11]);
    store.upsert(demoAgent({ id: 'claude', name: 'Claude Code' }));
    expect(store.roster).not.toBe(first);
    expect(store.roster.map((a) => a.name)).toEqual(['Demo', 'Claude Code']);
    store.upsert(demoAgent({ id: 'codex', name: 'Codex' }));
    expect(store.roster.map((a) => a.id)).toEqual(['demo', 'claude', 'codex']);
    expect([roster, agents]).toEqual([3, 13]);
  });

  it('replaces an updated agent in place and adds a new one, telling its subscribers each time', () => {
    const store = new AgentStore();
    let calls = 0;
    store.subscribe('agents', () => calls++);
    store.replace([demoAgent(), demoAgent({ id: 'claude', name: 'Claude' })]);
    store.upsert(demoAgent({ state: 'busy' }));
    store.upsert(demoAgent({ id: 'codex', name: 'Codex' }));
    expect(store.agents.map((a) => [a.id, a.state])).toEqual([
      ['demo', 'busy'],
      ['claude', 'idle'],
      ['codex', 'idle'],
    ]);
    expect(calls).toBe(3);
  });
});

describe('AlertStore', () => {
  it('keeps the newest 50 alerts, one per id, and the ones dismissed', () => {
    const store = new AlertStore();
    for (let i = 0; i < 55; i++) store.raise(alert(`a${i}`));
    store.raise(alert('a10'));
    expect(store.alerts).toHaveLength(50);
    expect(store.alerts[0]?.id).toBe('a5');
    expect(store.alerts.at(-1)?.id).toBe('a10');
    expect(store.alerts.filter((a) => a.id === 'a10')).toHaveLength(1);
    const before = store.dismissed;
    store.dismiss('a10');
    expect(store.dismissed.has('a10')).toBe(true);
    expect(before.has('a10')).toBe(false);
  });
});
