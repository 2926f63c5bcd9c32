/**
 * The daemon's composition root (STYLE.md habit 5): it builds every service, starts them in
 * order and stops them in reverse; the rules live in the modules whose concept they are (wake
 * lifecycle and timeline, agent sessions, alerts, settings). `agentteam serve` and the
 * Electron app both call `createDaemon`.
 *
 * Order matters: a first run seeds agentteam.json, the config is validated before anything
 * else touches the disk (an invalid agentteam.json changes nothing), then the store takes the
 * writer lock.
 */
import { join } from 'node:path';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { Agent } from '../../shared/api/contract.js';
import { LOCAL_CHANNEL, type AgentConfig, type ChannelSettings, type Config } from '../../shared/config.js';
import { targetKey } from '../../shared/target.js';
import { Alerts } from './alerts/alerts.js';
import { ApprovalService } from './approvals/approval-service.js';
import { addAllowRule } from './config/allow-rules.js';
import { toAgent } from './api/api-mappers.js';
import { createDaemonApi } from './api/daemon-api.js';
import { HookBus } from './bus/hook-bus.js';
import { CONFIG_FILE, loadConfig } from './config/load-config.js';
import type { Daemon, DaemonLog, DaemonOptions } from './daemon-types.js';
import { DeliveryTracker } from './delivery/delivery-tracker.js';
import { LocalChannel } from './delivery/local-channel.js';
import { seedFirstRun } from './first-run-config.js';
import { startMcpServer } from './mcp/mcp-server.js';
import { createWakeMetrics } from './metrics/wake-metrics.js';
import { finalCheckRenderer } from './prompt/final-check.js';
import { PromptTrajectory } from './prompt/prompt-trajectory.js';
import { compileThreadContract } from './prompt/thread-contract.js';
import { sendSurfaceFor } from './prompt/tool-names.js';
import { projectRoot } from './project-root.js';
import { createRuntimeAdapter, type RuntimeDeps } from './runtime/runtime-factory.js';
import { AgentSession, type MadeAdapter } from './services/agent-session.js';
import { ApiEvents } from './services/api-events.js';
import { CommunicationService } from './services/communication-service.js';
import { ConversationService, OPERATOR_ID, OPERATOR_NAME } from './services/conversation-service.js';
import { storedPrompts } from './services/stored-prompts.js';
import { DaemonSettings, type SettingsPort } from './settings/daemon-settings.js';
import { bindSilenceDeliveryMetrics } from './silence-delivery-metrics.js';
import { Store } from './store/index.js';
import { WakeLifecycle } from './wake/wake-lifecycle.js';
import { WakeTimeline } from './wake/wake-timeline.js';
import { BeaconRouter } from './watchdog/beacon-router.js';
import { silenceWatchdog } from './watchdog/silence-watchdog.js';

/** Builds one agent's runtime adapter around its session's host; the default is `createRuntimeAdapter`. */
export type RuntimeFactory = (agent: AgentConfig, deps: RuntimeDeps) => MadeAdapter;

export interface CreateDaemonOptions extends DaemonOptions {
  /** Where the UI's settings are kept (electron-store in the app, settings.json in serve); in memory when absent. */
  readonly settings?: SettingsPort;
  /** Replaces `createRuntimeAdapter` (tests of the assembly only). */
  readonly createRuntime?: RuntimeFactory;
}

const quietLog: DaemonLog = { info() {}, warn() {}, error() {}, debug() {} };

/** The first conversation every data dir has. */
export const GENERAL = targetKey('#general');

export async function createDaemon(options: CreateDaemonOptions): Promise<Daemon> {
  const log = options.log ?? quietLog;
  // 0. A first run (no agentteam.json yet) writes the seeded config; an existing file is never rewritten.
  if (seedFirstRun(options.dataDir))
    log.info('first run: wrote the seeded config', { file: join(options.dataDir, CONFIG_FILE) });
  // 1. Config first: refuse to start on an invalid file, before anything is written.
  const loaded = loadConfig(options.dataDir, { log });
  if (!loaded.ok) throw loaded.error;
  const config: Config = loaded.config;
  const createRuntime = options.createRuntime ?? createRuntimeAdapter;

  // 2. The store (writer lock), members and the first conversation.
  const store = Store.open(options.dataDir, { log });
  const agentsById = new Map(config.agents.map((a) => [a.id, a]));
  const agentName = (id: string): string => agentsById.get(id)?.name ?? id;
  const out = new ApiEvents(store, agentName);
  const subs: Subscription[] = [];
  const sessions = new Map<string, AgentSession>();
  let mcp: Awaited<ReturnType<typeof startMcpServer>> | null = null;
  let deliveryTracker: DeliveryTracker | null = null;
  let beaconRouter: BeaconRouter | null = null;
  let lifecycle: WakeLifecycle | null = null;
  let communication: CommunicationService | null = null;
  try {
    store.upsertMember({ id: OPERATOR_ID, kind: 'operator', name: OPERATOR_NAME });
    for (const a of config.agents) store.upsertMember({ id: a.id, kind: 'agent', name: a.name });
    store.ensureConversation(GENERAL);
    for (const a of config.agents) store.ensureConversation(targetKey(`dm:@${a.id}`));

    // 3. Settings: what the person changed in the UI wins over agentteam.json's channel entries.
    const settings = new DaemonSettings(config, options.settings);
    const settingsFor = (channel: string): ChannelSettings => settings.channel(channel);

    // 4. Metrics, bus, watchdog + delivery confirmation on the local channel.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const wakeMetrics = createWakeMetrics(registry);
    const bus = new HookBus();
    // The local channel speaks canonical target text; the store types it as TargetKey.
    const local = new LocalChannel({
      appendMessage: (m) => store.appendMessage({ ...m, target: targetKey(m.target) }),
    });
    // watchdog spec A + B on one bus: the watchdog pipeline (stops when unsubscribed), delivery
    // confirmation, and the beacon router that posts beacons through it.
    const beacon$ = silenceWatchdog({ bus, settingsFor: (c) => settingsFor(c).silenceWatchdog });
    const tracker = (deliveryTracker = new DeliveryTracker({
      bus,
      channelFor: () => local,
      settingsFor: (c) => settingsFor(c).responseDelivery,
      undelivered: store,
    }));
    const beacons = (beaconRouter = new BeaconRouter({
      beacon$,
      channelNamed: (c) => (c === LOCAL_CHANNEL ? local : undefined),
      send: (r) => tracker.send(r),
    }));
    subs.push(bindSilenceDeliveryMetrics(registry, { bus, beacon$, alert$: tracker.alert$ }));

    // 5. The wake lifecycle, journaled in the store; final-checks rendered by the prompt compiler;
    //    the wakes' timeline, the alerts and the agent's side (MCP tools) around it.
    const trajectory = new PromptTrajectory(store);
    const wakes = new WakeLifecycle({
      journal: store,
      renderFinalCheck: finalCheckRenderer,
      metrics: wakeMetrics,
      defaultCapacity: config.limits.pendingCapacity,
      log,
    });
    lifecycle = wakes;
    const timeline = new WakeTimeline({
      journal: store,
      lifecycle: wakes,
      targetOf: (wakeToken) => store.getWake(wakeToken)?.target,
      wakesOfTurn: (agentId, turnId) => sessions.get(agentId)?.wakesOfTurn(turnId) ?? [],
      changed: (wakeToken) => out.wake(wakeToken),
    });
    const alerts = new Alerts({ timeline, raised: (alert) => out.alert(alert) });
    communication = new CommunicationService({
      store,
      lifecycle: wakes,
      tracker,
      currentTurn: (id) => sessions.get(id)?.turnId ?? null,
      onMessageStored: (m, reactions) => out.message(m, reactions),
      log,
    });
    subs.push(
      wakes.wakeStatus$.subscribe((e) => out.wake(e.wakeToken)),
      // Beacons on the local conversation are status updates on the wakes' chips, never messages.
      beacons.status$.subscribe((b) => alerts.beacon(b, timeline.beacon(b))),
      tracker.alert$.subscribe((a) => alerts.delivery(a)),
      // The inspector's timeline shows each delivery attempt's outcome on the wakes it answers (UI.md).
      bus.deliveryResult$.subscribe((r) => timeline.delivery(r)),
    );
    const conversations = new ConversationService({
      store,
      lifecycle: wakes,
      tracker,
      agentIds: () => new Set(agentsById.keys()),
      maxMessageBytes: config.limits.maxMessageBytes,
      onMessageStored: (m) => out.message(m),
      log,
    });

    // 6. The agentteam MCP server on 127.0.0.1, one bearer token per agent.
    mcp = await startMcpServer({
      handler: communication,
      limits: { sendsPerMinute: config.limits.sendsPerMinute, maxMessageBytes: config.limits.maxMessageBytes },
      log,
    });

    // 6b. issue 14: approvals — durable; a restart cancels what the previous daemon left pending.
    const approvals = new ApprovalService({
      table: store.approvals,
      bus,
      policyOf: (id) => agentsById.get(id) ?? { approvalTimeoutSeconds: 900, allow: [] },
      persistRule: (id, rule) => addAllowRule(options.dataDir, id, rule),
      log,
    });
    subs.push(approvals.changes$.subscribe((r) => out.approval(r)));
    const staleApprovals = approvals.cancelStale();
    if (staleApprovals > 0) log.info('approvals cancelled by the restart', { count: staleApprovals });

    // 7. One session per agent: its wakes restored, its runtime built around the session's host and started.
    const root = projectRoot();
    const agentState = (a: AgentConfig): Agent['state'] => sessions.get(a.id)?.state ?? 'crashed';
    for (const agent of config.agents) {
      wakes.registerAgent({
        agentId: agent.id,
        publicName: agent.id,
        displayName: agent.name,
        runtime: agent.runtime,
        model: agent.model,
        language: agent.language,
      });
      const session = new AgentSession({
        agentId: agent.id,
        approvals,
        lifecycle: wakes,
        bus,
        log,
        ports: {
          ...storedPrompts(agent, store, trajectory),
          onState: (state) => out.agent(agent, state),
          onRuntimeDown: (detail) => alerts.runtimeDown(agent.name, detail),
          // contract §6.6: persisted exact targets + frontiers (the store keeps one marker per target).
          onRecovery: (frontiers) =>
            store.saveRecoveryBatch(
              agent.id,
              frontiers.map((f) => ({ target: f.target, frontierSeq: f.targetSeq, wakeTokens: [f.wakeToken] })),
            ),
        },
      });
      sessions.set(agent.id, session);
      // A daemon restart: wakes left mid-flight end neutrally, queued ones are admitted in order.
      const restored = wakes.restore(agent.id);
      if (restored.ended > 0 || restored.requeued > 0)
        log.info('wakes restored', { agentId: agent.id, ended: restored.ended, requeued: restored.requeued });
      const contract = compileThreadContract(agent, sendSurfaceFor(agent.runtime));
      const made = createRuntime(agent, {
        mcp: mcp.issueToken(agent.id),
        host: session.host,
        dataDir: options.dataDir,
        projectRoot: root,
        threadContractFingerprint: contract.fingerprint,
        threadContractText: contract.text,
        log,
      });
      void session.start(made);
    }

    const api = createDaemonApi({
      store,
      conversations,
      agents: () => config.agents.map((a) => toAgent(a, agentState(a), options.dataDir)),
      approvals,
      agentName,
      settings: () => settings.current,
      updateSettings: (patch) => settings.update(patch),
    });

    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        // Reverse order: runtimes (no orphans), MCP, timers, streams, then the store.
        await Promise.allSettled([...sessions.values()].map((s) => s.stop()));
        approvals.dispose();
        await mcp?.close();
        beaconRouter?.stop();
        deliveryTracker?.stop();
        for (const s of subs) s.unsubscribe();
        communication?.dispose();
        wakes.dispose();
        bus.complete();
        out.complete();
        store.close();
      })());
    return { api, events$: out.events$, metrics: registry, stop };
  } catch (err) {
    for (const s of subs) s.unsubscribe();
    await Promise.allSettled([...sessions.values()].map((s) => s.stop()));
    await mcp?.close();
    beaconRouter?.stop();
    deliveryTracker?.stop();
    communication?.dispose();
    lifecycle?.dispose();
    store.close();
    throw err;
  }
}
