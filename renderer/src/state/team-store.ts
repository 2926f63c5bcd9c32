/**
 * issue 25: the Team board — every agent across conversations with what it is doing now — as the
 * daemon reports it: `team.board` at start and after each reconnect, then each `team.updated`
 * (one agent's entry). The order is "who needs me" first (`teamBoardRows`), so the person sees
 * the agents waiting for them before those at work and those idle.
 */
import type { TeamAgent, TeamAgentState } from '../../../shared/api/contract.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'board';

/**
 * The board's order: waiting for the operator's approval, failed, working, idle, then (issue 40
 * item 6) the CLIs available once signed in.
 */
const TEAM_STATE_ORDER: readonly TeamAgentState[] = ['waiting_approval', 'failed', 'working', 'idle', 'needs_sign_in'];

/**
 * The states that need the operator ("who needs me", the Team badge). issue 40 item 6: a CLI that
 * is not signed in is not among them — it is available, and runs nothing until it is signed in.
 */
export function needsOperator(state: TeamAgentState): boolean {
  return state === 'waiting_approval' || state === 'failed';
}

const rank = (s: TeamAgentState): number => TEAM_STATE_ORDER.indexOf(s);
const time = (iso: string | null): number => (iso === null ? Infinity : Date.parse(iso) || Infinity);

/**
 * The board's rows, "who needs me" first: by state in `TEAM_STATE_ORDER`; within a state, the one
 * waiting (or working) longest first, then by name, so the order is stable between updates.
 */
export function teamBoardRows(entries: Iterable<TeamAgent>): TeamAgent[] {
  return [...entries].sort(
    (a, b) =>
      rank(a.state) - rank(b.state) ||
      time(a.since) - time(b.since) ||
      a.name.localeCompare(b.name) ||
      a.agentId.localeCompare(b.agentId),
  );
}

export class TeamStore extends KeyedStore {
  private readonly byAgent = new Map<string, TeamAgent>();
  private rows: readonly TeamAgent[] = [];
  /** Whether `team.board` answered at least once (before that the view says it is loading). */
  private known = false;

  get board(): readonly TeamAgent[] {
    return this.rows;
  }

  get loaded(): boolean {
    return this.known;
  }

  /** The answer of `team.board`: the whole board. */
  replace(entries: readonly TeamAgent[]): void {
    this.byAgent.clear();
    for (const e of entries) this.byAgent.set(e.agentId, e);
    this.known = true;
    this.changed();
  }

  /** A `team.updated` event: that agent's entry replaced, or added. */
  upsert(entry: TeamAgent): void {
    this.byAgent.set(entry.agentId, entry);
    this.changed();
  }

  private changed(): void {
    this.rows = teamBoardRows(this.byAgent.values());
    this.notify(KEY);
  }
}

/** The board's rows, "who needs me" first; re-renders when an entry changes. */
export function useTeamBoard(store: TeamStore): readonly TeamAgent[] {
  return useStoreKey(store, KEY, () => store.board);
}

/** issue 25: how many agents need the operator (the Team entry's badge); re-renders only when the count changes. */
export function useTeamNeedsYou(store: TeamStore): number {
  return useStoreKey(store, KEY, () => store.board.filter((e) => needsOperator(e.state)).length);
}
