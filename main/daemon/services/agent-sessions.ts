/**
 * issue 39: one session per agent, launched on the roster — its runtime built around the
 * session's host (agent-runtime.ts), its ports wired to the services that answer them, its wakes
 * restored (with the usage pause it was left in). The root calls `launchAgentSessions` once; what
 * each port does is the named service's rule, never a closure of the root's. The turns' deadlines
 * and the operator's Stop (`agentTurns`) are built before, on the roster alone, so what offers a
 * Stop (the channel plug-ins) is built after them with no forward reference (issue 39).
 */
import type { SchedulerLike } from 'rxjs';
import type { Config } from '../../../shared/config.js';
import type { Alerts } from '../alerts/alerts.js';
import type { ApprovalService } from '../approvals/approval-service.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { PromptTrajectory } from '../prompt/prompt-trajectory.js';
import type { Store } from '../store/index.js';
import type { UsageRoom } from '../usage/usage-wiring.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { WakeTimeline } from '../wake/wake-timeline.js';
import { AgentSession } from './agent-session.js';
import { agentRuntimeBuilder, type AgentRuntimeDeps } from './agent-runtime.js';
import type { AgentRoster } from './agent-roster.js';
import type { RecoveryService } from './recovery-service.js';
import { storedPrompts } from './stored-prompts.js';
import { TurnDeadlines } from './turn-deadlines.js';

export interface AgentSessionsDeps {
  readonly agents: Config['agents'];
  readonly roster: AgentRoster;
  readonly lifecycle: WakeLifecycle;
  readonly approvals: ApprovalService;
  readonly bus: HookBus;
  readonly store: Store;
  readonly trajectory: PromptTrajectory;
  readonly timeline: WakeTimeline;
  readonly alerts: Alerts;
  readonly recovery: RecoveryService;
  readonly usage: Pick<UsageRoom, 'sessionPorts' | 'restore'>;
  /** How an agent's runtime is built around its session's host (agent-runtime.ts). */
  readonly runtime: AgentRuntimeDeps;
  /** The daemon's one clock: the turns' deadlines. */
  readonly clock: SchedulerLike;
  readonly log: DaemonLog;
}

/**
 * The turns' deadlines (issue 29 "Turns end": each turn's `turnTimeoutMinutes`, and the operator's
 * Stop), started: they follow the bus and reach each session through the roster, so they need no
 * session launched yet.
 */
export function agentTurns(d: Pick<AgentSessionsDeps, 'roster' | 'bus' | 'clock' | 'log'>): TurnDeadlines {
  const { roster } = d;
  const turns = new TurnDeadlines({
    bus: d.bus,
    session: (id) => roster.session(id),
    timeoutMinutesOf: (id) => roster.agent(id)?.turnTimeoutMinutes,
    // A runtime that ignores its own interrupt: its process is replaced, as a crashed one is.
    restart: (id, detail) => roster.restartReplaced(id, detail),
    agentName: roster.name,
    scheduler: d.clock,
    log: d.log,
  });
  turns.start();
  return turns;
}

/** Launches every agent's session on the roster and starts them. */
export function launchAgentSessions(d: AgentSessionsDeps): void {
  const { roster, lifecycle: wakes } = d;
  const buildRuntime = agentRuntimeBuilder(d.runtime);
  for (const agent of d.agents) {
    const session = new AgentSession({
      agentId: agent.id,
      approvals: d.approvals,
      lifecycle: wakes,
      bus: d.bus,
      log: d.log,
      now: () => d.clock.now(),
      ports: {
        // issue 25: the turn context lists the other agents of the team, as they are now.
        ...storedPrompts(agent, d.store, d.trajectory, () => roster.mates(agent.id)),
        onState: () => roster.changed(agent.id),
        onRestart: (attempt) => roster.restarting(agent.id, attempt),
        // issue 40 item 6: a CLI held back until it is signed in (or installed) is no alert: its
        // readiness says so, neutrally, where the agent is listed.
        onRuntimeDown: (detail) => {
          const reason = roster.session(agent.id)?.down?.reason;
          if (reason !== 'auth_required' && reason !== 'cli_missing') d.alerts.runtimeDown(agent.name, detail);
        },
        // issue 24: a native compaction is a continuation: a timeline entry on the wakes, nothing else.
        onContextCompacted: (detail) => d.timeline.compacted(agent.id, detail),
        // issue 38: why an overflow was not continued by a compaction, on the wakes before they end.
        onOverflowRenewal: (detail) => d.timeline.renewed(agent.id, detail),
        // issue 27: usage reports, limit windows and usage-limit refusals go to the usage room.
        ...d.usage.sessionPorts(agent),
        // issue 42: a sleeping agent woken for a delivery: how long it took, on the delivered wakes.
        onWoke: (ms, wakeTokens) => d.timeline.woke(wakeTokens, ms),
        // contract §6.6: persisted exact targets + frontiers (the store keeps one marker per target).
        onRecovery: (frontiers, cause) => d.recovery.recover(agent.id, frontiers, cause),
        // issue 24 (§6.6): after an overflow the process is replaced by one in a fresh session.
        renewSession: (detail) => roster.renew(agent.id, detail),
      },
    });
    roster.launch(agent.id, session, (a) => buildRuntime(a, session.host));
    d.usage.restore(agent.id, (pause) => d.recovery.restore(agent.id, pause));
  }
  roster.start();
}
