/**
 * The daemon's composition root (STYLE.md habit 5): every service constructed here, in order,
 * and stopped in reverse. `agentteam serve` and the Electron app both call `createDaemon`.
 *
 * Order matters: the config is validated before anything touches the disk (an invalid
 * agentteam.json changes nothing), then the store takes the writer lock.
 */
import { randomUUID } from 'node:crypto';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { Subject, type Subscription } from 'rxjs';
import { ApiError, type Agent, type Alert, type ApiEvent, type Settings } from '../../shared/api/contract.js';
import {
  ChannelSettingsSchema,
  LOCAL_CHANNEL,
  channelSettings,
  type AgentConfig,
  type ChannelSettings,
  type Config,
} from '../../shared/config.js';
import { targetKey } from '../../shared/target.js';
import { toAgent, toMessage, toWake } from './api/api-mappers.js';
import { createDaemonApi } from './api/daemon-api.js';
import { HookBus } from './bus/hook-bus.js';
import { loadConfig } from './config/load-config.js';
import type { Daemon, DaemonLog, DaemonOptions } from './daemon-types.js';
import { DeliveryTracker } from './delivery/delivery-tracker.js';
import { LocalChannel } from './delivery/local-channel.js';
import type { McpEndpoint } from './mcp/mcp-server.js';
import { startMcpServer } from './mcp/mcp-server.js';
import { createWakeMetrics } from './metrics/wake-metrics.js';
import { finalCheckRenderer } from './prompt/final-check.js';
import { PromptTrajectory } from './prompt/prompt-trajectory.js';
import type { RuntimeAdapter, TurnBoundaryHost } from './runtime/runtime-adapter.js';
import { AgentHost } from './services/agent-host.js';
import { CommunicationService } from './services/communication-service.js';
import { ConversationService, OPERATOR_ID, OPERATOR_NAME } from './services/conversation-service.js';
import { bindSilenceDeliveryMetrics } from './silence-delivery-metrics.js';
import { Store, type MessageRecord, type ReactionRecord } from './store/index.js';
import { WakeLifecycle } from './wake/wake-lifecycle.js';
import { BeaconRouter } from './watchdog/beacon-router.js';
import { silenceWatchdog } from './watchdog/silence-watchdog.js';

/** Per-person settings the UI edits (language, per-channel watchdog and delivery); kept by the composition root. */
export interface SettingsPort {
  load(): Partial<Settings> | undefined;
  save(settings: Settings): void;
}

/** Builds one agent's runtime adapter; the default (`createRuntimeAdapter`) covers claude-code, codex, opencode and demo. */
export type RuntimeFactory = (
  agent: AgentConfig,
  ctx: {
    readonly mcp: McpEndpoint;
    readonly host: TurnBoundaryHost;
    readonly dataDir: string;
    readonly log: DaemonLog;
  },
) =>
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: string; readonly message: string };

export interface DaemonDeps {
  readonly createRuntime: RuntimeFactory;
  readonly settings?: SettingsPort;
}

const quietLog: DaemonLog = { info() {}, warn() {}, error() {}, debug() {} };

/** The first conversation every data dir has. */
export const GENERAL = targetKey('#general');

export async function assembleDaemon(options: DaemonOptions, deps: DaemonDeps): Promise<Daemon> {
  const log = options.log ?? quietLog;
  // 1. Config first: refuse to start on an invalid file, before anything is written.
  const loaded = loadConfig(options.dataDir, { log });
  if (!loaded.ok) throw loaded.error;
  const config: Config = loaded.config;

  // 2. The store (writer lock), members and the first conversation.
  const store = Store.open(options.dataDir, { log });
  const events = new Subject<ApiEvent>();
  const publish = (e: ApiEvent): void => events.next(e);
  const subs: Subscription[] = [];
  const hosts = new Map<string, AgentHost>();
  let mcp: Awaited<ReturnType<typeof startMcpServer>> | null = null;
  let deliveryTracker: DeliveryTracker | null = null;
  let beaconRouter: BeaconRouter | null = null;
  let lifecycle: WakeLifecycle | null = null;
  try {
    store.upsertMember({ id: OPERATOR_ID, kind: 'operator', name: OPERATOR_NAME });
    for (const a of config.agents) store.upsertMember({ id: a.id, kind: 'agent', name: a.name });
    store.ensureConversation(GENERAL);
    for (const a of config.agents) store.ensureConversation(targetKey(`dm:@${a.id}`));

    // 3. Settings: what the person changed in the UI wins over agentteam.json's channel entries.
    const saved = deps.settings?.load();
    let settings: Settings = {
      language: saved?.language ?? 'en',
      channels: {
        [LOCAL_CHANNEL]: channelSettings(config, LOCAL_CHANNEL),
        ...config.channels,
        ...(saved?.channels ?? {}),
      },
    };
    const settingsFor = (channel: string): ChannelSettings =>
      settings.channels[channel] ?? channelSettings(config, channel);

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

    // 5. The wake lifecycle, journaled in the store; final-checks rendered by the prompt compiler.
    const trajectory = new PromptTrajectory(store);
    const agentsById = new Map(config.agents.map((a) => [a.id, a]));
    const wakes = new WakeLifecycle({
      journal: store,
      renderFinalCheck: finalCheckRenderer,
      metrics: wakeMetrics,
      defaultCapacity: config.limits.pendingCapacity,
      log,
    });
    lifecycle = wakes;
    const agentName = (id: string): string => agentsById.get(id)?.name ?? id;
    const publishWake = (wakeToken: string): void => {
      const w = store.getWake(wakeToken);
      if (w !== undefined) publish({ name: 'wake.updated', payload: toWake(w, agentName(w.agentId)) });
    };
    const publishAlert = (alert: Alert): void => {
      if (alert.wakeToken !== null) {
        store.appendWakeEvent({ wakeToken: alert.wakeToken, kind: 'alert', detail: `${alert.kind}: ${alert.message}` });
        publishWake(alert.wakeToken);
      }
      publish({ name: 'alert.raised', payload: alert });
    };
    const onMessageStored = (m: MessageRecord, reactions?: readonly ReactionRecord[]): void =>
      publish({ name: 'message.stored', payload: toMessage(m, reactions) });
    /** The wakes each recent turn carries (bounded: a late retry result of an old turn is simply not shown on a wake). */
    const turnWakes = new Map<string, readonly string[]>();
    const rememberTurn = (turnId: string, wakeTokens: readonly string[]): void => {
      turnWakes.set(turnId, wakeTokens);
      if (turnWakes.size > 256) turnWakes.delete(turnWakes.keys().next().value as string);
    };

    const communication = new CommunicationService({
      store,
      lifecycle: wakes,
      tracker,
      currentTurn: (id) => hosts.get(id)?.turnId ?? null,
      onMessageStored,
      log,
    });
    subs.push(
      wakes.wakeStatus$.subscribe((e) => {
        if (e.status === 'delivered') communication.markSeen(e.agentId, targetKey(e.target), e.targetSeq);
        if (
          e.status === 'completed_without_visible_reply' &&
          e.reason === 'no_reply' &&
          settingsFor(LOCAL_CHANNEL).responseDelivery.alertOnNoResponse
        ) {
          tracker.raiseNoResponseAlert({
            turnId: hosts.get(e.agentId)?.turnId ?? null,
            agentId: e.agentId,
            channel: LOCAL_CHANNEL,
            target: e.target,
            wakeToken: e.wakeToken,
          });
        }
        publishWake(e.wakeToken);
      }),
      // Beacons on the local conversation are status updates on the wakes' chips, never messages.
      beacons.status$.subscribe((b) => {
        // watchdog spec A: a beacon reports the turn's silence, so it goes on every wake the runtime
        // is working on now — those listed at turn.start and those written into the running turn
        // since (a runtime may show a message written mid-turn inside that turn). A wake still
        // waiting for its delivery is not being worked on; an ended wake refuses it (store).
        const carried = [...new Set([...b.wakeTokens, ...wakes.pending(b.agentId).map((r) => r.wakeToken)])];
        const working = carried.filter((wakeToken) => {
          const status = store.getWake(wakeToken)?.status;
          return status === 'delivered' || status === 'final_check_sent';
        });
        const marked = working.filter((wakeToken) =>
          store.appendWakeEvent({ wakeToken, kind: b.kind === 'escalation' ? 'escalation' : 'beacon', detail: b.text }),
        );
        for (const wakeToken of marked) publishWake(wakeToken);
        if (b.kind === 'escalation') {
          publish({
            name: 'alert.raised',
            payload: {
              id: `al_${randomUUID()}`,
              kind: 'escalation',
              target: null,
              wakeToken: marked[0] ?? b.wakeTokens[0] ?? null,
              responseId: null,
              message: b.text,
              at: new Date().toISOString(),
            },
          });
        }
      }),
      tracker.alert$.subscribe((a) =>
        publishAlert({
          id: a.id,
          kind: a.kind,
          target: a.target,
          wakeToken: a.wakeToken,
          responseId: a.responseId,
          message: a.message,
          at: a.at,
        }),
      ),
      bus.turnStart$.subscribe((t) => rememberTurn(t.turnId, t.wakeTokens)),
      // The inspector's timeline shows each delivery attempt's outcome on the wakes it answers (UI.md).
      bus.deliveryResult$.subscribe((r) => {
        if (r.purpose !== 'reply') return;
        for (const wakeToken of turnWakes.get(r.turnId) ?? []) {
          if (store.getWake(wakeToken)?.target !== r.target) continue;
          const chunk = r.chunkCount > 1 ? ` chunk ${r.chunkIndex + 1}/${r.chunkCount}` : '';
          const detail = `${r.state}${chunk} · ${r.attempts} attempt${r.attempts === 1 ? '' : 's'}${r.failure !== null ? ` · ${r.failure}` : ''}${r.redelivered ? ' · re-delivered' : ''}`;
          if (store.appendWakeEvent({ wakeToken, kind: 'delivery', detail })) publishWake(wakeToken);
        }
      }),
    );

    const conversations = new ConversationService({
      store,
      lifecycle: wakes,
      tracker,
      agentIds: () => new Set(agentsById.keys()),
      maxMessageBytes: config.limits.maxMessageBytes,
      onMessageStored,
      log,
    });

    // 6. The agentteam MCP server on 127.0.0.1, one bearer token per agent.
    mcp = await startMcpServer({
      handler: communication,
      limits: { sendsPerMinute: config.limits.sendsPerMinute, maxMessageBytes: config.limits.maxMessageBytes },
      log,
    });

    // 7. One runtime per agent, bound to the lifecycle.
    const agentState = (a: AgentConfig): Agent['state'] => hosts.get(a.id)?.state ?? 'crashed';
    for (const agent of config.agents) {
      wakes.registerAgent({
        agentId: agent.id,
        publicName: agent.id,
        displayName: agent.name,
        runtime: agent.runtime,
        model: agent.model,
        language: agent.language,
      });
      const endpoint = mcp.issueToken(agent.id);
      const host = new AgentHost({
        agent,
        createAdapter: (boundaryHost) =>
          deps.createRuntime(agent, { mcp: endpoint, host: boundaryHost, dataDir: options.dataDir, log }),
        lifecycle: wakes,
        bus,
        store,
        trajectory,
        log,
        onState: () => publish({ name: 'agent.updated', payload: toAgent(agent, agentState(agent)) }),
        onRuntimeDown: (detail) =>
          publish({
            name: 'alert.raised',
            payload: {
              id: `al_${randomUUID()}`,
              kind: 'runtime_crashed',
              target: null,
              wakeToken: null,
              responseId: null,
              message: `${agent.name} stopped: ${detail}`,
              at: new Date().toISOString(),
            },
          }),
        onRecovery: (frontiers) => {
          // contract §6.6: persisted exact targets + frontiers (the store keeps one marker per target).
          store.saveRecoveryBatch(
            agent.id,
            frontiers.map((f) => ({ target: f.target, frontierSeq: f.targetSeq, wakeTokens: [f.wakeToken] })),
          );
        },
      });
      hosts.set(agent.id, host);
      // A daemon restart: wakes left mid-flight end neutrally, queued ones are admitted in order.
      const restored = wakes.restore(agent.id);
      if (restored.ended > 0 || restored.requeued > 0)
        log.info('wakes restored', { agentId: agent.id, ended: restored.ended, requeued: restored.requeued });
      void host.start();
    }

    const api = createDaemonApi({
      store,
      conversations,
      agents: () => config.agents.map((a) => toAgent(a, agentState(a))),
      agentName,
      settings: () => settings,
      updateSettings: (patch) => {
        const channels = { ...settings.channels };
        if (patch.channel !== undefined) {
          if (patch.settings === undefined)
            throw new ApiError('invalid_request', 'settings.update with a channel needs its settings.');
          channels[patch.channel] = ChannelSettingsSchema.parse(patch.settings);
        }
        settings = { language: patch.language ?? settings.language, channels };
        deps.settings?.save(settings);
        return settings;
      },
    });

    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        // Reverse order: runtimes (no orphans), MCP, timers, streams, then the store.
        await Promise.allSettled([...hosts.values()].map((h) => h.stop()));
        await mcp?.close();
        beaconRouter?.stop();
        deliveryTracker?.stop();
        for (const s of subs) s.unsubscribe();
        wakes.dispose();
        bus.complete();
        events.complete();
        store.close();
      })());
    return { api, events$: events.asObservable(), metrics: registry, stop };
  } catch (err) {
    for (const s of subs) s.unsubscribe();
    await Promise.allSettled([...hosts.values()].map((h) => h.stop()));
    await mcp?.close();
    beaconRouter?.stop();
    deliveryTracker?.stop();
    lifecycle?.dispose();
    store.close();
    throw err;
  }
}
