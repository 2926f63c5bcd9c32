/**
 * Everything the window knows of the daemon, as small external stores (STYLE.md habit 17), and
 * the one feed that keeps them current: the lists asked for at start and after each reconnect,
 * then the API's events, each routed to the store it concerns. Components reach it through one
 * context (state/app-state-context.tsx); the shell keeps only layout and navigation.
 */
import {
  DEFAULT_LIMITS,
  type ApiEvent,
  type ClientApi,
  type Conversation,
  type InstallableRuntime,
  type Limits,
  type Settings,
  type ThreadSummary,
  type Wake,
} from '../../../shared/api/contract.js';
import { threadParent } from '../../../shared/target.js';
import type { Authority, ConnectionState, Watched } from '../api/ws-client.js';
import type { FrameScheduler } from '../conversations/last-seq-batch.js';
import type { MarkerStorage } from '../conversations/read-markers.js';
import { copy } from '../i18n/copy.js';
import { WakeBook } from '../status/wake-store.js';
import { AgentStore } from './agent-store.js';
import { AlertStore } from './alert-store.js';
import { ChainStore } from './chain-store.js';
import { ConversationStore } from './conversation-store.js';
import { MessageStore } from './message-store.js';
import { ReadMarkerStore } from './read-marker-store.js';
import { languageOf, type SettingsStore } from './settings.js';
import { TeamStore } from './team-store.js';
import { ThreadStore } from './thread-store.js';
import { UsageStore } from './usage-store.js';
import { ValueStore } from './value-store.js';

/** The WebSocket transport's connection (the IPC transport has none: it is always open). */
export interface TransportConnection {
  get(): ConnectionState;
  subscribe(listener: (state: ConnectionState) => void): () => void;
}

export interface AppStateOptions {
  readonly connection?: TransportConnection | null;
  /** issue 40 item 1: whether the WebSocket page speaks as the operator (IPC: always). */
  readonly authority?: Watched<Authority> | null;
  /** Where read markers are kept (this browser's localStorage). */
  readonly storage?: MarkerStorage;
  /** When lastSeq bumps are applied: the next animation frame in the window (state/next-frame.ts). */
  readonly frames: FrameScheduler;
}

export class AppState {
  readonly conversations: ConversationStore;
  readonly messages: MessageStore;
  readonly threads: ThreadStore;
  readonly agents = new AgentStore();
  readonly alerts = new AlertStore();
  /** issue 19: wakes live outside React state; each status area subscribes to its own conversation's. */
  readonly wakes = new WakeBook();
  readonly readMarkers: ReadMarkerStore;
  /** issue 25: the chains (a paused one shows in its conversation's status area) and the Team board. */
  readonly chains = new ChainStore();
  readonly team = new TeamStore();
  /** issue 27: usage per agent per day, limit windows and budgets (the Usage view, agent detail). */
  readonly usage: UsageStore;
  readonly settings: SettingsStore = new ValueStore<Settings | null>(null);
  readonly limits = new ValueStore<Limits>(DEFAULT_LIMITS);
  /** issue 39: the coding CLIs a person can install, as the daemon's runtime descriptors offer them (the welcome names them). */
  readonly installable = new ValueStore<readonly InstallableRuntime[]>([]);
  readonly connection: ValueStore<ConnectionState>;
  /** issue 40 item 1: `lost` when a restart took the operator's authority from this page and gave it no way back. */
  readonly authority: ValueStore<Authority>;
  /** The last call that failed, for the error banner (null: none since the last load). */
  readonly lastError = new ValueStore<string | null>(null);
  private readonly focusListeners = new Set<(wake: Wake) => void>();
  private readonly listListeners = new Set<(conversations: readonly Conversation[]) => void>();

  constructor(
    readonly api: ClientApi,
    private readonly options: AppStateOptions,
  ) {
    this.conversations = new ConversationStore(api, options.frames);
    this.messages = new MessageStore(api, (message) => this.lastError.set(message));
    this.threads = new ThreadStore(api);
    this.usage = new UsageStore(api);
    this.readMarkers = new ReadMarkerStore(options.storage);
    this.connection = new ValueStore<ConnectionState>(options.connection?.get() ?? 'open');
    this.authority = new ValueStore<Authority>(options.authority?.get() ?? 'operator');
  }

  /** Starts the feed: events, the connection, the first load. Returns the function that stops it. */
  start(): () => void {
    const offEvents = this.api.events.subscribe((event) => this.route(event));
    const offList = this.conversations.onChange(() => this.listed());
    void this.loadAll();
    const offConnection = this.options.connection?.subscribe((s) => {
      this.connection.set(s);
      if (s === 'open') void this.loadAll();
    });
    const offAuthority = this.options.authority?.subscribe((a) => this.authority.set(a));
    return () => {
      offEvents();
      offList();
      offConnection?.();
      offAuthority?.();
      this.conversations.dispose();
    };
  }

  /** issue 40 item 1: `listener` is called each time the connection opens again after it was lost. */
  readonly onReopened = (listener: () => void): (() => void) => {
    let was = this.connection.value;
    return this.connection.subscribe('value', () => {
      const now = this.connection.value;
      if (now === 'open' && was !== 'open') listener();
      was = now;
    });
  };

  /** The desktop app asks to show a wake (its notification was clicked): `listener` gets it once it is known. */
  onFocusWake(listener: (wake: Wake) => void): () => void {
    this.focusListeners.add(listener);
    return () => this.focusListeners.delete(listener);
  }

  /** `listener` gets the conversations each time they are loaded (at start, after a reconnect). */
  onConversationsLoaded(listener: (conversations: readonly Conversation[]) => void): () => void {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  }

  /** Starts a thread from a message; a failure goes to the error banner. */
  async startThread(messageId: string): Promise<ThreadSummary | null> {
    const r = await this.threads.start(messageId);
    if (r.ok) return r.value;
    this.lastError.set(copy(languageOf(this.settings.value), 'thread.startFailed', { message: r.message }));
    return null;
  }

  /** Saves settings (`settings.update`); resolves with an error message, or null when saved. */
  async saveSettings(update: Parameters<ClientApi['settings']['update']>[0]): Promise<string | null> {
    const r = await this.api.settings.update(update);
    if (!r.ok) return r.message;
    this.settings.set(r.value);
    return null;
  }

  /**
   * issue 25: the operator's Continue of a paused chain (`chains.continue`): another hop budget.
   * Resolves with the daemon's refusal (e.g. the chain was continued elsewhere), or null.
   */
  async continueChain(chainId: string): Promise<string | null> {
    const r = await this.api.chains.continue({ chainId });
    if (!r.ok) return r.message;
    this.chains.apply(r.value);
    return null;
  }

  private async loadAll(): Promise<void> {
    const [c, a, s, w, ch, tb] = await Promise.all([
      this.api.conversations.list({}),
      this.api.agents.list({}),
      this.api.settings.get({}),
      this.api.wakes.list({ limit: 1000 }),
      // issue 25: the paused chains (their status areas offer Continue) and the Team board.
      this.api.chains.list({ pausedOnly: true }),
      this.api.team.board({}),
      // issue 23: the daemon's limits; the schema's defaults stand when it cannot say.
      this.api.limits.get({}).then((r) => r.ok && this.limits.set(r.value)),
      // issue 39: what the welcome names when no coding CLI agent is set up; unsaid, it words none.
      this.api.agents.installable({}).then((r) => r.ok && this.installable.set(r.value)),
    ]);
    // issue 27: the usage summary, fetched when a view shows it (its own store keeps its error; the view says it).
    this.usage.changed();
    if (c.ok) this.conversations.replace(c.value);
    if (a.ok) this.agents.replace(a.value);
    if (s.ok) this.settings.set(s.value);
    if (w.ok) this.wakes.applyAll(w.value);
    if (ch.ok) this.chains.applyAll(ch.value);
    if (tb.ok) this.team.replace(tb.value);
    const failed = [c, a, s, w, ch, tb].find((r) => !r.ok);
    this.lastError.set(failed !== undefined && !failed.ok ? failed.message : null);
    // Messages may have been missed while disconnected: drop cached logs, refetch on view.
    this.messages.reset();
    if (c.ok) for (const l of [...this.listListeners]) l(c.value);
  }

  /** The conversation list changed: read markers adopt it, and the threads of every parent are listed. */
  private listed(): void {
    const list = this.conversations.conversations;
    this.readMarkers.list(list);
    this.threads.want(new Set(list.flatMap((c) => (c.kind === 'thread' && c.parent !== null ? [c.parent] : []))));
  }

  private route(event: ApiEvent): void {
    switch (event.name) {
      case 'message.stored': {
        const m = event.payload;
        this.messages.stored(m);
        this.conversations.stored(m.target, m.seq);
        // A reply in a thread changes its parent's reply counts.
        const parent = threadParent(m.target);
        if (parent !== null) void this.threads.refresh(parent);
        break;
      }
      case 'wake.status':
        this.wakes.apply(event.payload);
        break;
      case 'wake.timeline':
        // issue 39: a beacon, the escalation or a final-check moves its wake's chip; the inspector reads the rest.
        this.wakes.timeline(event.payload);
        break;
      case 'alert.raised':
        this.alerts.raise(event.payload);
        break;
      case 'agent.updated':
        this.agents.upsert(event.payload);
        break;
      case 'chain.updated':
        this.chains.apply(event.payload);
        break;
      case 'team.updated':
        this.team.upsert(event.payload);
        break;
      case 'usage.updated':
        // issue 27: a wake's usage stored, a limit window announced or a budget edited.
        this.usage.changed();
        break;
      case 'settings.changed':
        // agentteam.json changed on disk, or its edit could not be used (issue 17).
        this.settings.set(event.payload);
        break;
      case 'wake.focusRequested':
        // The desktop app's notification was clicked: the shell shows that wake's conversation and inspector.
        void this.api.wakes.inspect({ wakeToken: event.payload.wakeToken }).then((r) => {
          if (!r.ok) return;
          this.wakes.apply(r.value.wake);
          for (const l of [...this.focusListeners]) l(r.value.wake);
        });
        break;
    }
  }
}
