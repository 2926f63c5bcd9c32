/**
 * issue 39: the conversation core, wired once — what a wake's status area shows besides its status
 * (the wake timeline and the alerts), the agent's side of the contract (the communication service
 * behind MCP `message_send`), the operator's side (the conversation service behind posts), and
 * recovery (contract §6.6: markers persisted, one recovery wake at a time per agent; one that could
 * not be saved is the alerts' news, heard from the lifecycle's `recoveryLost$`). The root
 * calls `wireMessaging` once; the API's events leave through `out`.
 */
import type { Subscription } from 'rxjs';
import type { Config } from '../../../shared/config.js';
import { Alerts } from '../alerts/alerts.js';
import type { ApiEvents } from '../api/api-events.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ChannelRoutes } from '../delivery/channel-routes.js';
import type { DeliveryTracker } from '../delivery/delivery-tracker.js';
import { PromptTrajectory } from '../prompt/prompt-trajectory.js';
import type { Store } from '../store/index.js';
import type { TeamService } from '../teams/team-service.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import { WakeTimeline } from '../wake/wake-timeline.js';
import type { BeaconRouter } from '../watchdog/beacon-router.js';
import type { AgentRoster } from './agent-roster.js';
import { CommunicationService } from './communication-service.js';
import { ConversationService } from './conversation-service.js';
import { RecoveryService } from './recovery-service.js';

export interface MessagingDeps {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly roster: AgentRoster;
  readonly bus: HookBus;
  readonly delivery: {
    readonly tracker: DeliveryTracker;
    readonly beacons: BeaconRouter;
    readonly routes: ChannelRoutes;
  };
  readonly team: TeamService;
  readonly limits: Config['limits'];
  readonly out: ApiEvents;
  readonly log: DaemonLog;
}

export interface Messaging {
  readonly trajectory: PromptTrajectory;
  readonly timeline: WakeTimeline;
  readonly alerts: Alerts;
  readonly communication: CommunicationService;
  readonly conversations: ConversationService;
  readonly recovery: RecoveryService;
  dispose(): void;
}

export function wireMessaging(d: MessagingDeps): Messaging {
  const { store, lifecycle, roster, out, log } = d;
  const { tracker, beacons, routes } = d.delivery;
  const trajectory = new PromptTrajectory(store);
  const timeline = new WakeTimeline({
    journal: store,
    lifecycle,
    targetOf: (wakeToken) => store.getWake(wakeToken)?.target,
    wakesOfTurn: (agentId, turnId) => roster.wakesOfTurn(agentId, turnId),
    changed: (entry) => out.timeline(entry),
  });
  const alerts = new Alerts({ timeline, raised: (alert) => out.alert(alert), agentName: roster.name, log });
  const communication = new CommunicationService({
    store,
    lifecycle,
    tracker,
    currentTurn: (id) => roster.turnOf(id),
    conversationsPerHour: d.limits.conversationsPerHour,
    team: d.team,
    onMessageStored: (m, reactions) => out.message(m, reactions),
    onTimeline: (entry) => out.timeline(entry),
    // issue 24: a conversation bound to a chat of a channel plug-in is delivered there; else on the local channel.
    deliveryChannelOf: routes.deliveryChannelOf,
    log,
  });
  const runtimeOf = (agentId: string) => roster.runtimeOf(agentId);
  const recovery = new RecoveryService({ store, lifecycle, runtimeOf, log });
  const conversations = new ConversationService({
    store,
    lifecycle,
    tracker,
    agentIds: () => roster.ids(),
    runtimeOf,
    maxMessageBytes: d.limits.maxMessageBytes,
    onMessageStored: (m) => out.message(m),
    chains: d.team,
    log,
  });
  // Beacons on the local conversation are status updates on the wakes' chips, never messages.
  const subs: Subscription = beacons.status$.subscribe((b) => alerts.beacon(b, timeline.beacon(b)));
  subs.add(tracker.alert$.subscribe((a) => alerts.delivery(a)));
  // The inspector's timeline shows each delivery attempt's outcome on the wakes it answers (UI.md).
  subs.add(d.bus.deliveryResult$.subscribe((r) => timeline.delivery(r)));
  // issue 24: a recovery that could not be saved failed its wakes; the operator is told. The alert
  // writes to the same store: one it refuses is logged, never thrown into the lifecycle's stream.
  subs.add(
    lifecycle.recoveryLost$.subscribe((lost) => {
      try {
        alerts.recoveryLost(roster.name(lost.agentId), lost);
      } catch (err) {
        log.error('wake: the alert of a lost recovery could not be raised', {
          agentId: lost.agentId,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }),
  );
  return {
    trajectory,
    timeline,
    alerts,
    communication,
    conversations,
    recovery,
    dispose: () => {
      subs.unsubscribe();
      recovery.dispose();
      communication.dispose();
    },
  };
}
