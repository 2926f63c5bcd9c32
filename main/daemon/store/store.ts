/**
 * The durable local store (issue 3) on built-in `node:sqlite`: WAL, `synchronous=FULL` (every
 * commit of a message, a terminal status or a marker is on disk before the call returns; a wake's
 * progress and timeline commit with `synchronous=NORMAL` and are on disk with the next FULL
 * commit — durability.ts says why that keeps every promise, issue 19), versioned migrations, one
 * writer per data dir (writer-lock.ts).
 *
 * This facade is the store's one public face. It owns the connection (store-database.ts), the
 * transactions and every rule that spans tables; each table's statements live in tables/.
 * The API is synchronous (DatabaseSync): each public write is one short IMMEDIATE transaction, so
 * a caller that got a return value knows it is committed and visible, and no other write can
 * interleave inside it. Durable is one step later (issue 30, group commit): the FULL commits of an
 * event-loop turn share one WAL fsync on the thread pool (group-commit.ts), and `whenDurable()`
 * resolves after it; whoever answers outside the daemon waits for it (durable-answers.ts).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { randomUUID } from 'node:crypto';
import type { TargetKey } from '../../../shared/target.js';
import { isTerminal } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { wakeEventDurability, type Durability } from './durability.js';
import { GroupCommit, type WalSync } from './group-commit.js';
import { openReadable, openWritable } from './store-database.js';
import { markerIdOfRecoveryMessage, recoveryBatchId, recoveryWakeToken, responseMessageId } from './store-ids.js';
import type {
  ChainRecord,
  AppendMessageInput,
  AppendMessageResult,
  AuditInput,
  AuditRecord,
  ConversationRecord,
  InsertWakeInput,
  ListMessagesOptions,
  ListWakesFilter,
  MemberKind,
  MemberRecord,
  MessageRecord,
  PromptInputInput,
  PromptInputRecord,
  ReactionRecord,
  RecoveryMarkerInput,
  RecoveryMarkerRecord,
  UndeliveredInput,
  UndeliveredRecord,
  WakeEventInput,
  WakeEventKind,
  WakeEventRecord,
  WakeRecord,
} from './store-records.js';
import type { WriterLock } from './writer-lock.js';
import { ApprovalsTable } from './tables/approvals-table.js';
import { GrantsTable } from './tables/grants-table.js';
import { WakeChangesTable } from './tables/wake-changes-table.js';
import { AgentPausesTable } from './tables/agent-pauses-table.js';
import { UsageTable } from './tables/usage-table.js';
import { AgentCursorsTable } from './tables/agent-cursors-table.js';
import { AuditTable } from './tables/audit-table.js';
import { ChainsTable } from './tables/chains-table.js';
import { ChannelStateTable, type StoredChannelBinding } from './tables/channel-state-table.js';
import { ConversationsTable } from './tables/conversations-table.js';
import { MembersTable } from './tables/members-table.js';
import { MessagesTable } from './tables/messages-table.js';
import { MessageSearch, parseSearch, snippetOf, type SnippetPart } from './tables/message-search.js';
import { PromptInputsTable } from './tables/prompt-inputs-table.js';
import { ReactionsTable } from './tables/reactions-table.js';
import { RecoveryMarkersTable } from './tables/recovery-markers-table.js';
import { boundedDetail } from '../diagnostics.js';
import { UndeliveredTable } from './tables/undelivered-table.js';
import { WakeEventsTable } from './tables/wake-events-table.js';
import { WakesTable } from './tables/wakes-table.js';
import { ThreadsQuery, type ThreadRecord } from './tables/threads-query.js';

export { DB_FILE } from './store-database.js';

/** `whenDurable()` when nothing waits for a sync. */
const DURABLE: Promise<void> = Promise.resolve();

/** Event kinds that only make sense while a wake is active. */
const ACTIVE_ONLY_EVENT_KINDS: ReadonlySet<WakeEventKind> = new Set([
  'beacon',
  'escalation',
  'final_check',
  'compaction',
  'wake_up',
]);

/** One page of `searchMessages`: hits newest first; `nextBefore` continues with older ones. */
interface MessageSearchResult {
  readonly hits: ReadonlyArray<{ readonly message: MessageRecord; readonly snippet: SnippetPart[] }>;
  readonly nextBefore: number | null;
}

interface StoreOptions {
  readonly log?: DaemonLog;
  /** Clock for record times; tests inject one. */
  readonly now?: () => Date;
  /**
   * issue 30: how a group commit syncs the WAL (default `fs.fdatasync`, on libuv's thread pool);
   * tests inject a slow or failing one. `false`: no group commit, every FULL commit fsyncs
   * before it returns (the previous behaviour, kept for comparison in benchmarks).
   */
  readonly walSync?: WalSync | false;
}

export class Store {
  private readonly members: MembersTable;
  private readonly conversations: ConversationsTable;
  private readonly messages: MessagesTable;
  private readonly search: MessageSearch;
  private readonly wakes: WakesTable;
  private readonly wakeEvents: WakeEventsTable;
  private readonly promptInputs: PromptInputsTable;
  private readonly undelivered: UndeliveredTable;
  private readonly recoveryMarkers: RecoveryMarkersTable;
  private readonly reactions: ReactionsTable;
  private readonly audit: AuditTable;
  private readonly chains: ChainsTable;
  private readonly cursors: AgentCursorsTable;
  private readonly threads: ThreadsQuery;
  private readonly channelState: ChannelStateTable;
  /** issue 14: the approvals table; its rules (expiry, restart) live in approvals/approval-service.ts. */
  readonly approvals: ApprovalsTable;
  /** issue 29: the "always" rules the daemon granted (approvals/agent-grants.ts applies them). */
  readonly grants: GrantsTable;
  /** issue 26: per wake, its workspace's snapshots and changed files (worktrees/wake-changes.ts writes them). */
  readonly wakeChanges: WakeChangesTable;
  /** issue 27: the agents whose work is paused (a usage limit, a daily budget), surviving a restart. */
  readonly pauses: AgentPausesTable;
  /** issue 27: usage per wake, limit windows, warnings given (usage/usage-service.ts holds the rules). */
  readonly usage: UsageTable;
  private readonly begin: StatementSync;
  private readonly commit: StatementSync;
  private readonly rollback: StatementSync;
  private readonly savepoint: StatementSync;
  private readonly release: StatementSync;
  private readonly rollbackTo: StatementSync;
  private readonly syncNormal: StatementSync;
  private readonly syncFull: StatementSync;
  /** Transactions open on this connection: 0 outside, 1 in `tx`, more in nested batches. */
  private depth = 0;
  /** The class of the open transaction (outside one the connection is always FULL). */
  private durability: Durability = 'full';
  #commits = 0;
  #durableCommits = 0;
  private closed = false;

  private constructor(
    private readonly db: DatabaseSync,
    /** null for a read-only store, which never takes the writer lock. */
    private readonly lock: WriterLock | null,
    private readonly now: () => Date,
    readonly dataDir: string,
    /** issue 30: null when FULL commits sync on their own (read-only, no WAL, or turned off). */
    private readonly group: GroupCommit | null = null,
  ) {
    const iso = () => this.iso();
    this.members = new MembersTable(db);
    const nameOf = (id: string) => this.members.nameOf(id);
    this.conversations = new ConversationsTable(db, iso);
    this.messages = new MessagesTable(db, nameOf);
    this.search = new MessageSearch(db);
    this.wakes = new WakesTable(db);
    this.wakeEvents = new WakeEventsTable(db);
    this.promptInputs = new PromptInputsTable(db);
    this.undelivered = new UndeliveredTable(db);
    this.recoveryMarkers = new RecoveryMarkersTable(db);
    this.reactions = new ReactionsTable(db, nameOf);
    this.audit = new AuditTable(db);
    this.chains = new ChainsTable(db);
    this.cursors = new AgentCursorsTable(db);
    this.threads = new ThreadsQuery(db);
    this.channelState = new ChannelStateTable(db);
    this.approvals = new ApprovalsTable(db);
    this.grants = new GrantsTable(db);
    this.wakeChanges = new WakeChangesTable(db);
    this.pauses = new AgentPausesTable(db);
    this.usage = new UsageTable(db);
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT nested');
    this.release = db.prepare('RELEASE nested');
    this.rollbackTo = db.prepare('ROLLBACK TO nested');
    this.syncNormal = db.prepare('PRAGMA synchronous=NORMAL');
    this.syncFull = db.prepare('PRAGMA synchronous=FULL');
  }

  /**
   * Opens (creating if needed) the store of a data dir and takes its writer lock.
   * @throws StoreLockedError (`store_locked`) when a live process holds the lock;
   *         StoreError (`store_too_new`, `store_unopenable`) when the database cannot be used.
   */
  static open(dataDir: string, options: StoreOptions = {}): Store {
    const now = options.now ?? (() => new Date());
    const { db, lock, walPath } = openWritable(dataDir, now(), options.log);
    const group =
      walPath === null || options.walSync === false
        ? null
        : GroupCommit.open(walPath, {
            ...(options.walSync === undefined ? {} : { sync: options.walSync }),
            onFailure: (err) => options.log?.error('store: a group commit could not be synced', { error: err.message }),
          });
    return new Store(db, lock, now, dataDir, group);
  }

  /**
   * Opens an existing store for reading only, without the writer lock, so tools (e.g. the
   * `agentteam wakes` / `messages` CLI) can read while the daemon runs: WAL lets readers see
   * every committed write without blocking the writer.
   * @throws StoreError `store_missing` (no store yet), `store_outdated` / `store_too_new` (schema
   *         differs: only the writer migrates), `store_unopenable`.
   */
  static openReadOnly(dataDir: string, options: StoreOptions = {}): Store {
    return new Store(openReadable(dataDir), null, options.now ?? (() => new Date()), dataDir);
  }

  /** Closes the database and releases the writer lock; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      // Pending FULL commits are synced (and their waiters answered) before the connection goes.
      this.group?.close();
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }

  /** Write transactions committed since open, in either durability class. */
  get commits(): number {
    return this.#commits;
  }

  /** Of those, the FULL ones (durability.ts): durable once `whenDurable()` resolves. */
  get durableCommits(): number {
    return this.#durableCommits;
  }

  /**
   * WAL fsyncs for the FULL commits: with group commit one per event-loop turn that made any
   * (group-commit.ts), otherwise one per FULL commit.
   */
  get walSyncs(): number {
    return this.group === null ? this.#durableCommits : this.group.syncs;
  }

  /**
   * issue 30 (group commit): resolves once every FULL write made before this call is on disk.
   * A write returns when it is committed and visible; whoever tells someone outside the daemon
   * about a FULL write (an API answer, a push, a tool result, a channel cursor) waits for this
   * first. Already resolved when nothing is waiting; rejects (StoreError `store_sync_failed`)
   * when the sync of those writes failed.
   */
  whenDurable(): Promise<void> {
    return this.group === null ? DURABLE : this.group.whenDurable();
  }

  /** True while a FULL write is committed but not yet known durable. */
  get durabilityPending(): boolean {
    return this.group?.waiting ?? false;
  }

  /** True for a store from `openReadOnly`: every write throws (calling one is a bug). */
  get readOnly(): boolean {
    return this.lock === null;
  }

  // ---------------------------------------------------------------- members & conversations

  upsertMember(m: { id: string; kind: MemberKind; name: string }): void {
    const at = this.iso();
    this.tx(() => this.members.upsert(m, at));
  }

  listMembers(): MemberRecord[] {
    return this.members.list();
  }

  /** The agent members' names by id, from memory (issue 30: read for every message pushed). */
  agentNames(): ReadonlyMap<string, string> {
    return this.members.agentNames();
  }

  /** Creates the conversation of a target (and a thread's parent) if missing; returns it. */
  ensureConversation(target: TargetKey): ConversationRecord {
    this.tx(() => this.conversations.ensure(target));
    return this.getConversation(target) as ConversationRecord;
  }

  getConversation(target: TargetKey): ConversationRecord | undefined {
    return this.conversations.get(target);
  }

  /** Every conversation with its lastSeq, parents before their threads. */
  listConversations(): ConversationRecord[] {
    return this.conversations.list();
  }

  /** Threads under a parent conversation, with reply counts (issue 17). */
  listThreads(parent: TargetKey): ThreadRecord[] {
    return this.threads.under(parent);
  }

  /** Id of the root message a thread short id was derived from (shared/thread-root.ts), if any. */
  threadRootId(parent: TargetKey, shortId: string): string | undefined {
    return this.threads.rootId(parent, shortId);
  }

  // ---------------------------------------------------------------- messages

  /**
   * Stores a message with the next TargetSeq of its target (creating the conversation on first
   * message). With a `responseId` the append is idempotent per author, response and chunk:
   * a repeat stores nothing and answers `already_sent` with the originally stored message.
   */
  appendMessage(m: AppendMessageInput): AppendMessageResult {
    return this.tx(() => this.appendInTx(m));
  }

  /**
   * Atomic admission (issue 16): an operator message and the wakes it causes in ONE transaction,
   * so a crash between them cannot keep the message and lose a wake. `wakesOf` builds the wakes
   * from the stored message (its id and TargetSeq); each is recorded `queued` with its first event.
   */
  admitMessage(
    m: AppendMessageInput,
    wakesOf: (message: MessageRecord) => readonly InsertWakeInput[],
  ): {
    readonly message: MessageRecord;
    readonly wakes: readonly WakeRecord[];
    readonly status: AppendMessageResult['status'];
  } {
    const at = this.iso();
    let message: MessageRecord | undefined;
    let status: AppendMessageResult['status'] = 'sent';
    let wakes: readonly InsertWakeInput[] = [];
    this.tx(() => {
      const appended = this.appendInTx(m);
      message = appended.message;
      status = appended.status;
      // An idempotent input seen before (e.g. a replayed Telegram update): its wakes exist already.
      if (status === 'already_sent') return;
      wakes = wakesOf(message);
      for (const w of wakes) {
        this.conversations.checkTarget(w.target);
        this.wakes.insert(w, at);
        this.wakeEvents.append({
          token: w.wakeToken,
          kind: 'status',
          status: 'queued',
          reason: null,
          detail: null,
          at,
        });
      }
    });
    return {
      message: message as MessageRecord,
      status,
      wakes: wakes.map((w) => this.getWake(w.wakeToken) as WakeRecord),
    };
  }

  private appendInTx(m: AppendMessageInput): AppendMessageResult {
    this.conversations.checkTarget(m.target);
    const chunkIndex = m.responseId === undefined ? null : (m.chunkIndex ?? 0);
    if (chunkIndex !== null && (!Number.isInteger(chunkIndex) || chunkIndex < 0))
      throw new TypeError(`internal: bad chunkIndex ${chunkIndex}`);
    const id =
      m.responseId === undefined ? `msg_${randomUUID()}` : responseMessageId(m.authorId, m.responseId, chunkIndex ?? 0);
    if (m.responseId !== undefined) {
      const existing = this.messages.get(id);
      if (existing !== undefined) return { status: 'already_sent', message: existing };
    }
    this.conversations.ensure(m.target);
    const message = this.messages.insertNext(m, id, chunkIndex, this.iso());
    // issue 16: the inputs this reply covered, durable with the reply itself.
    if (m.authorKind === 'agent' && m.repliedUpToSeq !== undefined && m.repliedUpToSeq > 0)
      this.cursors.replied(m.authorId, m.target, m.repliedUpToSeq);
    return { status: 'sent', message };
  }

  /** The message an author stored for a response chunk, if any (delivery confirmation lookups). */
  getMessageByResponse(authorId: string, responseId: string, chunkIndex = 0): MessageRecord | undefined {
    return this.getMessage(responseMessageId(authorId, responseId, chunkIndex));
  }

  getMessage(id: string): MessageRecord | undefined {
    return this.messages.get(id);
  }

  /** Messages of a target in ascending TargetSeq, within `afterSeq < seq < beforeSeq`. */
  listMessages(target: TargetKey, opts: ListMessagesOptions = {}): MessageRecord[] {
    return this.messages.list(target, opts);
  }

  /**
   * Search across conversations (issue 17; FTS5 trigram index, migration 4): messages holding
   * every term of `text`, newest first, each with a highlighted snippet. Never throws on what a
   * person typed (tables/message-search.ts quotes every term).
   */
  searchMessages(text: string, opts: { limit: number; before?: number }): MessageSearchResult {
    const q = parseSearch(text);
    if (q === null) return { hits: [], nextBefore: null };
    const page = this.search.search(q, opts.limit, opts.before);
    return {
      hits: page.rows.map((row) => {
        const message = this.messages.toMessage(row);
        return { message, snippet: snippetOf(message.content, q.terms) };
      }),
      nextBefore: page.nextBefore,
    };
  }

  /** Highest TargetSeq of a target; 0 when it has no message (or does not exist). */
  lastSeq(target: TargetKey): number {
    return this.messages.lastSeq(target);
  }

  // ---------------------------------------------------------------- wakes

  /** Records a new wake in status `queued` (with its first status event). */
  insertWake(w: InsertWakeInput): WakeRecord {
    this.conversations.checkTarget(w.target);
    const at = this.iso();
    this.tx(() => {
      this.wakes.insert(w, at);
      this.wakeEvents.append({ token: w.wakeToken, kind: 'status', status: 'queued', reason: null, detail: null, at });
    });
    return this.getWake(w.wakeToken) as WakeRecord;
  }

  /**
   * Appends one event to a wake and mirrors it on the wake row, atomically. Refuses (returns
   * false, writes nothing) an unknown wake, and any status change, beacon, escalation or
   * final-check after a terminal status: contract §6.2, at most one terminal status per wake,
   * ever, even if a caller above gets it wrong. `delivery` and `alert` events stay allowed after
   * the end (delivery confirmation may report on a reply after its wake settled).
   */
  appendWakeEvent(e: WakeEventInput): boolean {
    if (e.kind === 'status' && e.status === undefined)
      throw new TypeError('internal: a status wake event needs a status');
    const at = this.iso();
    const detail = e.detail === undefined ? null : boundedDetail(e.detail);
    const reason = e.reason ?? null;
    // issue 19: its class is decided before the transaction opens (the daemon is the only writer).
    const durability = wakeEventDurability(e.kind, e.status, () => {
      const wake = this.wakes.get(e.wakeToken);
      return wake !== undefined && this.cursors.get(wake.agentId, wake.target).repliedUpToSeq >= wake.targetSeq;
    });
    return this.tx(() => {
      const current = this.wakes.statusOf(e.wakeToken);
      if (current === undefined) return false;
      if (isTerminal(current) && (e.status !== undefined || ACTIVE_ONLY_EVENT_KINDS.has(e.kind))) return false;
      if (e.status === 'delivered') {
        // issue 16: SeenUpToSeq survives a restart; it moves with the delivery that made the input visible.
        const wake = this.wakes.get(e.wakeToken) as WakeRecord;
        this.cursors.seen(wake.agentId, wake.target, wake.targetSeq);
      }
      this.wakeEvents.append({ token: e.wakeToken, kind: e.kind, status: e.status ?? null, reason, detail, at });
      this.wakes.mirror({
        token: e.wakeToken,
        hasStatus: e.status !== undefined,
        status: e.status ?? current,
        reason,
        detail,
        beacon: e.kind === 'beacon',
        escalation: e.kind === 'escalation',
        finalCheck: e.kind === 'final_check' || e.status === 'final_check_sent',
        ended: e.status !== undefined && isTerminal(e.status),
        at,
      });
      return true;
    }, durability);
  }

  getWake(wakeToken: string): WakeRecord | undefined {
    return this.wakes.get(wakeToken);
  }

  /** Wakes matching the filter, oldest first by default (the admission order of `queued` wakes). */
  listWakes(filter: ListWakesFilter = {}): WakeRecord[] {
    return this.wakes.list(filter);
  }

  /** SeenUpToSeq (made runtime-visible) and RepliedUpToSeq (covered by a stored reply) of an agent on a target. */
  agentCursor(agentId: string, target: TargetKey): { readonly seenUpToSeq: number; readonly repliedUpToSeq: number } {
    return this.cursors.get(agentId, target);
  }

  /** A wake's events in the order they were appended. */
  listWakeEvents(wakeToken: string): WakeEventRecord[] {
    return this.wakeEvents.ofWake(wakeToken);
  }

  // ---------------------------------------------------------------- trajectory (contract §8.4)

  /** Records one prompt_input entry together with its link to every wake it carried. */
  appendPromptInput(p: PromptInputInput): PromptInputRecord {
    const entry = {
      id: `pi_${randomUUID()}`,
      agentId: p.agentId,
      wakeTokens: [...new Set(p.wakeTokens)],
      kind: p.kind,
      text: p.text,
      at: this.iso(),
    };
    // Trajectory (contract §8.4) of prompts written into a runtime process: NORMAL (durability.ts).
    const seq = this.tx(() => {
      const s = this.promptInputs.insert(entry);
      for (const token of entry.wakeTokens) this.promptInputs.link(token, s);
      return s;
    }, 'normal');
    return { ...entry, seq };
  }

  /**
   * Several prompt_input entries (a compiled delivery's turn context and delivery text) in ONE
   * transaction, in order: one durable commit instead of one per entry (issue 19), and a crash
   * cannot keep the turn context without its delivery.
   */
  appendPromptInputs(inputs: readonly PromptInputInput[]): PromptInputRecord[] {
    return this.tx(() => inputs.map((p) => this.appendPromptInput(p)), 'normal');
  }

  /** The prompt_input entries that carried a wake, in the order they were sent. */
  listPromptInputs(wakeToken: string): PromptInputRecord[] {
    return this.promptInputs.ofWake(wakeToken);
  }

  // ---------------------------------------------------------------- delivery confirmation

  /**
   * Keeps a reply whose delivery finally failed, for re-delivery on the next inbound
   * (watchdog spec B, preserveUndelivered). Saving the same agent+response+chunk again re-arms it.
   */
  saveUndelivered(u: UndeliveredInput): void {
    this.conversations.checkTarget(u.target);
    const at = this.iso();
    this.tx(() => this.undelivered.save(u, at));
  }

  /** Undelivered replies waiting for a target (optionally of one agent), oldest first; marks them taken. */
  takeUndelivered(target: TargetKey, agentId?: string): UndeliveredRecord[] {
    // issue 19: every operator message asks; almost always there is nothing, and then no write
    // transaction is opened (the daemon is the only writer and this runs synchronously).
    if (!this.undelivered.anyOpen(target, agentId)) return [];
    const at = this.iso();
    return this.tx(() => this.undelivered.take(target, agentId, at));
  }

  // ---------------------------------------------------------------- external channels (issue 18)

  /** A channel's durable position in its provider's stream (Telegram: the next update_id), or null. */
  channelCursor(channel: string): number | null {
    return this.channelState.cursor(channel);
  }

  /** Moves a channel's cursor forward (never back: that would replay what was already taken). */
  setChannelCursor(channel: string, position: number): void {
    if (!Number.isSafeInteger(position)) throw new TypeError(`internal: bad cursor ${position}`);
    this.tx(() => this.channelState.setCursor(channel, position, this.iso()));
  }

  /** A channel's bindings added in the Settings page (issue 39: keyed by channel), oldest first. */
  listBindings(channel: string): StoredChannelBinding[] {
    return this.channelState.bindings(channel);
  }

  /** @throws when the chat or the target is bound already on that channel (UNIQUE). */
  addBinding(channel: string, b: { chatId: string; target: TargetKey; allowFrom: readonly (string | number)[] }): void {
    this.tx(() => this.channelState.addBinding(channel, b, this.iso()));
  }

  removeBinding(channel: string, chatId: string): boolean {
    return this.tx(() => this.channelState.removeBinding(channel, chatId));
  }

  // ---------------------------------------------------------------- context recovery (contract §6.6)

  /**
   * Persists one recovery batch: one marker per canonical target keeping the highest unresolved
   * TargetSeq. Marker ids are deterministic (agent, target, frontier), so persisting the same
   * frontier again keeps the one marker. A higher frontier replaces a still-`pending` marker of
   * that target (state `superseded`) but never rewrites one already launched (`replay_pending`):
   * it is stored as a new marker beside it. Returns the markers of this batch, one per target.
   */
  saveRecoveryBatch(
    agentId: string,
    markers: readonly RecoveryMarkerInput[],
    cause: string | null = null,
  ): RecoveryMarkerRecord[] {
    const byTarget = new Map<TargetKey, { frontierSeq: number; wakeTokens: string[] }>();
    for (const m of markers) {
      this.conversations.checkTarget(m.target);
      if (!Number.isInteger(m.frontierSeq) || m.frontierSeq < 0)
        throw new TypeError(`internal: bad frontierSeq ${m.frontierSeq}`);
      const seen = byTarget.get(m.target);
      const tokens = [...(seen?.wakeTokens ?? []), ...(m.wakeTokens ?? [])];
      byTarget.set(m.target, { frontierSeq: Math.max(seen?.frontierSeq ?? 0, m.frontierSeq), wakeTokens: tokens });
    }
    const batchId = recoveryBatchId(
      agentId,
      [...byTarget].map(([t, v]) => [t, v.frontierSeq] as const),
    );
    const at = this.iso();
    return this.tx(() =>
      [...byTarget].map(([target, { frontierSeq, wakeTokens }]) => {
        const saved = this.recoveryMarkers.saveNew(agentId, batchId, target, frontierSeq, wakeTokens, at, cause);
        // `wakes --json` recoveries: the original wakes this continuation covers (same transaction).
        if (saved.inserted || saved.marker.state === 'pending')
          for (const token of new Set(wakeTokens)) this.wakes.recovered(token);
        return saved.marker;
      }),
    );
  }

  getRecoveryMarker(id: string): RecoveryMarkerRecord | undefined {
    return this.recoveryMarkers.get(id);
  }

  /**
   * Launches the oldest pending marker of an agent and records its synthetic recovery wake
   * (`queued`, deterministic token, the marker's synthetic message id) in ONE transaction, so a
   * crash cannot launch a marker without its wake. `wakeOf` builds the wake from the marker.
   */
  launchRecovery(
    agentId: string,
    wakeOf: (marker: RecoveryMarkerRecord) => Omit<InsertWakeInput, 'wakeToken' | 'messageId'>,
  ): { readonly marker: RecoveryMarkerRecord; readonly wake: WakeRecord } | undefined {
    const at = this.iso();
    const launched = this.tx(() => {
      const marker = this.recoveryMarkers.launchOldest(agentId, at);
      if (marker === undefined) return undefined;
      const wakeToken = recoveryWakeToken(marker.id);
      if (this.wakes.statusOf(wakeToken) === undefined) {
        this.wakes.insert({ ...wakeOf(marker), wakeToken, messageId: marker.syntheticMessageId }, at);
        this.wakeEvents.append({ token: wakeToken, kind: 'status', status: 'queued', reason: null, detail: null, at });
      }
      return { marker, wakeToken };
    });
    if (launched === undefined) return undefined;
    return { marker: launched.marker, wake: this.getWake(launched.wakeToken) as WakeRecord };
  }

  /** The oldest `pending` marker of an agent, now `replay_pending`; one per fresh runtime. */
  takeRecoveryMarker(agentId: string): RecoveryMarkerRecord | undefined {
    const at = this.iso();
    return this.tx(() => this.recoveryMarkers.launchOldest(agentId, at));
  }

  /** Settles a launched marker at its process boundary; false if it is not `replay_pending`. */
  settleRecoveryMarker(id: string): boolean {
    const at = this.iso();
    return this.tx(() => this.recoveryMarkers.settle(id, at));
  }

  listRecoveryMarkers(agentId: string): RecoveryMarkerRecord[] {
    return this.recoveryMarkers.ofAgent(agentId);
  }

  /**
   * issue 24 (the inspector): the recovery wake that continues an original wake (`continuedIn`,
   * once launched), and the original wakes a recovery wake continues (`continues`, FIFO order).
   */
  recoveryLinks(wakeToken: string): { readonly continuedIn: string | null; readonly continues: string[] } {
    const wake = this.wakes.get(wakeToken);
    if (wake === undefined) return { continuedIn: null, continues: [] };
    const ownMarker = markerIdOfRecoveryMessage(wake.messageId);
    const continues = ownMarker === null ? [] : (this.recoveryMarkers.get(ownMarker)?.wakeTokens ?? []);
    const covering = this.recoveryMarkers.covering(wake.agentId, wakeToken);
    const next = covering === undefined ? null : recoveryWakeToken(covering.id);
    const continuedIn = next !== null && this.wakes.statusOf(next) !== undefined ? next : null;
    return { continuedIn, continues: [...continues] };
  }

  // ---------------------------------------------------------------- reactions (contract §9.2)

  /** Stores a reaction; `already` when this author had put this emoji on this message before. */
  addReaction(r: {
    readonly messageId: string;
    readonly authorId: string;
    readonly emoji: string;
  }): 'added' | 'already' {
    const at = this.iso();
    return this.tx(() => this.reactions.add(r, at));
  }

  /** Reactions of the given messages, oldest first per message. */
  reactionsOf(messageIds: readonly string[]): Map<string, ReactionRecord[]> {
    return this.reactions.ofMessages(messageIds);
  }

  // ---------------------------------------------------------------- audit (contract §8.3)

  appendAudit(a: AuditInput): void {
    this.conversations.checkTarget(a.target);
    const at = this.iso();
    this.tx(() => this.audit.append(a, at));
  }

  /** Newest first (issue 24: `agentteam audit`); `limit` records at most. */
  listAudit(limit?: number): AuditRecord[] {
    return this.audit.newest(limit);
  }

  /** The audit records of the sends made while this wake was being handled, oldest first. */
  auditOfWake(wakeToken: string): AuditRecord[] {
    return this.audit.ofWake(wakeToken);
  }

  // ---------------------------------------------------------------- chains (issue 25)

  /** A new open chain started by an operator message (nothing when it exists). */
  startChain(id: string, target: TargetKey, budget: number): ChainRecord {
    this.tx(() => this.chains.insert(id, target, budget, this.iso()));
    return this.chains.get(id) as ChainRecord;
  }

  getChain(id: string): ChainRecord | undefined {
    return this.chains.get(id);
  }

  /** Writes a chain's hops, budget, status and held message (the service decides them). */
  saveChain(chain: ChainRecord): ChainRecord {
    this.tx(() => this.chains.save(chain, this.iso()));
    return this.chains.get(chain.id) as ChainRecord;
  }

  /** Newest first. */
  listChains(filter: { readonly target?: TargetKey; readonly pausedOnly?: boolean; readonly limit?: number } = {}) {
    return this.chains.list(filter);
  }

  /** The chain a stored message belongs to. */
  setMessageChain(messageId: string, chainId: string): void {
    this.tx(() => this.messages.setChain(messageId, chainId));
  }

  /**
   * Runs `fn` in ONE transaction: the writes of every call it makes commit together, or none does
   * (it throws, or the process dies before the commit). issue 24: the terminal statuses of the
   * wakes a recovery continues and the recovery's markers (contract §6.6).
   */
  transaction<T>(fn: () => T): T {
    return this.tx(fn);
  }

  // ---------------------------------------------------------------- internals

  /**
   * Runs `fn` in one IMMEDIATE transaction; rolls back and rethrows on error. Called inside
   * another `tx` (a batch such as appendPromptInputs), it joins that transaction under a
   * SAVEPOINT, so an inner failure undoes only its own writes and the outer COMMIT is the one
   * durable commit.
   *
   * `durability` (durability.ts) is set on the connection before BEGIN and put back to FULL after
   * the commit, so an autocommit write outside `tx` is always FULL (synced before it returns). With
   * group commit (issue 30) a FULL transaction commits NORMAL too and is synced with every other
   * FULL commit of this event-loop turn, off the main thread; `whenDurable()` says when. A nested call joins the outer
   * transaction's class; a FULL write inside a NORMAL transaction is a bug (it would not be
   * synced) and throws.
   */
  private tx<T>(fn: () => T, durability: Durability = 'full'): T {
    if (this.depth > 0) {
      if (durability === 'full' && this.durability === 'normal')
        throw new TypeError('internal: a FULL write cannot join a NORMAL transaction');
      return this.nested(fn);
    }
    // issue 30: with group commit every commit here is NORMAL on the connection; a FULL one then
    // joins this turn's WAL sync (group-commit.ts), which makes it exactly a FULL commit on disk.
    const connectionNormal = durability === 'normal' || this.group !== null;
    if (connectionNormal) this.syncNormal.run();
    this.durability = durability;
    try {
      this.begin.run();
      this.depth = 1;
      const result = fn();
      this.commit.run();
      this.#commits += 1;
      if (durability === 'full') {
        this.#durableCommits += 1;
        this.group?.committed();
      }
      this.conversations.committed();
      return result;
    } catch (err) {
      try {
        if (this.db.isTransaction) this.rollback.run();
      } finally {
        this.conversations.rolledBack();
      }
      throw err;
    } finally {
      this.depth = 0;
      this.durability = 'full';
      if (connectionNormal) this.syncFull.run();
    }
  }

  private nested<T>(fn: () => T): T {
    this.savepoint.run();
    this.depth += 1;
    try {
      const result = fn();
      this.release.run();
      return result;
    } catch (err) {
      // Forget uncommitted conversations of the whole batch: a cache miss only costs a lookup.
      this.conversations.rolledBack();
      this.rollbackTo.run();
      this.release.run();
      throw err;
    } finally {
      this.depth -= 1;
    }
  }

  private iso(): string {
    return this.now().toISOString();
  }
}
