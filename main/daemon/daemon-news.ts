/**
 * The root's wiring of news (issue 39: back-edges are events): what one part announces, the parts
 * that show or act on it hear — the page (the API's events, api-events.ts), the channel plug-ins
 * (a usage warning and a chain's change in their chats) and the beacon and delivery counters.
 * The wakes' own statuses reach the page from where its events are made, before any room
 * subscribes, so a wake's status is shown before what it causes.
 */
import type { Registry } from 'prom-client';
import { merge, Subscription, type Observable } from 'rxjs';
import type { Agent, Chain, Settings, TeamAgent, WakeChangesSummary } from '../../shared/api/contract.js';
import type { AgentConfig } from '../../shared/config.js';
import type { Alerts } from './alerts/alerts.js';
import type { ApiEvents } from './api/api-events.js';
import type { AgentMore } from './api/api-mappers.js';
import type { HookBus } from './bus/hook-bus.js';
import type { Channels } from './channels/registry.js';
import type { DeliveryTracker } from './delivery/delivery-tracker.js';
import { bindSilenceDeliveryMetrics } from './silence-delivery-metrics.js';
import type { ApprovalRecord } from './store/index.js';
import type { UsageWarningRaised } from './usage/usage-wiring.js';
import type { Beacon } from './watchdog/silence-beacons.js';

export interface DaemonNews {
  /** The page's events. */
  readonly out: ApiEvents;
  /** The channel plug-ins. */
  readonly external: Pick<Channels, 'beacon$' | 'usageWarning' | 'chainChanged'>;
  readonly alerts: Pick<Alerts, 'usageWarning'>;
  readonly registry: Registry;
  readonly bus: HookBus;
  readonly delivery: { readonly beacon$: Observable<Beacon>; readonly tracker: Pick<DeliveryTracker, 'alert$'> };
  readonly settings: { readonly changed$: Observable<Settings> };
  /** An agent's view changed (the roster's `updated$`). */
  readonly agents: {
    readonly updated$: Observable<{
      readonly agent: AgentConfig;
      readonly state: Agent['state'];
      readonly more: AgentMore;
    }>;
  };
  readonly worktrees: { readonly changed$: Observable<WakeChangesSummary> };
  readonly usage: { readonly changed$: Observable<string>; readonly warning$: Observable<UsageWarningRaised> };
  readonly teams: { readonly chain$: Observable<Chain>; readonly board$: Observable<TeamAgent> };
  readonly approvals: { readonly changes$: Observable<ApprovalRecord> };
}

/** Subscribes every listener; unsubscribe the result to stop (once every part it connects has stopped). */
export function wireNews(n: DaemonNews): Subscription {
  const { out, external } = n;
  const subs = new Subscription();
  subs.add(n.settings.changed$.subscribe((s) => out.settings(s)));
  subs.add(n.agents.updated$.subscribe((u) => out.agent(u.agent, u.state, u.more)));
  subs.add(n.worktrees.changed$.subscribe((summary) => out.changes(summary)));
  subs.add(n.usage.changed$.subscribe((agentId) => out.usage(agentId)));
  // issue 41: a usage warning is an alert (the page) and a notice in the agent's chats.
  subs.add(
    n.usage.warning$.subscribe((w) => external.usageWarning(w.warning.agentId, n.alerts.usageWarning(w), w.warning)),
  );
  subs.add(n.teams.chain$.subscribe((chain) => (out.chain(chain), external.chainChanged(chain))));
  subs.add(n.teams.board$.subscribe((entry) => out.team(entry)));
  subs.add(n.approvals.changes$.subscribe((r) => out.approval(r)));
  subs.add(
    bindSilenceDeliveryMetrics(n.registry, {
      bus: n.bus,
      beacon$: merge(n.delivery.beacon$, external.beacon$),
      alert$: n.delivery.tracker.alert$,
    }),
  );
  return subs;
}
