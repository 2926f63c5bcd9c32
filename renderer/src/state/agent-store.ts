/**
 * The agents as the daemon reports them: `agents.list` at start, then each `agent.updated`.
 *
 * Two keys (issue 30): `agents`, the whole views (state, readiness, workspace, rules), changes
 * with each update — busy/idle flips twice per wake, many times a second under a busy team; and
 * `roster`, who the agents are (id, name, runtime), which changes only when one of those does.
 * What only names agents (titles, mentions, message rows, search) reads the roster, so a busy/idle
 * flip re-renders the rows that show a state, not the conversation.
 */
import type { Agent } from '../../../shared/api/contract.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'agents';
const ROSTER = 'roster';

/** The fields that say who an agent is (all but its state). */
const IDENTITY = ['id', 'name', 'runtime', 'preset', 'demo', 'model'] as const;

/**
 * Who an agent is, as the roster lists it, with its runtime's words (issue 39: the daemon's; they
 * follow from its runtime and preset, so they are not compared).
 */
export type AgentIdentity = Pick<Agent, (typeof IDENTITY)[number] | 'runtimeWords'>;

const identityOf = (a: Agent): AgentIdentity => ({
  runtimeWords: a.runtimeWords,
  id: a.id,
  name: a.name,
  runtime: a.runtime,
  preset: a.preset ?? null,
  demo: a.demo,
  model: a.model,
});

const sameIdentity = (a: AgentIdentity, b: AgentIdentity): boolean => IDENTITY.every((k) => a[k] === b[k]);

export class AgentStore extends KeyedStore {
  private list: readonly Agent[] = [];
  private identities: readonly AgentIdentity[] = [];

  get agents(): readonly Agent[] {
    return this.list;
  }

  /** Who the agents are; the same array until an agent is added, removed, renamed or changes runtime or model. */
  get roster(): readonly AgentIdentity[] {
    return this.identities;
  }

  /** The answer of `agents.list`. */
  replace(agents: readonly Agent[]): void {
    this.list = agents;
    this.#changed();
  }

  /** An `agent.updated` event: that agent replaced in place, or added. */
  upsert(agent: Agent): void {
    this.list = this.list.some((a) => a.id === agent.id)
      ? this.list.map((a) => (a.id === agent.id ? agent : a))
      : [...this.list, agent];
    this.#changed();
  }

  #changed(): void {
    const next = this.list.map(identityOf);
    if (next.length !== this.identities.length || next.some((a, i) => !sameIdentity(a, this.identities[i]!))) {
      this.identities = next;
      this.notify(ROSTER);
    }
    this.notify(KEY);
  }
}

/** The whole views: re-renders on every `agent.updated` (state, readiness, …). */
export function useAgents(store: AgentStore): readonly Agent[] {
  return useStoreKey(store, KEY, () => store.agents);
}

/** Who the agents are: re-renders only when the roster changes, not on busy/idle. */
export function useAgentRoster(store: AgentStore): readonly AgentIdentity[] {
  return useStoreKey(store, ROSTER, () => store.roster);
}
