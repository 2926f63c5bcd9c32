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
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { merge, skip, type Subscription } from 'rxjs';
import type { Agent } from '../../shared/api/contract.js';
import {
  LOCAL_CHANNEL,
  TELEGRAM_CHANNEL,
  type AgentConfig,
  type ChannelSettings,
  type Config,
} from '../../shared/config.js';
import { targetKey } from '../../shared/target.js';
import { Alerts } from './alerts/alerts.js';
import { ApprovalService } from './approvals/approval-service.js';
import { addAllowRule } from './config/allow-rules.js';
import { toAgent } from './api/api-mappers.js';
import { createDaemonApi } from './api/daemon-api.js';
import { HookBus } from './bus/hook-bus.js';
import { ConfigSource } from './config/config-source.js';
import { CONFIG_FILE } from './config/load-config.js';
import type { DaemonLog } from './daemon-log.js';
import type { Daemon, DaemonOptions } from './daemon-types.js';
import { DeliveryTracker } from './delivery/delivery-tracker.js';
import { LocalChannel } from './delivery/local-channel.js';
import { seedFirstRun } from './first-run-config.js';
import { TOOL_MESSAGE_SEND } from './mcp/mcp-names.js';
import { startMcpServer } from './mcp/mcp-server.js';
import { createWakeMetrics } from './metrics/wake-metrics.js';
import { finalCheckRendererFor } from './prompt/final-check.js';
import { PromptTrajectory } from './prompt/prompt-trajectory.js';
import { compileThreadContract } from './prompt/thread-contract.js';
import { sendSurfaceFor } from './prompt/tool-names.js';
import { projectRoot } from './project-root.js';
import { createRuntimeAdapter, runtimeDirOf, type RuntimeDeps } from './runtime/runtime-factory.js';
import { workspaceOf } from './runtime/workspace.js';
import { prepareAgentCli } from './runtime/agent-cli-shim.js';
import { fileSessionStore } from './runtime/runtime-session-store.js';
import { AgentSettings } from './services/agent-settings.js';
import { RuntimePidRegistry } from './runtime/runtime-pids.js';
import type { PersonProfile } from './runtime/auth/person-profile.js';
import { probeAgent } from './runtime/readiness.js';
import { DEFAULT_RESTART_POLICY } from './runtime/supervisor.js';
import { AgentReadinessService } from './services/agent-readiness.js';
import { SEND_REFUSAL_CODES, type SendRefusalCode } from '../../shared/wake-status.js';
import { AgentSession, type MadeAdapter } from './services/agent-session.js';
import { ApiEvents } from './api/api-events.js';
import { CommunicationService, ReplyFrontiers } from './services/communication-service.js';
import { ConversationService, OPERATOR_ID, OPERATOR_NAME } from './services/conversation-service.js';
import { RecoveryService } from './services/recovery-service.js';
import { storedPrompts } from './services/stored-prompts.js';
import { securePrivateDir, tightenDataDir } from './data-dir-perms.js';
import { DaemonSettings, type SettingsPort } from './settings/daemon-settings.js';
import { bindSilenceDeliveryMetrics } from './silence-delivery-metrics.js';
import { Store } from './store/index.js';
import { WakeLifecycle } from './wake/wake-lifecycle.js';
import { WakeTimeline } from './wake/wake-timeline.js';
import { BeaconRouter } from './watchdog/beacon-router.js';
import { silenceWatchdog } from './watchdog/silence-watchdog.js';
import { TelegramService, type TelegramTuning } from './telegram/telegram-service.js';

/** Builds one agent's runtime adapter around its session's host; the default is `createRuntimeAdapter`. */
export type RuntimeFactory = (agent: AgentConfig, deps: RuntimeDeps) => MadeAdapter;

export interface CreateDaemonOptions extends DaemonOptions {
  /** Where the UI's settings are kept (electron-store in the app, settings.json in serve); in memory when absent. */
  readonly settings?: SettingsPort;
  /** Replaces `createRuntimeAdapter` (tests of the assembly only). */
  readonly createRuntime?: RuntimeFactory;
  /** issue 15: whose CLI sign-in agents with `auth: "cli-login"` reuse (default: this process's user). */
  readonly person?: PersonProfile;
  /** Telegram channel timing (tests make it small); the defaults suit the real Bot API. */
  readonly telegram?: TelegramTuning;
  /** Where `botTokenEnv` is read; `process.env` when absent. */
  readonly env?: NodeJS.ProcessEnv;
}

const quietLog: DaemonLog = { info() {}, warn() {}, error() {}, debug() {} };

/** The wake lifecycle's profile of an agent. */
const agentProfile = (agent: AgentConfig) => ({
  agentId: agent.id,
  publicName: agent.id,
  displayName: agent.name,
  runtime: agent.runtime,
  model: agent.model,
  language: agent.language,
});

/** The first conversation every data dir has. */
export const GENERAL = targetKey('#general');

export async function createDaemon(options: CreateDaemonOptions): Promise<Daemon> {
  const log = options.log ?? quietLog;
  // 0. A first run (no agentteam.json yet) writes the seeded config; an existing file is never rewritten.
  if (seedFirstRun(options.dataDir))
    log.info('first run: wrote the seeded config', { file: join(options.dataDir, CONFIG_FILE) });
  // 1. Config first: refuse to start on an invalid file, before anything is written. Agents and
  //    limits come from the file as it was at start (a later edit says "restart to apply" in the UI).
  const source = ConfigSource.open(options.dataDir, log);
  const config: Config = source.initial;
  const createRuntime = options.createRuntime ?? createRuntimeAdapter;
  // issue 16 "Files": the data dir is the owner's alone (0700), before the store writes in it.
  securePrivateDir(options.dataDir);

  // 2. The store (writer lock), members and the first conversation.
  const store = Store.open(options.dataDir, { log });
  // issue 16 "No orphans": with the writer lock held, runtimes a killed daemon left running are ended.
  const pids = new RuntimePidRegistry(options.dataDir);
  // What earlier versions or a looser umask left readable (store, WAL/SHM, tokens, runtime dirs) is tightened.
  tightenDataDir(options.dataDir, { log });
  // issue 14: `agentteam` on every runtime's PATH (agent-cli-shim.ts), refreshed at each start.
  const agentCli = prepareAgentCli(options.dataDir, options.agentCli, config.agents, log);
  // The agents as they run: their entries at start, or the file's entry after a restart from the
  // agent detail (issue 14: a workspace or policy chosen in the UI restarts that agent with it).
  const agentsById = new Map(config.agents.map((a) => [a.id, a]));
  const applied = (a: AgentConfig): AgentConfig => agentsById.get(a.id) ?? a;
  const liveAgents = [...config.agents];
  const agentName = (id: string): string => agentsById.get(id)?.name ?? id;
  const out = new ApiEvents(store, agentName);
  const subs: Subscription[] = [];
  const sessions = new Map<string, AgentSession>();
  let mcp: Awaited<ReturnType<typeof startMcpServer>> | null = null;
  let deliveryTracker: DeliveryTracker | null = null;
  let beaconRouter: BeaconRouter | null = null;
  let lifecycle: WakeLifecycle | null = null;
  let communication: CommunicationService | null = null;
  let recovery: RecoveryService | null = null;
  let telegram: TelegramService | null = null;
  try {
    await pids.reap(log);
    store.upsertMember({ id: OPERATOR_ID, kind: 'operator', name: OPERATOR_NAME });
    for (const a of config.agents) store.upsertMember({ id: a.id, kind: 'agent', name: a.name });
    store.ensureConversation(GENERAL);
    for (const a of config.agents) store.ensureConversation(targetKey(`dm:@${a.id}`));

    // 3. Settings (issue 17): agentteam.json is the one source of channel settings, watched while
    //    running (an edit applies from the next turn); the UI writes into it through the daemon.
    const settings = new DaemonSettings({
      source,
      ...(options.settings ? { port: options.settings } : {}),
      // The delivery channels the Settings page edits: local, and Telegram when configured (issue 18).
      channels: [LOCAL_CHANNEL, ...(config.channels.telegram !== undefined ? ['telegram'] : [])],
      log,
      // issue 14: "restart to apply" compares the file with what runs; `allow` applies at once (read per request).
      appliedAgents: () =>
        liveAgents.map((a) => ({ ...a, allow: source.config.agents.find((f) => f.id === a.id)?.allow ?? a.allow })),
    });
    source.watch();
    subs.push(settings.changed$.subscribe((s) => out.settings(s)));
    const settingsFor = (channel: string): ChannelSettings => settings.channel(channel);

    // 4. Metrics, bus, watchdog + delivery confirmation on the local channel.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    // issue 19: durable commits (fsyncs) of the store, so a benchmark can count them per wake.
    new Counter({
      name: 'store_commits_total',
      help: 'Store write transactions committed (either durability class)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(store.commits);
      },
    });
    // issue 19: of those, the ones synced before returning (synchronous=FULL; store/durability.ts).
    new Counter({
      name: 'store_durable_commits_total',
      help: 'Store write transactions committed with synchronous=FULL (one WAL fsync each)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(store.durableCommits);
      },
    });
    const wakeMetrics = createWakeMetrics(registry);
    const bus = new HookBus();
    // issue 16: a reply's SeenUpToSeq is stored with the reply itself (same transaction).
    const replyFrontiers = new ReplyFrontiers();
    // The local channel speaks canonical target text; the store types it as TargetKey.
    const local = new LocalChannel({
      appendMessage: (m) => {
        const repliedUpToSeq = replyFrontiers.get(m.responseId);
        return store.appendMessage({
          ...m,
          target: targetKey(m.target),
          ...(repliedUpToSeq === undefined ? {} : { repliedUpToSeq }),
        });
      },
    });
    // watchdog spec A + B on one bus: the watchdog pipeline (stops when unsubscribed), delivery
    // confirmation, and the beacon router that posts beacons through it.
    const beacon$ = silenceWatchdog({ bus, settingsFor: (c) => settingsFor(c).silenceWatchdog });
    const tracker = (deliveryTracker = new DeliveryTracker({
      bus,
      channelFor: () => local,
      // issue 18: a bound conversation's replies also go to its Telegram chat, on that channel.
      channelNamed: (c) => (c === TELEGRAM_CHANNEL ? telegram?.channel : c === LOCAL_CHANNEL ? local : undefined),
      settingsFor: (c) => settingsFor(c).responseDelivery,
      undelivered: store,
    }));
    const beacons = (beaconRouter = new BeaconRouter({
      beacon$,
      channelNamed: (c) => (c === LOCAL_CHANNEL ? local : undefined),
      send: (r) => tracker.send(r),
    }));

    // 5. The wake lifecycle, journaled in the store; final-checks rendered by the prompt compiler;
    //    the wakes' timeline, the alerts and the agent's side (MCP tools) around it.
    const trajectory = new PromptTrajectory(store);
    const wakes = new WakeLifecycle({
      journal: store,
      renderFinalCheck: finalCheckRendererFor((id) => agentsById.get(id)?.agentTools ?? 'mcp'),
      metrics: wakeMetrics,
      // contract §9.4 (issue 16): terminal cleanup cancels retry ownership. The sessions' turn → wakes
      // map stays: it only attributes later delivery results to the wake's timeline (a reply mirrored to
      // Telegram is confirmed after the wake ended), and a stale turn event can recreate no row.
      correlation: { release: (wakeToken) => tracker.releaseWake(wakeToken) },
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
      seenCursor: (agentId, target) => store.agentCursor(agentId, target).seenUpToSeq,
      replyFrontiers,
      log,
    });
    // contract §6.6 end to end (issue 16): markers persisted, one recovery wake at a time per agent.
    const runtimeOf = (agentId: string) => agentsById.get(agentId)?.runtime ?? 'demo';
    recovery = new RecoveryService({ store, lifecycle: wakes, runtimeOf, log });
    const recoveries = recovery;
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
      runtimeOf,
      maxMessageBytes: config.limits.maxMessageBytes,
      onMessageStored: (m) => out.message(m),
      log,
    });

    // 5b. The Telegram channel (issue 18): bound conversations' replies, beacons and alerts to
    //     their chats; the operator's messages from the chats into the conversations.
    telegram = new TelegramService({
      name: TELEGRAM_CHANNEL,
      config: config.channels[TELEGRAM_CHANNEL],
      configFile: join(options.dataDir, CONFIG_FILE),
      env: options.env ?? process.env,
      store,
      bus,
      tracker,
      settingsFor,
      agentName,
      post: (target, content, o) => conversations.post(target, content, o),
      registry,
      log,
      // issue 14 from the phone: approval questions in the app's language, in the chats of the wakes' conversations.
      language: () => settings.current.language,
      wakeTarget: (wakeToken) => store.getWake(wakeToken)?.target,
      ...(options.telegram !== undefined ? { tuning: options.telegram } : {}),
    });
    subs.push(
      bindSilenceDeliveryMetrics(registry, { bus, beacon$: merge(beacon$, telegram.beacon$), alert$: tracker.alert$ }),
    );
    telegram.start();

    // 6. The agentteam MCP server on 127.0.0.1, one bearer token per agent.
    mcp = await startMcpServer({
      handler: communication,
      limits: { sendsPerMinute: config.limits.sendsPerMinute, maxMessageBytes: config.limits.maxMessageBytes },
      log,
    });

    // 6b. issue 14: approvals — durable; a restart cancels what the previous daemon left pending.
    const currentAgent = (id: string): AgentConfig | undefined =>
      source.config.agents.find((a) => a.id === id) ?? agentsById.get(id);
    const approvals = new ApprovalService({
      table: store.approvals,
      bus,
      // The rules as agentteam.json has them now (issue 17: it is watched), so a rule deleted by hand stops answering.
      policyOf: (id) => currentAgent(id) ?? { approvalTimeoutSeconds: 900, allow: [] },
      // `always`: a minimal, validated rewrite of that agent's `allow` through the config source.
      persistRule: (id, rule) => addAllowRule(source, id, rule),
      log,
    });
    subs.push(approvals.changes$.subscribe((r) => out.approval(r)));
    // issue 14 from the phone: a bound conversation's approvals are asked (and answerable) in its Telegram chat.
    telegram.attachApprovals(approvals);
    const staleApprovals = approvals.cancelStale();
    if (staleApprovals > 0) log.info('approvals cancelled by the restart', { count: staleApprovals });

    // 7. One session per agent: its wakes restored, its runtime built around the session's host and started.
    const root = projectRoot();
    const mcpServer = mcp;
    const buildRuntime = (agent: AgentConfig, session: AgentSession): MadeAdapter => {
      const contract = compileThreadContract(agent, sendSurfaceFor(agent.runtime, agent.agentTools));
      return createRuntime(agent, {
        mcp: mcpServer.issueToken(agent.id),
        ...(agentCli === undefined ? {} : { agentCli }),
        host: session.host,
        dataDir: options.dataDir,
        projectRoot: root,
        threadContractFingerprint: contract.fingerprint,
        threadContractText: contract.text,
        log,
        pids,
        ...(options.person === undefined ? {} : { person: options.person }),
      });
    };
    const agentState = (a: AgentConfig): Agent['state'] => sessions.get(a.id)?.state ?? 'crashed';
    // issue 15: readiness per agent (CLI, version, sign-in), checked at start and on demand.
    const readiness = new AgentReadinessService({
      agents: liveAgents,
      probe: (a) =>
        probeAgent(a, {
          dataDir: options.dataDir,
          projectRoot: root,
          ...(options.person === undefined ? {} : { person: options.person }),
        }),
      restartCap: DEFAULT_RESTART_POLICY.maxRestarts,
      changed: (a) => out.agent(applied(a), agentState(a), agentMore(applied(a))),
    });
    const agentMore = (a: AgentConfig) => ({
      readiness: readiness.readiness(a, agentState(a)),
      cwd: workspaceOf(a.cwd, options.dataDir, a.id),
      auth: a.auth,
      // issue 14: the "always" rules as the file has them now (added by an answer or removed by hand).
      allow: currentAgent(a.id)?.allow ?? a.allow,
    });
    // A changed agentteam.json may have changed an agent's rules: the rows and details show the file.
    subs.push(
      source.state$.pipe(skip(1)).subscribe(() => {
        for (const a of liveAgents) out.agent(a, agentState(a), agentMore(a));
      }),
    );
    for (const agent of config.agents) {
      wakes.registerAgent(agentProfile(agent));
      const session = new AgentSession({
        agentId: agent.id,
        approvals,
        lifecycle: wakes,
        bus,
        log,
        ports: {
          ...storedPrompts(agent, store, trajectory),
          onState: (state) => out.agent(applied(agent), state, agentMore(applied(agent))),
          onRestart: (attempt) => readiness.restart(agent, attempt),
          onRuntimeDown: (detail) => alerts.runtimeDown(agent.name, detail),
          // contract §6.6: persisted exact targets + frontiers (the store keeps one marker per target).
          onRecovery: (frontiers, cause) => recoveries.recover(agent.id, frontiers, cause),
        },
      });
      sessions.set(agent.id, session);
      // The session follows the lifecycle's deliveries before anything is admitted (start subscribes synchronously).
      void session.start(buildRuntime(agent, session));
      // A daemon restart (issue 16): in-flight wakes are recovered (one recovery wake per target,
      // launched before the still-queued wakes re-enter the FIFO in their stored order).
      const restored = wakes.restore(agent.id, (frontiers) =>
        recoveries.recover(agent.id, frontiers, 'daemon_restarted'),
      );
      if (restored.ended > 0 || restored.requeued > 0)
        log.info('wakes restored', {
          agentId: agent.id,
          ended: restored.ended,
          requeued: restored.requeued,
          recovered: restored.recovery.length,
        });
    }
    void readiness.check();
    // issue 14: an agent's workspace / policy chosen in the UI is saved into agentteam.json, then the
    // agent restarts with its file entry (restartAgent); a revoked rule applies at once.
    const restarts = new Map<string, Promise<unknown>>();
    const restartAgent = (agent: AgentConfig, change: { readonly workspaceChanged: boolean }): void => {
      const session = sessions.get(agent.id);
      const index = liveAgents.findIndex((a) => a.id === agent.id);
      if (session === undefined || index < 0) return;
      agentsById.set(agent.id, agent);
      liveAgents[index] = agent;
      wakes.registerAgent(agentProfile(agent));
      settings.refresh();
      log.info('agent restarting with its configuration from agentteam.json', {
        agentId: agent.id,
        cwd: workspaceOf(agent.cwd, options.dataDir, agent.id),
        permissions: agent.permissions,
      });
      const detail = 'the agent was restarted to apply its new workspace or permissions';
      const next = (restarts.get(agent.id) ?? Promise.resolve())
        .then(() =>
          session.replace(() => {
            // A new workspace is a new project: once the old process is gone, its stored session is
            // forgotten, so the new one starts fresh (never resumed into another folder).
            if (change.workspaceChanged)
              fileSessionStore(join(runtimeDirOf(options.dataDir, agent.id), 'session.json')).clear();
            return buildRuntime(agent, session);
          }, detail),
        )
        // Not part of the chain: a later restart must not wait for a probe (wakes would reach the old process).
        .then(() => void readiness.check(agent.id));
      restarts.set(
        agent.id,
        next.catch(() => undefined),
      );
    };
    const agentSettings = new AgentSettings({ source, restart: restartAgent });
    // issue 15: our own refusals of an agent's message_send are recorded on the wakes it is handling.
    subs.push(
      mcp.toolCalls$.subscribe((c) => {
        if (c.tool !== TOOL_MESSAGE_SEND || !(SEND_REFUSAL_CODES as readonly string[]).includes(c.outcome)) return;
        const code = c.outcome as SendRefusalCode;
        for (const token of wakes.onSendRefused(c.agentId, code, `the agent's ${TOOL_MESSAGE_SEND} was refused`))
          out.wake(token);
      }),
    );

    const api = createDaemonApi({
      store,
      conversations,
      agents: () => liveAgents.map((a) => toAgent(a, agentState(a), agentMore(a))),
      agentSettings,
      checkAgents: (agentId) => readiness.check(agentId),
      approvals,
      agentName,
      settings: () => settings.current,
      updateSettings: (patch) => settings.update(patch),
      telegram,
    });

    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        // Reverse order: runtimes (no orphans), MCP, timers, streams, then the store.
        await Promise.allSettled([...sessions.values()].map((s) => s.stop()));
        approvals.dispose();
        await mcp?.close();
        telegram?.stop();
        beaconRouter?.stop();
        deliveryTracker?.stop();
        for (const s of subs) s.unsubscribe();
        settings.dispose();
        source.close();
        communication?.dispose();
        recovery?.dispose();
        wakes.dispose();
        bus.complete();
        out.complete();
        store.close();
      })());
    return {
      api,
      events$: out.events$,
      metrics: registry,
      limits: { maxMessageBytes: config.limits.maxMessageBytes },
      stop,
    };
  } catch (err) {
    for (const s of subs) s.unsubscribe();
    source.close();
    await Promise.allSettled([...sessions.values()].map((s) => s.stop()));
    await mcp?.close();
    telegram?.stop();
    beaconRouter?.stop();
    deliveryTracker?.stop();
    communication?.dispose();
    recovery?.dispose();
    lifecycle?.dispose();
    store.close();
    throw err;
  }
}
