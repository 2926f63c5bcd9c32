/** The agents as the daemon reports them: `agents.list` at start, then each `agent.updated`. */
import type { Agent } from '../../../shared/api/contract.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'agents';

export class AgentStore extends KeyedStore {
  private list: readonly Agent[] = [];

  get agents(): readonly Agent[] {
    return this.list;
  }

  /** The answer of `agents.list`. */
  replace(agents: readonly Agent[]): void {
    this.list = agents;
    this.notify(KEY);
  }

  /** An `agent.updated` event: that agent replaced in place, or added. */
  upsert(agent: Agent): void {
    this.list = this.list.some((a) => a.id === agent.id)
      ? this.list.map((a) => (a.id === agent.id ? agent : a))
      : [...this.list, agent];
    this.notify(KEY);
  }
}

export function useAgents(store: AgentStore): readonly Agent[] {
  return useStoreKey(store, KEY, () => store.agents);
}
