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
import { asyncScheduler, Subscription } from 'rxjs';
import { LOCAL_CHANNEL, type Config } from '../../shared/config.js';
import { createDaemonApi } from './api/daemon-api.js';
import { ApiEvents } from './api/api-events.js';
import { AgentGrants } from './approvals/agent-grants.js';
import { ApprovalService } from './approvals/approval-service.js';
import { configuredChannels, createChannels } from './channels/registry.js';
import { HookBus } from './bus/hook-bus.js';
import { SshHosts } from './hosts/ssh-hosts.js';
import { ConfigSource } from './config/config-source.js';
import { CONFIG_FILE } from './config/load-config.js';
import type { DaemonLog } from './daemon-log.js';
import type { CreateDaemonOptions, Daemon } from './daemon-types.js';
import { securePrivateDir, tightenDataDir } from './data-dir-perms.js';
import { durableApi, durableTools } from './durable-answers.js';
import { seedFirstRun } from './first-run-config.js';
import { startMcpServer } from './mcp/mcp-server.js';
import { createStoreMetrics } from './metrics/store-metrics.js';
import { createWakeMetrics } from './metrics/wake-metrics.js';
import { projectRoot } from './project-root.js';
import { finalCheckRenderer } from './prompt/final-check.js';
import { prepareAgentCli } from './runtime/agent-cli-shim.js';
import { agentConfigIssues, installableRuntimes, toolNamingOf } from './runtime/registry.js';
import { createRuntimeAdapter } from './runtime/runtime-factory.js';
import { RuntimePidRegistry } from './runtime/runtime-pids.js';
import { wireRoster } from './services/roster-wiring.js';
import { agentTurns, launchAgentSessions } from './services/agent-sessions.js';
import { AgentSettings } from './services/agent-settings.js';
import { seedConversations } from './services/conversation-service.js';
import { DaemonSettings } from './settings/daemon-settings.js';
import { wireNews } from './daemon-news.js';
import { Store } from './store/index.js';
import { wireTeams } from './teams/team-wiring.js';
import { wireUsage } from './usage/usage-wiring.js';
import { AdmissionHolds } from './wake/admission-holds.js';
import { WakeLifecycle } from './wake/wake-lifecycle.js';
import { wireMessaging } from './services/messaging-wiring.js';
import { wireDelivery } from './watchdog/delivery-wiring.js';
import { agentCosts, wireResources } from './resources/resources-wiring.js';
import { worktreeHome, wireWorktrees } from './worktrees/worktree-wiring.js';

const quietLog: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

export async function createDaemon(options: CreateDaemonOptions): Promise<Daemon> {
  const { dataDir, log = quietLog, privateDirs } = options;
  const person = options.person === undefined ? {} : { person: options.person };
  const root = projectRoot();
  // 0. A first run (no agentteam.json yet) writes the seeded config; an existing file is never rewritten.
  if (seedFirstRun(dataDir)) log.info('first run: wrote the seeded config', { file: join(dataDir, CONFIG_FILE) });
  // 1. Config first: an invalid file refuses the start before any write. Agents and limits are as at start.
  const source = ConfigSource.open(dataDir, log, agentConfigIssues);
  const config: Config = source.initial;
  // issue 16 "Files": the data dir is the owner's alone (0700), before the store writes in it.
  securePrivateDir(dataDir);
  // Everything built from here is disposed by this stack, in reverse order of building.
  const stack = new AsyncDisposableStack();
  stack.defer(() => source.close());
  /** A capability's room (issue 39): wired once, disposed with the rest in reverse order. */
  const room = <R extends { dispose(): void | Promise<void> }>(r: R): R => (stack.defer(() => r.dispose()), r);
  try {
    // 2. The store (writer lock), members and the first conversation.
    const store = stack.adopt(
      Store.open(dataDir, { log, ...(options.walSync === undefined ? {} : { walSync: options.walSync }) }),
      (s) => s.close(),
    );
    // issue 16 "No orphans": with the writer lock held, runtimes a killed daemon left running are ended.
    const pids = new RuntimePidRegistry(dataDir);
    const hosts = stack.adopt(new SshHosts(dataDir, options.ssh), (h) => h.close()); // issue 43: agents over SSH
    // What earlier versions or a looser umask left readable (store, WAL/SHM, tokens, runtime dirs) is tightened.
    tightenDataDir(dataDir, { log });
    // issue 14: `agentteam` on every runtime's PATH (agent-cli-shim.ts), refreshed at each start.
    const agentCli = prepareAgentCli(dataDir, options.agentCli, config.agents, log);
    await pids.reap(log);
    seedConversations(store, config.agents);
    // issue 29: the "always" grants are the daemon's (the store); agentteam.json lists them for reading.
    const grants = stack.adopt(new AgentGrants({ table: store.grants, file: source, log }), (g) => g.dispose());
    grants.start();

    // 3. Metrics, the bus, the one clock; 4. the wake lifecycle, admission held by what rooms add (usage, memory).
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    createStoreMetrics(registry, store);
    const clock = options.clock ?? asyncScheduler;
    const bus = stack.adopt(new HookBus(), (b) => b.complete());
    const holds = new AdmissionHolds();
    const wakes: WakeLifecycle = stack.adopt(
      new WakeLifecycle({
        journal: store,
        renderFinalCheck: finalCheckRenderer(toolNamingOf),
        metrics: createWakeMetrics(registry),
        pendingCapacity: config.limits.pendingCapacity,
        log,
        admissionHold: holds.check,
      }),
      (w) => w.dispose(),
    );
    // 5. The agents as in agentteam.json and as they run, with their readiness (services/roster-wiring.ts),
    //    and the API's events; the core every capability is wired onto (issue 39): each room wired once.
    const base = { dataDir, config, source, store, bus, registry, clock, log, lifecycle: wakes };
    const home = worktreeHome();
    const costs = agentCosts({ pids, clock, procFs: options.procFs }); // issue 42: each agent's memory and CPU
    const roster = room(
      wireRoster({ ...base, ...person, projectRoot: root, grants, hosts, probe: options.probe, home, costs }),
    );
    const out = stack.adopt(new ApiEvents(store, roster.name), (o) => o.complete());
    // The wiring's subscriptions end once every service they connect has stopped.
    const subs = stack.adopt(new Subscription(), (s) => s.unsubscribe());
    subs.add(wakes.wakeStatus$.subscribe((e) => out.status(e)));
    const core = { ...base, out };
    // issue 43: an agent with `host` has its worktree and its wakes' changes on that host.
    const worktrees = room(
      wireWorktrees({ ...core, privateDirs, agents: roster, home, hostGitOf: (agent) => hosts.gitOf(agent) }),
    );
    const usage = room(wireUsage({ ...core, policyOf: (id) => roster.agent(id), usageBudget: options.usageBudget }));
    holds.add(usage.admissionHold);
    const resources = room(wireResources({ ...core, costs, agents: roster, procFs: options.procFs }));
    holds.add(resources.admissionHold);

    // 6. Settings (issue 17): agentteam.json is the one source of channel settings, watched while
    //    running (an edit applies from the next turn); the UI writes into it through the daemon.
    const settings = stack.adopt(
      new DaemonSettings({
        source,
        ...(options.settings ? { port: options.settings } : {}),
        // The delivery channels the Settings page edits: local, and each channel plug-in configured (issue 18, 39).
        channels: [LOCAL_CHANNEL, ...configuredChannels(config)],
        log,
        // issue 14: "restart to apply" compares the file with what runs; `allow` applies at once (read per request).
        appliedAgents: () => roster.appliedAgents(),
        applied$: roster.applied$,
      }),
      (s) => s.dispose(),
    );
    source.watch();
    const settingsFor = (channel: string) => settings.channel(channel);

    // 7. Watchdog + delivery confirmation (watchdog spec A + B on one bus), the beacon router; the
    //    tracker releases a wake's retries at its terminal event (§9.4).
    const delivery = wireDelivery({ ...core, settingsFor });
    stack.defer(() => delivery.stop());

    // 8. Approvals (issue 14), durable; a restart cancels what the previous daemon left pending.
    const approvals = new ApprovalService({
      table: store.approvals,
      bus,
      // issue 29: the timeout from agentteam.json, the rules only as the daemon granted them (the store).
      policyOf: (id) => roster.policyOf(id),
      // `always`: granted in the store, then listed in that agent's `allow` in agentteam.json (for reading).
      persistRule: (id, rule, approvalId) => grants.grant(id, rule, approvalId),
      log,
    });
    // 9. The team (issue 25), the wakes' timeline, the alerts and the agent's side (MCP tools) around the lifecycle.
    const teams = room(wireTeams({ ...core, agents: roster, approvals, agentHops: config.limits.agentHops }));
    const messaging = room(wireMessaging({ ...core, roster, delivery, team: teams.team, limits: config.limits }));
    const { alerts, communication, conversations } = messaging;

    // The turns' deadlines and the operator's Stop (issue 29), on the roster: sessions are launched below.
    const turns = agentTurns({ ...core, roster });

    // 10. The channel plug-ins (issue 18, 39: channels/registry.ts): bound conversations' replies, beacons and
    //     notices to their chats; the operator's messages and buttons (approvals, Continue, Stop) from them.
    const external = stack.adopt(
      createChannels({
        ...core,
        configFile: join(dataDir, CONFIG_FILE),
        env: options.env ?? process.env,
        tracker: delivery.tracker,
        settingsFor,
        agentName: roster.name,
        runtimeWords: roster.runtimeWords,
        post: (target, content, o) => conversations.post(target, content, o),
        // issue 14 from the phone: approval questions in the app's language, in the chats of the wakes' conversations.
        language: () => settings.current.language,
        wakeOf: (wakeToken) => store.getWake(wakeToken),
        pauseOf: (agentId) => store.pauses.get(agentId),
        wakeStatus$: wakes.wakeStatus$,
        operator: { approvals, team: teams.team, turns },
        ...(options.channelTuning === undefined ? {} : { tuning: options.channelTuning }),
      }),
      (c) => c.stop(),
    );
    for (const route of external.routes) delivery.routes.add(route);
    external.start();

    // 11. The agentteam MCP server on 127.0.0.1, one bearer token per agent.
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
    // Approvals stop before the channels that show them: a request the stop cancels is said so in its chat.
    stack.defer(() => approvals.dispose());

    // The wiring: what one part announces, the parts that show or act on it hear (daemon-news.ts).
    const news = { out, external, alerts, registry, bus, delivery, settings, agents: roster, approvals };
    subs.add(wireNews({ ...news, worktrees, usage, teams }));
    approvals.cancelStale();

    // 12. One session per agent: its runtime built around the session's host and started, its wakes
    //     restored. Stopping: the turns' deadlines end first (none fires while the sessions stop).
    stack.defer(() => roster.stop());
    stack.defer(() => turns.dispose());
    launchAgentSessions({
      ...core,
      ...messaging,
      roster,
      approvals,
      usage,
      agents: config.agents,
      runtime: {
        createRuntime: options.createRuntime ?? createRuntimeAdapter,
        worktrees: worktrees.service,
        issueToken: (agentId) => mcp.issueToken(agentId),
        shared: { dataDir, projectRoot: root, log, pids: costs, ...person, agentCli, hosts, privateDirs },
      },
    });
    // issue 41: a usage report that reaches the agent's daily budget ends its running turn.
    subs.add(usage.guard(turns));

    const api = createDaemonApi({
      store,
      conversations,
      agents: () => roster.views(),
      // issue 14: a workspace / policy chosen in the UI is saved, then the agent restarts; a revoked rule applies at once.
      agentSettings: new AgentSettings({
        source,
        privateDirs: { dataDir, others: privateDirs ?? [] },
        grants,
        restart: (agent, change) => roster.restart(agent, change),
      }),
      checkAgents: (agentId) => roster.retry(agentId),
      approvals,
      turns,
      agentName: roster.name,
      installable: installableRuntimes,
      settings: () => settings.current,
      updateSettings: (patch) => settings.update(patch),
      channels: external.api,
      ...worktrees.api,
      ...teams.api,
      ...usage.api,
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
