/**
 * The daemon's composition root (STYLE.md habits 5 and 15): it builds every service and starts
 * them in order; one disposal stack stops them in reverse, so `stop()` and a start that failed
 * half-way are the same path. The rules live in the modules whose concept they are (agent
 * roster, wake lifecycle and timeline, agent sessions, communication, alerts, settings).
 * `agentteam serve` and the Electron app both call `createDaemon`.
 *
 * Order matters: a first run seeds agentteam.json, the config is validated before anything
 * else touches the disk (an invalid agentteam.json changes nothing), then the store takes the
 * writer lock. Stopping runs the runtimes down first (no orphans) and closes the store last.
 */
import { join } from 'node:path';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { map, merge, Subscription } from 'rxjs';
import { LOCAL_CHANNEL, TELEGRAM_CHANNEL, type Config } from '../../shared/config.js';
import { targetKey } from '../../shared/target.js';
import { Alerts } from './alerts/alerts.js';
import { createDaemonApi } from './api/daemon-api.js';
import { AgentGrants } from './approvals/agent-grants.js';
import { ApprovalService } from './approvals/approval-service.js';
import { HookBus } from './bus/hook-bus.js';
import { ConfigSource } from './config/config-source.js';
import { CONFIG_FILE } from './config/load-config.js';
import type { DaemonLog } from './daemon-log.js';
import type { CreateDaemonOptions, Daemon } from './daemon-types.js';
import { securePrivateDir, tightenDataDir } from './data-dir-perms.js';
import { ChannelRoutes } from './delivery/channel-routes.js';
import { DeliveryTracker } from './delivery/delivery-tracker.js';
import { LocalChannel } from './delivery/local-channel.js';
import { seedFirstRun } from './first-run-config.js';
import { startMcpServer } from './mcp/mcp-server.js';
import { createStoreMetrics } from './metrics/store-metrics.js';
import { createWakeMetrics } from './metrics/wake-metrics.js';
import { projectRoot } from './project-root.js';
import { finalCheckRenderer } from './prompt/final-check.js';
import { PromptTrajectory } from './prompt/prompt-trajectory.js';
import { prepareAgentCli } from './runtime/agent-cli-shim.js';
import { probeAgent } from './runtime/readiness.js';
import { createRuntimeAdapter } from './runtime/runtime-factory.js';
import { RuntimePidRegistry } from './runtime/runtime-pids.js';
import { workspaceOf } from './runtime/workspace.js';
import { AgentRoster } from './services/agent-roster.js';
import { WorktreeService, withGitReadiness, worktreesApi } from './worktrees/worktree-service.js';
import { TurnDeadlines } from './services/turn-deadlines.js';
import { guardBudgets } from './usage/budget-guard.js';
import { UsagePauseService } from './usage/usage-pause-service.js';
import { agentRuntimeBuilder } from './services/agent-runtime.js';
import { AgentSession } from './services/agent-session.js';
import { AgentSettings } from './services/agent-settings.js';
import { ApiEvents } from './api/api-events.js';
import { CommunicationService } from './services/communication-service.js';
import { ConversationService, seedConversations } from './services/conversation-service.js';
import { RecoveryService } from './services/recovery-service.js';
import { storedPrompts } from './services/stored-prompts.js';
import { WakeChanges } from './worktrees/wake-changes.js';
import { TeamBoard } from './teams/team-board.js';
import { TeamService } from './teams/team-service.js';
import { deputyCheckOf } from './teams/deputy-check.js';
import { DaemonSettings } from './settings/daemon-settings.js';
import { bindSilenceDeliveryMetrics } from './silence-delivery-metrics.js';
import { Store } from './store/index.js';
import { durableApi, durableTools } from './durable-answers.js';
import { TelegramService } from './telegram/telegram-service.js';
import { WakeLifecycle } from './wake/wake-lifecycle.js';
import { WakeTimeline } from './wake/wake-timeline.js';
import { UsageService } from './usage/usage-service.js';
import { budgetChanges, budgetEdits } from './config/agent-edits.js';
import { createUsageMetrics } from './usage/usage-metrics.js';
import { BeaconRouter } from './watchdog/beacon-router.js';
import { silenceWatchdog } from './watchdog/silence-watchdog.js';

const quietLog: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

export async function createDaemon(options: CreateDaemonOptions): Promise<Daemon> {
  const log = options.log ?? quietLog;
  const { dataDir } = options;
  const person = options.person === undefined ? {} : { person: options.person };
  const root = projectRoot();
  // 0. A first run (no agentteam.json yet) writes the seeded config; an existing file is never rewritten.
  if (seedFirstRun(dataDir)) log.info('first run: wrote the seeded config', { file: join(dataDir, CONFIG_FILE) });
  // 1. Config first: refuse to start on an invalid file, before anything is written. Agents and
  //    limits come from the file as it was at start (a later edit says "restart to apply" in the UI).
  const source = ConfigSource.open(dataDir, log);
  const config: Config = source.initial;
  // issue 16 "Files": the data dir is the owner's alone (0700), before the store writes in it.
  securePrivateDir(dataDir);
  // Everything built from here is disposed by this stack, in reverse order of building.
  const stack = new AsyncDisposableStack();
  stack.defer(() => source.close());
  try {
    // 2. The store (writer lock), members and the first conversation.
    const store = stack.adopt(
      Store.open(dataDir, { log, ...(options.walSync === undefined ? {} : { walSync: options.walSync }) }),
      (s) => s.close(),
    );
    // issue 16 "No orphans": with the writer lock held, runtimes a killed daemon left running are ended.
    const pids = new RuntimePidRegistry(dataDir);
    // What earlier versions or a looser umask left readable (store, WAL/SHM, tokens, runtime dirs) is tightened.
    tightenDataDir(dataDir, { log });
    // issue 14: `agentteam` on every runtime's PATH (agent-cli-shim.ts), refreshed at each start.
    const agentCli = prepareAgentCli(dataDir, options.agentCli, config.agents, log);
    await pids.reap(log);
    seedConversations(store, config.agents);
    // issue 29: the "always" grants are the daemon's (the store); agentteam.json lists them for reading.
    const grants = stack.adopt(new AgentGrants({ table: store.grants, file: source, log }), (g) => g.dispose());
    grants.start();

    // 3. Metrics and the hook bus; 4. the wake lifecycle, journaled in the store; final-checks rendered by the prompt compiler.
    //    The roster and the tracker below are read only once wakes flow, after this function returned.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    createStoreMetrics(registry, store);
    const bus = stack.adopt(new HookBus(), (b) => b.complete());
    // issue 27: usage per wake / per agent per UTC day; the budgets as agentteam.json has them now
    // (a budget applies at once, no restart: Raise budget, or an edit by hand).
    const usageMetrics = createUsageMetrics(registry);
    const usage = new UsageService({
      store,
      now: () => new Date(),
      budgetOf: (agentId) => source.config.agents.find((a) => a.id === agentId)?.budget,
      agentIds: () => config.agents.map((a) => a.id),
      onRecorded: (turnUsage, runtime) => usageMetrics.record(runtime, turnUsage),
      onChanged: (agentId) => out.usage(agentId),
      // Once each, to the operator: the conversation's status line (and the wake's timeline), an OS
      // notification in the app, a notice in a bound Telegram chat.
      onWarning: (warning) => {
        const wakeToken = warning.wakeToken ?? wakes.workingOn(warning.agentId, [])[0] ?? null;
        const target = wakeToken === null ? null : (store.getWake(wakeToken)?.target ?? null);
        const alert = alerts.usageWarning(warning.agentId, warning, { target, wakeToken });
        telegram.usageWarning(warning.agentId, alert, warning);
      },
    });
    const wakes: WakeLifecycle = stack.adopt(
      new WakeLifecycle({
        journal: store,
        renderFinalCheck: finalCheckRenderer((id) => roster.agentToolsOf(id)),
        metrics: createWakeMetrics(registry),
        // contract §9.4 (issue 16): terminal cleanup cancels retry ownership.
        correlation: { release: (wakeToken) => tracker.releaseWake(wakeToken) },
        pendingCapacity: config.limits.pendingCapacity,
        log,
        // issue 24: a recovery that could not be saved fails its wakes; the operator is told.
        onRecoveryLost: (lost) => alerts.recoveryLost(roster.name(lost.agentId), lost),
        // issue 27: a daily budget reached holds the agent's new wakes.
        admissionHold: (agentId) => usagePause.admissionHold(agentId),
      }),
      (w) => w.dispose(),
    );
    // issue 26: isolated agents' git worktrees (git checked once, at start).
    const worktrees: WorktreeService = new WorktreeService({
      dataDir,
      ...(options.privateDirs === undefined ? {} : { privateDirs: options.privateDirs }),
      turnRunning: (id) => (roster.session(id)?.turnId ?? null) !== null,
      agent: (id) => roster.agent(id),
      prepared: (id) => roster.changed(id),
      log,
    });
    // 5. The agents as in agentteam.json and as they run (services/agent-roster.ts), and the API's events.
    const roster: AgentRoster = stack.adopt(
      new AgentRoster({
        agents: config.agents,
        file: source,
        lifecycle: wakes,
        dataDir,
        grants,
        probe: withGitReadiness(
          (a) => probeAgent(a, { dataDir, projectRoot: root, ...person }),
          () => worktrees.git(),
        ),
        worktreeOf: (id) => worktrees.worktreeOf(id),
        applied: () => settings.refresh(),
        log,
      }),
      (r) => r.dispose(),
    );
    const out = stack.adopt(new ApiEvents(store, roster.name), (o) => o.complete());
    // issue 27 "pause, don't fail": usage limits and daily budgets pause an agent's wakes, stored across restarts.
    const usagePause = stack.adopt(
      new UsagePauseService({
        lifecycle: wakes,
        pauses: store.pauses,
        policyOf: (id) => roster.agent(id),
        // the usage service's daily budgets (a test may pass its own port)
        usageBudget: options.usageBudget ?? usage.usageBudget,
        announcedReset: usage.limitResetOf,
        ...(options.pauseScheduler === undefined ? {} : { scheduler: options.pauseScheduler }),
        log,
      }),
      (u) => u.dispose(),
    );

    // 6. Settings (issue 17): agentteam.json is the one source of channel settings, watched while
    //    running (an edit applies from the next turn); the UI writes into it through the daemon.
    const settings = stack.adopt(
      new DaemonSettings({
        source,
        ...(options.settings ? { port: options.settings } : {}),
        // The delivery channels the Settings page edits: local, and Telegram when configured (issue 18).
        channels: [LOCAL_CHANNEL, ...(config.channels.telegram !== undefined ? [TELEGRAM_CHANNEL] : [])],
        log,
        // issue 14: "restart to apply" compares the file with what runs; `allow` applies at once (read per request).
        appliedAgents: () => roster.appliedAgents(),
      }),
      (s) => s.dispose(),
    );
    source.watch();
    const settingsFor = (channel: string) => settings.channel(channel);
    // The wiring's subscriptions end once every service they connect has stopped.
    const subs = stack.adopt(new Subscription(), (s) => s.unsubscribe());
    subs.add(settings.changed$.subscribe((s) => out.settings(s)));
    subs.add(roster.updated$.subscribe((u) => out.agent(u.agent, u.state, u.more)));
    subs.add(grants.changed$.subscribe((agentId) => roster.changed(agentId)));
    // issue 27: a budget edited in agentteam.json applies at once: the surfaces read it again, and
    // wakes waiting on a budget it no longer reaches are released.
    subs.add(
      budgetChanges(config, source.state$.pipe(map(({ loaded }) => loaded.config))).subscribe((agentId) => {
        usage.budgetChanged(agentId);
        usagePause.budgetChanged(agentId);
      }),
    );

    // 7. Watchdog + delivery confirmation (watchdog spec A + B on one bus) and the beacon router that
    //    posts beacons through it. The local channel speaks canonical target text; the store, TargetKey.
    const local = new LocalChannel({
      appendMessage: (m) => store.appendMessage({ ...m, target: targetKey(m.target) }),
    });
    const channels = new ChannelRoutes();
    channels.add({ channel: local, daemonBeacons: true });
    const beacon$ = silenceWatchdog({ bus, settingsFor: (c) => settingsFor(c).silenceWatchdog });
    const tracker = stack.adopt(
      new DeliveryTracker({
        bus,
        channelFor: () => local,
        channelNamed: channels.named,
        settingsFor: (c) => settingsFor(c).responseDelivery,
        undelivered: store,
      }),
      (t) => t.stop(),
    );
    const beacons = stack.adopt(
      new BeaconRouter({ beacon$, channelNamed: channels.beaconChannelNamed, send: (r) => tracker.send(r) }),
      (b) => b.stop(),
    );

    // 8. The wakes' timeline, the alerts and the agent's side (MCP tools) around the lifecycle.
    const trajectory = new PromptTrajectory(store);
    // issue 25: chains of agent-caused wakes within `limits.agentHops`, hand-backs, the operator's Continue.
    const team = new TeamService({
      store,
      lifecycle: wakes,
      agentHops: config.limits.agentHops,
      agentIds: () => roster.ids(),
      runtimeOf: (agentId) => roster.runtimeOf(agentId),
      displayName: roster.name,
      onChainChanged: (chain) => {
        const shown = team.toChain(chain);
        out.chain(shown);
        telegram.chainChanged(shown);
      },
      // issue 41: a mention that would make the woken agent the author's deputy is asked as the author's approval.
      deputyCheck: deputyCheckOf((id) => roster.agent(id), dataDir),
      askOperator: (authorId, ask) =>
        approvals.request(
          { agentId: authorId, runtime: roster.runtimeOf(authorId), turnId: null, wakeTokens: [] },
          ask,
        ),
      log,
    });
    const timeline = new WakeTimeline({
      journal: store,
      lifecycle: wakes,
      targetOf: (wakeToken) => store.getWake(wakeToken)?.target,
      wakesOfTurn: (agentId, turnId) => roster.session(agentId)?.wakesOfTurn(turnId) ?? [],
      changed: (wakeToken) => out.wake(wakeToken),
    });
    const alerts = new Alerts({ timeline, raised: (alert) => out.alert(alert), agentName: roster.name, log });
    const communication = stack.adopt(
      new CommunicationService({
        store,
        lifecycle: wakes,
        tracker,
        currentTurn: (id) => roster.session(id)?.turnId ?? null,
        conversationsPerHour: config.limits.conversationsPerHour,
        team,
        onMessageStored: (m, reactions) => out.message(m, reactions),
        onWakeChanged: (wakeToken) => out.wake(wakeToken),
        // issue 24: a conversation bound to a Telegram chat is delivered there; else on the local channel.
        deliveryChannelOf: (target) => telegram.deliveryChannelOf(target) ?? LOCAL_CHANNEL,
        log,
      }),
      (c) => c.dispose(),
    );
    // contract §6.6 end to end (issue 16): markers persisted, one recovery wake at a time per agent.
    const runtimeOf = (agentId: string) => roster.runtimeOf(agentId);
    const recovery = stack.adopt(new RecoveryService({ store, lifecycle: wakes, runtimeOf, log }), (r) => r.dispose());
    subs.add(wakes.wakeStatus$.subscribe((e) => out.wake(e.wakeToken)));
    // issue 26: the changes of every wake — its workspace snapshotted (git) when delivered and when ended, off the hot path.
    const changes = stack.adopt(
      new WakeChanges({
        // issue 30: its two writes per wake in store transactions, so they join the turn's group
        // commit (an autocommit write syncs on the main thread before it returns).
        table: {
          start: (r) => store.transaction(() => store.wakeChanges.start(r)),
          end: (r) => store.transaction(() => store.wakeChanges.end(r)),
          get: (wakeToken) => store.wakeChanges.get(wakeToken),
        },
        wakeStatus$: wakes.wakeStatus$,
        workspaceOf: (id) => {
          const agent = roster.agent(id);
          return agent === undefined ? undefined : workspaceOf(agent.cwd, dataDir, id);
        },
        worktreeOf: (id) => worktrees.worktreeOf(id),
        changed: (wakeToken) => out.wake(wakeToken),
        log,
      }),
      (c) => c.dispose(),
    );
    changes.start();
    // Beacons on the local conversation are status updates on the wakes' chips, never messages.
    subs.add(beacons.status$.subscribe((b) => alerts.beacon(b, timeline.beacon(b))));
    subs.add(tracker.alert$.subscribe((a) => alerts.delivery(a)));
    // The inspector's timeline shows each delivery attempt's outcome on the wakes it answers (UI.md).
    subs.add(bus.deliveryResult$.subscribe((r) => timeline.delivery(r)));
    const conversations = new ConversationService({
      store,
      lifecycle: wakes,
      tracker,
      agentIds: () => roster.ids(),
      runtimeOf,
      maxMessageBytes: config.limits.maxMessageBytes,
      onMessageStored: (m) => out.message(m),
      chains: team,
      log,
    });

    // 9. The Telegram channel (issue 18): bound conversations' replies, beacons and alerts to
    //    their chats; the operator's messages from the chats into the conversations.
    const telegram = stack.adopt(
      new TelegramService({
        name: TELEGRAM_CHANNEL,
        config: config.channels[TELEGRAM_CHANNEL],
        configFile: join(dataDir, CONFIG_FILE),
        env: options.env ?? process.env,
        store,
        bus,
        tracker,
        settingsFor,
        agentName: roster.name,
        post: (target, content, o) => conversations.post(target, content, o),
        registry,
        log,
        // issue 14 from the phone: approval questions in the app's language, in the chats of the wakes' conversations.
        language: () => settings.current.language,
        wakeOf: (wakeToken) => store.getWake(wakeToken),
        wakeStatus$: wakes.wakeStatus$,
        ...(options.telegram !== undefined ? { tuning: options.telegram } : {}),
      }),
      (t) => t.stop(),
    );
    channels.add({ channel: telegram.channel, daemonBeacons: false });
    subs.add(
      bindSilenceDeliveryMetrics(registry, { bus, beacon$: merge(beacon$, telegram.beacon$), alert$: tracker.alert$ }),
    );
    telegram.start();
    // issue 25 from the phone: a paused chain's Continue button calls the team service's own rule.
    telegram.attachChains(team);

    // 10. The agentteam MCP server on 127.0.0.1, one bearer token per agent.
    const mcp = stack.adopt(
      await startMcpServer({
        // issue 30: a tool result leaves once the reply it reports is durable (group commit).
        handler: durableTools(communication, store),
        limits: { sendsPerMinute: config.limits.sendsPerMinute, maxMessageBytes: config.limits.maxMessageBytes },
        log,
      }),
      (m) => m.close(),
    );
    communication.followToolCalls(mcp.toolCalls$);

    // 11. issue 14: approvals — durable; a restart cancels what the previous daemon left pending.
    const approvals = stack.adopt(
      new ApprovalService({
        table: store.approvals,
        bus,
        // issue 29: the timeout from agentteam.json, the rules only as the daemon granted them (the store).
        policyOf: (id) => ({
          approvalTimeoutSeconds: roster.policyOf(id).approvalTimeoutSeconds,
          allow: grants.rules(id),
        }),
        // `always`: granted in the store, then listed in that agent's `allow` in agentteam.json (for reading).
        persistRule: (id, rule, approvalId) => grants.grant(id, rule, approvalId),
        log,
      }),
      (a) => a.dispose(),
    );
    subs.add(approvals.changes$.subscribe((r) => out.approval(r)));
    // issue 14 from the phone: a bound conversation's approvals are asked (and answerable) in its Telegram chat.
    telegram.attachApprovals(approvals);
    // issue 25: the Team board, read from the roster, the lifecycle and the approvals; live per agent.
    const board = new TeamBoard({
      agents: () => roster.views(),
      agent: (agentId) => roster.view(agentId),
      lifecycle: wakes,
      store,
      pendingApprovals: (agentId) => approvals.pendingOf(agentId),
      changed: (entry) => out.team(entry),
    });
    subs.add(wakes.wakeStatus$.subscribe((e) => board.refresh(e.agentId)));
    subs.add(approvals.changes$.subscribe((r) => board.refresh(r.agentId)));
    subs.add(roster.updated$.subscribe((u) => board.refresh(u.agent.id)));
    const staleApprovals = approvals.cancelStale();
    if (staleApprovals > 0) log.info('approvals cancelled by the restart', { count: staleApprovals });

    // 12. One session per agent: its runtime built around the session's host and started, its wakes restored.
    const buildRuntime = agentRuntimeBuilder({
      createRuntime: options.createRuntime ?? createRuntimeAdapter,
      worktrees,
      issueToken: (agentId) => mcp.issueToken(agentId),
      shared: {
        dataDir,
        projectRoot: root,
        log,
        pids,
        ...person,
        ...(agentCli === undefined ? {} : { agentCli }),
        ...(options.privateDirs === undefined ? {} : { privateDirs: options.privateDirs }),
      },
    });
    stack.defer(() => roster.stop());
    for (const agent of config.agents) {
      const session = new AgentSession({
        agentId: agent.id,
        approvals,
        lifecycle: wakes,
        bus,
        log,
        ports: {
          // issue 25: the turn context lists the other agents of the team, as they are now.
          ...storedPrompts(agent, store, trajectory, () => roster.mates(agent.id)),
          onState: () => roster.changed(agent.id),
          onRestart: (attempt) => roster.restarting(agent.id, attempt),
          onRuntimeDown: (detail) => alerts.runtimeDown(agent.name, detail),
          // issue 24: a native compaction is a continuation: a timeline entry on the wakes, nothing else.
          onContextCompacted: (detail) => timeline.compacted(agent.id, detail),
          // issue 38: why an overflow was not continued by a compaction, on the wakes before they end.
          onOverflowRenewal: (detail) => timeline.renewed(agent.id, detail),
          // issue 27: the runtime's own usage report goes on the wakes of its turn (or those it works on).
          onUsage: (turnUsage, turn) =>
            usage.recordTurn(
              agent.id,
              agent.runtime,
              turn.wakeTokens.length > 0 ? turn.wakeTokens : wakes.workingOn(agent.id, []),
              turnUsage,
              turn.turnId,
            ),
          // The announcing turn's wakes (Codex announces around the turn's end): where a warning is said.
          onLimitWindow: (window, turnWakes) =>
            usage.recordLimitWindow({ ...window, agentId: agent.id }, turnWakes[0] ?? null),
          // contract §6.6: persisted exact targets + frontiers (the store keeps one marker per target).
          onRecovery: (frontiers, cause) => recovery.recover(agent.id, frontiers, cause),
          // issue 24 (§6.6): after an overflow the process is replaced by one in a fresh session.
          renewSession: (detail) => roster.renew(agent.id, detail),
          // issue 27: a turn refused by a usage limit pauses its wakes (or fails them with `onUsageLimit: "fail"`).
          onUsageLimit: (generation, detail) => usagePause.onUsageLimit(agent.id, generation, detail),
        },
      });
      roster.launch(agent.id, session, (a) => buildRuntime(a, session.host));
      usagePause.restore(agent.id, (pause) => recovery.restore(agent.id, pause));
    }
    roster.start();
    // issue 29 "Turns end": each turn's `turnTimeoutMinutes` deadline, and the operator's Stop.
    const turns = stack.adopt(
      new TurnDeadlines({
        bus,
        session: (id) => roster.session(id),
        timeoutMinutesOf: (id) => roster.agent(id)?.turnTimeoutMinutes,
        // A runtime that ignores its own interrupt: its process is replaced, as a crashed one is.
        restart: (id, detail) => {
          const agent = roster.agent(id);
          if (agent !== undefined) roster.restart(agent, { workspaceChanged: false }, detail);
        },
        agentName: roster.name,
        ...(options.turnScheduler === undefined ? {} : { scheduler: options.turnScheduler }),
        log,
      }),
      (t) => t.dispose(),
    );
    turns.start();
    // issue 41: a usage report that reaches the agent's daily budget ends its running turn.
    subs.add(guardBudgets(usage.budgetReached$, turns, log));
    // issue 29 from the phone: the working status of a bound conversation carries Stop.
    telegram.attachStops(turns);

    const api = createDaemonApi({
      store,
      conversations,
      agents: () => roster.views(),
      // issue 14: an agent's workspace / policy chosen in the UI is saved into agentteam.json, then the
      // agent restarts with its file entry; a revoked rule applies at once.
      agentSettings: new AgentSettings({
        source,
        privateDirs: { dataDir, others: options.privateDirs ?? [] },
        grants,
        restart: (agent, change) => roster.restart(agent, change),
      }),
      checkAgents: (agentId) => roster.check(agentId),
      approvals,
      turns,
      changes,
      agentName: roster.name,
      settings: () => settings.current,
      updateSettings: (patch) => settings.update(patch),
      telegram,
      teams: {
        listChains: (filter) => team.listChains(filter),
        continueChain: (request) => team.toChain(team.continueChain(request)),
        board: () => board.board(),
      },
      worktrees: worktreesApi(worktrees),
      usagePause,
      usage: {
        summary: (filter) => usage.summary(filter),
        wake: (wakeToken) => usage.wake(wakeToken),
        // Written into agentteam.json through the one write path; the file's reload releases the waiting wakes.
        raiseBudget: (agentId, budget) => source.write(budgetEdits(agentId, budget)),
      },
    });
    let stopping: Promise<void> | null = null;
    return {
      // issue 30 (group commit): answers leave once the writes they report are durable.
      api: durableApi(api, store),
      // Pushes only show what is stored: they never wait for a sync (durable-answers.ts).
      events$: out.events$,
      metrics: registry,
      limits: { maxMessageBytes: config.limits.maxMessageBytes },
      stop: () => (stopping ??= stack.disposeAsync()),
    };
  } catch (err) {
    // A start that failed half-way: what was built is disposed as by stop(), and the cause is thrown.
    await stack
      .disposeAsync()
      .catch((e: unknown) => log.warn('cleanup after a failed start failed', { error: String(e) }));
    throw err;
  }
}
