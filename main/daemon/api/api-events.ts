/**
 * The daemon's outgoing API events (shared contract `ApiEvent`): the one stream IPC and the serve
 * WebSocket bridge forward.
 *
 * issue 39 "lean data flow": a wake's events go by concern, each built from what its producer
 * already holds, never by re-reading and re-sending the whole wake on every change: `wake.status`
 * from the lifecycle's `wake_status` event, `wake.timeline` the entry just appended, `wake.changes`
 * the changes' state and file count (the review pane reads the patches itself).
 */
import { Subject, type Observable } from 'rxjs';
import type {
  Agent,
  Alert,
  ApiEvent,
  Chain,
  Settings,
  TeamAgent,
  Wake,
  WakeChangesSummary,
} from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import { isTerminal, withTimelineEntry } from '../../../shared/wake-status.js';
import { boundedDetail } from '../diagnostics.js';
import type { WakeStatusEvent } from '../wake/wake-status-event.js';
import type { WakeTimelineEntry } from '../wake/wake-timeline.js';
import { toAgent, toApproval, type AgentMore, toMessage, pausedUntilOf, toWake } from './api-mappers.js';
import type { ApprovalRecord, MessageRecord, ReactionRecord, Store } from '../store/index.js';

export class ApiEvents {
  readonly #events = new Subject<ApiEvent>();
  readonly events$: Observable<ApiEvent> = this.#events.asObservable();

  constructor(
    private readonly store: Store,
    private readonly agentName: (agentId: string) => string,
  ) {}

  /**
   * The wakes not yet terminal, as last pushed: what a status change does not carry (its chain,
   * cause, hop, creation time, beacons) is kept here from the wake's first push to its terminal one,
   * so a status is shown without reading the wake again. Bounded by the wakes in flight.
   */
  readonly #live = new Map<string, Wake>();

  /**
   * A wake's status changed (the lifecycle's `wake_status` event, contract §10.1): `wake.status`.
   * The store is read once per wake, at its first status (`queued`, just stored with its chain
   * fields; or a wake restored by a restart), and for `failed`, whose "continued" mark counts the
   * recovery continuations the recovery service stored beside the lifecycle (§6.6).
   */
  status(e: WakeStatusEvent): void {
    let shown = e.status === 'failed' ? undefined : this.#live.get(e.wakeToken);
    if (shown === undefined) {
      const w = this.store.getWake(e.wakeToken);
      if (w === undefined) return;
      shown = toWake(w, this.agentName(w.agentId));
    }
    const terminal = isTerminal(e.status);
    const wake: Wake = {
      ...shown,
      status: e.status,
      reason: e.reason,
      detail: e.detail,
      finalCheck: shown.finalCheck || e.status === 'final_check_sent',
      endedAt: terminal ? (shown.endedAt ?? e.at) : null,
      // issue 27: while paused, when its agent's stored pause ends.
      pausedUntil: e.status === 'paused' ? pausedUntilOf(this.store, e) : null,
    };
    if (terminal) this.#live.delete(e.wakeToken);
    else this.#live.set(e.wakeToken, wake);
    this.#events.next({ name: 'wake.status', payload: wake });
  }

  /** An entry was appended to a wake's timeline: `wake.timeline` (a beacon or the escalation also counts on its wake). */
  timeline(entry: WakeTimelineEntry, at: string = new Date().toISOString()): void {
    const detail = entry.detail === undefined ? null : boundedDetail(entry.detail);
    const shown = this.#live.get(entry.wakeToken);
    if (shown !== undefined) this.#live.set(entry.wakeToken, withTimelineEntry(shown, entry.kind, at));
    this.#events.next({
      name: 'wake.timeline',
      payload: { wakeToken: entry.wakeToken, kind: entry.kind, status: null, reason: entry.reason ?? null, detail, at },
    });
  }

  /** A wake's changes were recorded (issue 26): `wake.changes`, their state and file count. */
  changes(summary: WakeChangesSummary): void {
    this.#events.next({ name: 'wake.changes', payload: summary });
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

  agent(agent: AgentConfig, state: Agent['state'], more: AgentMore): void {
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
