/**
 * issue 25: the Team board — every agent with what it is doing now — read from the state that
 * already exists (no second source of truth): the roster's views (session state and readiness),
 * the wake lifecycle's runtime-visible rows (what it works on), the journal (since when) and the
 * pending approvals. `refresh(agentId)` re-reads one agent and announces its entry when it changed.
 *
 * Precedence, "who needs me" first: waiting for the operator's approval, needs sign-in, failed
 * (crashed, CLI missing, stopped), working on a conversation, idle.
 */
import type { Agent, TeamAgent, TeamAgentState } from '../../../shared/api/contract.js';
import type { ApprovalRecord, Store } from '../store/index.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';

export interface TeamBoardOptions {
  /** The roster's views of the agents, in file order. */
  readonly agents: () => readonly Agent[];
  /** One agent's view (issue 30: a refresh per wake event builds one view, not the whole roster's). */
  readonly agent: (agentId: string) => Agent | undefined;
  readonly lifecycle: Pick<WakeLifecycle, 'pending'>;
  readonly store: Pick<Store, 'getWake' | 'listWakeEvents'>;
  /** The agent's pending approvals, oldest first. */
  readonly pendingApprovals: (agentId: string) => readonly ApprovalRecord[];
  /** One agent's entry changed (the `team.updated` event). */
  readonly changed?: (entry: TeamAgent) => void;
}

const IDLE: TeamAgentState = 'idle';

const blank = (a: Agent): TeamAgent => ({
  agentId: a.id,
  name: a.name,
  runtime: a.runtime,
  state: IDLE,
  target: null,
  title: null,
  since: null,
  wakeToken: null,
  approvalId: null,
  reason: null,
  ready: a.readiness?.ready ?? a.state === 'idle',
});

export class TeamBoard {
  /** The last entry announced per agent (JSON), so an unchanged entry is not announced again. */
  readonly #last = new Map<string, string>();
  /** Per agent, the wake it works on and since when it was delivered (read once per wake, not per refresh). */
  readonly #since = new Map<string, { readonly wakeToken: string; readonly target: string; readonly since: string }>();

  constructor(private readonly o: TeamBoardOptions) {}

  board(): TeamAgent[] {
    return this.o.agents().map((a) => this.entry(a));
  }

  /** Re-reads one agent; announces its entry when it differs from the last one announced. */
  refresh(agentId: string): void {
    const agent = this.o.agent(agentId);
    if (agent === undefined) return;
    const entry = this.entry(agent);
    const json = JSON.stringify(entry);
    if (this.#last.get(agentId) === json) return;
    this.#last.set(agentId, json);
    this.o.changed?.(entry);
  }

  entry(a: Agent): TeamAgent {
    const base = blank(a);
    const approval = this.o.pendingApprovals(a.id)[0];
    if (approval !== undefined) {
      const wake = approval.wakeTokens[0] === undefined ? undefined : this.o.store.getWake(approval.wakeTokens[0]);
      const target = wake?.target ?? null;
      return {
        ...base,
        state: 'waiting_approval',
        target,
        title: target,
        since: approval.createdAt,
        wakeToken: wake?.wakeToken ?? null,
        approvalId: approval.id,
      };
    }
    const readiness = a.readiness;
    if (readiness?.state === 'needs_sign_in') return { ...base, state: 'needs_sign_in', reason: readiness.reason };
    if (a.state === 'crashed' || readiness?.state === 'cli_missing' || readiness?.state === 'stopped')
      return { ...base, state: 'failed', reason: readiness?.reason ?? 'cli_exited' };
    const working = this.#working(a.id);
    if (working !== null) return { ...base, state: 'working', ...working };
    return base;
  }

  /** The oldest runtime-visible wake of the agent: the conversation it works on, since it was delivered. */
  #working(agentId: string): Pick<TeamAgent, 'target' | 'title' | 'since' | 'wakeToken'> | null {
    let rows;
    try {
      rows = this.o.lifecycle.pending(agentId);
    } catch {
      return null; // not registered (yet)
    }
    const row = rows.find((r) => r.visible);
    if (row === undefined) return null;
    const known = this.#since.get(agentId);
    if (known?.wakeToken === row.wakeToken) return { ...known, title: known.target };
    const wake = this.o.store.getWake(row.wakeToken);
    const delivered = this.o.store.listWakeEvents(row.wakeToken).find((e) => e.status === 'delivered');
    const target = wake?.target ?? row.targetKey ?? row.target;
    // Kept once the delivery is journaled: what the wake works on and since when no longer change.
    if (delivered !== undefined) this.#since.set(agentId, { wakeToken: row.wakeToken, target, since: delivered.at });
    return {
      target,
      title: target,
      since: delivered?.at ?? wake?.createdAt ?? null,
      wakeToken: row.wakeToken,
    };
  }
}
