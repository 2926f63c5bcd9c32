/**
 * The daemon's outgoing API events (shared contract `ApiEvent`), each built from the store's
 * current record: the one stream IPC and the serve WebSocket bridge forward.
 */
import { Subject, type Observable } from 'rxjs';
import type { Agent, Alert, ApiEvent, Chain, Settings, TeamAgent } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import { toAgent, toApproval, toMessage, pausedUntilOf, toWake } from './api-mappers.js';
import type { ApprovalRecord, MessageRecord, ReactionRecord, Store } from '../store/index.js';

export class ApiEvents {
  readonly #events = new Subject<ApiEvent>();
  readonly events$: Observable<ApiEvent> = this.#events.asObservable();

  constructor(
    private readonly store: Store,
    private readonly agentName: (agentId: string) => string,
  ) {}

  /** A wake's status or timeline changed. */
  wake(wakeToken: string): void {
    const w = this.store.getWake(wakeToken);
    if (w !== undefined)
      this.#events.next({
        name: 'wake.updated',
        payload: toWake(w, this.agentName(w.agentId), pausedUntilOf(this.store, w)),
      });
  }

  /** A new message, or (with its reactions) an existing one whose reactions changed. */
  message(m: MessageRecord, reactions?: readonly ReactionRecord[]): void {
    this.#events.next({ name: 'message.stored', payload: toMessage(m, reactions, this.store.agentNames()) });
  }

  /** issue 25: a chain's hops or status changed. */
  chain(chain: Chain): void {
    this.#events.next({ name: 'chain.updated', payload: chain });
  }

  /** issue 25: one agent's Team board entry changed. */
  team(entry: TeamAgent): void {
    this.#events.next({ name: 'team.updated', payload: entry });
  }

  agent(agent: AgentConfig, state: Agent['state'], more: Parameters<typeof toAgent>[2] = {}): void {
    this.#events.next({ name: 'agent.updated', payload: toAgent(agent, state, more) });
  }

  /** issue 14: an approval was asked or settled. */
  approval(r: ApprovalRecord): void {
    this.#events.next({ name: 'approval.updated', payload: toApproval(r, this.agentName(r.agentId)) });
  }

  /** issue 27: the agent's usage, limit windows or budget changed. */
  usage(agentId: string): void {
    this.#events.next({ name: 'usage.updated', payload: { agentId } });
  }

  alert(alert: Alert): void {
    this.#events.next({ name: 'alert.raised', payload: alert });
  }

  /** agentteam.json changed on disk, or an edit of it could not be used (issue 17). */
  settings(settings: Settings): void {
    this.#events.next({ name: 'settings.changed', payload: settings });
  }

  complete(): void {
    this.#events.complete();
  }
}
