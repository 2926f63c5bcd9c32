/**
 * The durable local store (issue 3) on built-in `node:sqlite`: WAL, `synchronous=FULL` (every
 * commit of a message, wake event or marker is on disk before the call returns), versioned
 * migrations, one writer per data dir (writer-lock.ts).
 *
 * The API is synchronous (DatabaseSync): each public write is one short transaction, so a caller
 * that got a return value knows it is durable, and no other write can interleave inside it.
 */
import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from 'node:sqlite';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatTarget, parentOf, parseTarget, type TargetKey } from '../../../shared/target.js';
import { isTerminal, type RuntimeKind, type WakeStatus } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-types.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { StoreError } from './store-errors.js';
import { WriterLock } from './writer-lock.js';
import type {
  AppendMessageInput,
  AppendMessageResult,
  AuditInput,
  ReactionRecord,
  AuditKind,
  AuditRecord,
  ConversationKind,
  ConversationRecord,
  DeliveryClass,
  InsertWakeInput,
  ListMessagesOptions,
  ListWakesFilter,
  MemberKind,
  MemberRecord,
  MessageRecord,
  PromptInputInput,
  PromptInputKind,
  PromptInputRecord,
  RecoveryMarkerInput,
  RecoveryMarkerRecord,
  RecoveryMarkerState,
  UndeliveredInput,
  UndeliveredRecord,
  WakeEventInput,
  WakeEventKind,
  WakeEventRecord,
  WakeRecord,
} from './store-records.js';

export const DB_FILE = 'agentteam.db';
/** Longest wake `detail` / event `detail` kept (contract §6.5: bounded diagnostics). */
export const WAKE_DETAIL_MAX = 2000;
/** Most original wake tokens a recovery marker keeps (contract §6.6: bounded wake identity). */
export const RECOVERY_WAKE_TOKENS_MAX = 32;
const DEFAULT_LIST_LIMIT = 200;
/** Event kinds that only make sense while a wake is active. */
const ACTIVE_ONLY_EVENT_KINDS: ReadonlySet<WakeEventKind> = new Set(['beacon', 'escalation', 'final_check']);

export interface StoreOptions {
  readonly log?: DaemonLog;
  /** Clock for record times; tests inject one. */
  readonly now?: () => Date;
}

type Row = Record<string, SQLOutputValue>;

export class Store {
  private readonly stmts: ReturnType<typeof prepareStatements>;
  /** Conversations known to exist (single writer: only this process creates them). */
  private readonly knownConversations = new Set<string>();
  private readonly memberNames = new Map<string, string>();
  private readonly listWakeStmts = new Map<string, StatementSync>();
  private closed = false;

  private constructor(
    private readonly db: DatabaseSync,
    /** null for a read-only store, which never takes the writer lock. */
    private readonly lock: WriterLock | null,
    private readonly now: () => Date,
    readonly dataDir: string,
  ) {
    this.stmts = prepareStatements(db);
    for (const row of this.stmts.allMembers.all()) this.memberNames.set(String(row.id), String(row.name));
  }

  /**
   * Opens (creating if needed) the store of a data dir and takes its writer lock.
   * @throws StoreLockedError (`store_locked`) when a live process holds the lock;
   *         StoreError (`store_too_new`, `store_unopenable`) when the database cannot be used.
   */
  static open(dataDir: string, options: StoreOptions = {}): Store {
    const now = options.now ?? (() => new Date());
    mkdirSync(dataDir, { recursive: true });
    const lock = WriterLock.acquire(dataDir, now());
    const path = join(dataDir, DB_FILE);
    let db: DatabaseSync | null = null;
    try {
      db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5000 });
      const mode = db.prepare('PRAGMA journal_mode=WAL').get()?.journal_mode;
      if (mode !== 'wal')
        options.log?.warn('store: WAL is not available on this file system; using rollback journal', { path, mode });
      // Issue 3: synchronous=FULL for messages and wake events (and everything else: one connection).
      db.exec('PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;');
      migrate(db, path, options.log);
      return new Store(db, lock, now, dataDir);
    } catch (err) {
      db?.close();
      lock.release();
      if (err instanceof StoreError) throw err;
      throw new StoreError(
        'store_unopenable',
        `Cannot open the store ${path}: ${(err as Error).message}. Move the file aside to start with an empty store.`,
      );
    }
  }

  /** Closes the database and releases the writer lock; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }

  /** True for a store from `openReadOnly`: every write throws (calling one is a bug). */
  get readOnly(): boolean {
    return this.lock === null;
  }

  /**
   * Opens an existing store for reading only, without the writer lock, so tools (e.g. the
   * `agentteam wakes` / `messages` CLI) can read while the daemon runs: WAL lets readers see
   * every committed write without blocking the writer.
   * @throws StoreError `store_missing` (no store yet), `store_outdated` / `store_too_new` (schema
   *         differs: only the writer migrates), `store_unopenable`.
   */
  static openReadOnly(dataDir: string, options: StoreOptions = {}): Store {
    const path = join(dataDir, DB_FILE);
    if (!existsSync(path))
      throw new StoreError(
        'store_missing',
        `There is no store at ${path} yet; start AgentTeam with --data-dir ${dataDir} first.`,
      );
    let db: DatabaseSync | null = null;
    try {
      db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
      const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
      if (version < SCHEMA_VERSION)
        throw new StoreError(
          'store_outdated',
          `The store ${path} has schema version ${version}, older than this AgentTeam (${SCHEMA_VERSION}); start the daemon once to migrate it.`,
        );
      if (version > SCHEMA_VERSION)
        throw new StoreError(
          'store_too_new',
          `The store ${path} has schema version ${version}, newer than this AgentTeam (${SCHEMA_VERSION}); update AgentTeam.`,
        );
      return new Store(db, null, options.now ?? (() => new Date()), dataDir);
    } catch (err) {
      db?.close();
      if (err instanceof StoreError) throw err;
      throw new StoreError('store_unopenable', `Cannot read the store ${path}: ${(err as Error).message}.`);
    }
  }

  // ---------------------------------------------------------------- members & conversations

  upsertMember(m: { id: string; kind: MemberKind; name: string }): void {
    const at = this.iso();
    this.stmts.upsertMember.run({ id: m.id, kind: m.kind, name: m.name, at });
    this.memberNames.set(m.id, m.name);
  }

  getMember(id: string): MemberRecord | undefined {
    const row = this.stmts.getMember.get({ id });
    return row === undefined ? undefined : toMember(row);
  }

  listMembers(): MemberRecord[] {
    return this.stmts.allMembers.all().map(toMember);
  }

  /** Creates the conversation of a target (and a thread's parent) if missing; returns it. */
  ensureConversation(target: TargetKey): ConversationRecord {
    this.tx(() => this.ensureConversationInTx(target));
    return this.getConversation(target) as ConversationRecord;
  }

  getConversation(target: TargetKey): ConversationRecord | undefined {
    const row = this.stmts.getConversation.get({ target });
    return row === undefined ? undefined : toConversation(row);
  }

  /** Every conversation with its lastSeq, parents before their threads. */
  listConversations(): ConversationRecord[] {
    return this.stmts.allConversations.all().map(toConversation);
  }

  // ---------------------------------------------------------------- messages

  /**
   * Stores a message with the next TargetSeq of its target (creating the conversation on first
   * message). With a `responseId` the append is idempotent per author, response and chunk:
   * a repeat stores nothing and answers `already_sent` with the originally stored message.
   */
  appendMessage(m: AppendMessageInput): AppendMessageResult {
    this.checkTarget(m.target);
    const chunkIndex = m.responseId === undefined ? null : (m.chunkIndex ?? 0);
    if (chunkIndex !== null && (!Number.isInteger(chunkIndex) || chunkIndex < 0))
      throw new TypeError(`internal: bad chunkIndex ${chunkIndex}`);
    const id =
      m.responseId === undefined ? `msg_${randomUUID()}` : responseMessageId(m.authorId, m.responseId, chunkIndex ?? 0);
    return this.tx(() => {
      if (m.responseId !== undefined) {
        const existing = this.stmts.getMessage.get({ id });
        if (existing !== undefined) return { status: 'already_sent', message: this.toMessage(existing) };
      }
      this.ensureConversationInTx(m.target);
      const seq = Number(this.stmts.nextSeq.get({ target: m.target })?.seq);
      const message: MessageRecord = {
        id,
        target: m.target,
        seq,
        authorId: m.authorId,
        authorName: this.memberNames.get(m.authorId) ?? m.authorId,
        authorKind: m.authorKind,
        content: m.content,
        createdAt: this.iso(),
        responseId: m.responseId ?? null,
        chunkIndex,
        redelivered: m.redelivered ?? false,
      };
      this.stmts.insertMessage.run({
        id: message.id,
        target: message.target,
        seq,
        authorId: message.authorId,
        authorKind: message.authorKind,
        content: message.content,
        createdAt: message.createdAt,
        responseId: message.responseId,
        chunkIndex,
        redelivered: message.redelivered ? 1 : 0,
      });
      return { status: 'sent', message };
    });
  }

  /** The message an author stored for a response chunk, if any (delivery confirmation lookups). */
  getMessageByResponse(authorId: string, responseId: string, chunkIndex = 0): MessageRecord | undefined {
    return this.getMessage(responseMessageId(authorId, responseId, chunkIndex));
  }

  getMessage(id: string): MessageRecord | undefined {
    const row = this.stmts.getMessage.get({ id });
    return row === undefined ? undefined : this.toMessage(row);
  }

  /** Messages of a target in ascending TargetSeq, within `afterSeq < seq < beforeSeq`. */
  listMessages(target: TargetKey, opts: ListMessagesOptions = {}): MessageRecord[] {
    const limit = clampLimit(opts.limit);
    const params = { target, after: opts.afterSeq ?? 0, before: opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, limit };
    // Paging back through history (beforeSeq only) wants the newest page, still shown ascending.
    const rows =
      opts.beforeSeq !== undefined && opts.afterSeq === undefined
        ? this.stmts.messagesTail.all(params).reverse()
        : this.stmts.messagesRange.all(params);
    return rows.map((r) => this.toMessage(r));
  }

  /** Highest TargetSeq of a target; 0 when it has no message (or does not exist). */
  lastSeq(target: TargetKey): number {
    return Number(this.stmts.lastSeq.get({ target })?.last_seq ?? 0);
  }

  // ---------------------------------------------------------------- wakes

  /** Records a new wake in status `queued` (with its first status event). */
  insertWake(w: InsertWakeInput): WakeRecord {
    this.checkTarget(w.target);
    const at = this.iso();
    this.tx(() => {
      this.stmts.insertWake.run({
        token: w.wakeToken,
        messageId: w.messageId,
        agentId: w.agentId,
        runtime: w.runtime,
        target: w.target,
        targetSeq: w.targetSeq,
        deliveryClass: w.deliveryClass,
        at,
      });
      this.stmts.insertWakeEvent.run({
        token: w.wakeToken,
        kind: 'status',
        status: 'queued',
        reason: null,
        detail: null,
        at,
      });
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
    const detail = e.detail === undefined ? null : bound(e.detail, WAKE_DETAIL_MAX);
    return this.tx(() => {
      const row = this.stmts.wakeState.get({ token: e.wakeToken });
      if (row === undefined) return false;
      const current = String(row.status) as WakeStatus;
      if (isTerminal(current) && (e.status !== undefined || ACTIVE_ONLY_EVENT_KINDS.has(e.kind))) return false;
      this.stmts.insertWakeEvent.run({
        token: e.wakeToken,
        kind: e.kind,
        status: e.status ?? null,
        reason: e.reason ?? null,
        detail,
        at,
      });
      this.stmts.mirrorWakeEvent.run({
        token: e.wakeToken,
        hasStatus: e.status === undefined ? 0 : 1,
        status: e.status ?? current,
        reason: e.reason ?? null,
        detail,
        beacon: e.kind === 'beacon' ? 1 : 0,
        escalation: e.kind === 'escalation' ? 1 : 0,
        finalCheck: e.kind === 'final_check' || e.status === 'final_check_sent' ? 1 : 0,
        ended: e.status !== undefined && isTerminal(e.status) ? 1 : 0,
        at,
      });
      return true;
    });
  }

  getWake(wakeToken: string): WakeRecord | undefined {
    const row = this.stmts.getWake.get({ token: wakeToken });
    return row === undefined ? undefined : toWake(row);
  }

  /** Wakes matching the filter, oldest first by default (the admission order of `queued` wakes). */
  listWakes(filter: ListWakesFilter = {}): WakeRecord[] {
    const where: string[] = [];
    const params: Record<string, SQLInputValue> = { limit: filter.limit ?? -1 };
    const match = (column: string, name: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = $${name}`);
      params[name] = value;
    };
    match('target', 'target', filter.target);
    match('agent_id', 'agentId', filter.agentId);
    match('status', 'status', filter.status);
    if (filter.activeOnly === true) where.push('ended_at IS NULL');
    const sql = `SELECT * FROM wakes ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ord ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT $limit`;
    let stmt = this.listWakeStmts.get(sql);
    if (stmt === undefined) this.listWakeStmts.set(sql, (stmt = this.db.prepare(sql)));
    return stmt.all(params).map(toWake);
  }

  /** A wake's events in the order they were appended. */
  listWakeEvents(wakeToken: string): WakeEventRecord[] {
    return this.stmts.wakeEvents.all({ token: wakeToken }).map(toWakeEvent);
  }

  // ---------------------------------------------------------------- trajectory (contract §8.4)

  appendPromptInput(p: PromptInputInput): PromptInputRecord {
    const id = `pi_${randomUUID()}`;
    const at = this.iso();
    const tokens = [...new Set(p.wakeTokens)];
    const seq = this.tx(() => {
      const s = Number(
        this.stmts.insertPromptInput.get({
          id,
          agentId: p.agentId,
          kind: p.kind,
          tokens: JSON.stringify(tokens),
          text: p.text,
          at,
        })?.seq,
      );
      for (const token of tokens) this.stmts.linkPromptInput.run({ token, seq: s });
      return s;
    });
    return { id, seq, agentId: p.agentId, wakeTokens: tokens, kind: p.kind, text: p.text, at };
  }

  /** The prompt_input entries that carried a wake, in the order they were sent. */
  listPromptInputs(wakeToken: string): PromptInputRecord[] {
    return this.stmts.promptInputsOfWake.all({ token: wakeToken }).map(toPromptInput);
  }

  // ---------------------------------------------------------------- delivery confirmation

  /**
   * Keeps a reply whose delivery finally failed, for re-delivery on the next inbound
   * (watchdog spec B, preserveUndelivered). Saving the same agent+response+chunk again re-arms it.
   */
  saveUndelivered(u: UndeliveredInput): void {
    this.checkTarget(u.target);
    this.stmts.saveUndelivered.run({ ...u, at: this.iso() });
  }

  /** Undelivered replies waiting for a target (optionally of one agent), oldest first; marks them taken. */
  takeUndelivered(target: TargetKey, agentId?: string): UndeliveredRecord[] {
    const at = this.iso();
    return this.tx(() => {
      const rows = this.stmts.openUndelivered.all({ target, agentId: agentId ?? null });
      for (const row of rows) this.stmts.takeUndelivered.run({ id: Number(row.id), at });
      return rows.map((r) => ({ ...toUndelivered(r), takenAt: at }));
    });
  }

  // ---------------------------------------------------------------- context recovery (contract §6.6)

  /**
   * Persists one recovery batch: one marker per canonical target keeping the highest unresolved
   * TargetSeq. Marker ids are deterministic (agent, target, frontier), so persisting the same
   * frontier again keeps the one marker. A higher frontier replaces a still-`pending` marker of
   * that target (state `superseded`) but never rewrites one already launched (`replay_pending`):
   * it is stored as a new marker beside it. Returns the markers of this batch, one per target.
   */
  saveRecoveryBatch(agentId: string, markers: readonly RecoveryMarkerInput[]): RecoveryMarkerRecord[] {
    const byTarget = new Map<TargetKey, { frontierSeq: number; wakeTokens: string[] }>();
    for (const m of markers) {
      this.checkTarget(m.target);
      if (!Number.isInteger(m.frontierSeq) || m.frontierSeq < 0)
        throw new TypeError(`internal: bad frontierSeq ${m.frontierSeq}`);
      const seen = byTarget.get(m.target);
      const tokens = [...(seen?.wakeTokens ?? []), ...(m.wakeTokens ?? [])];
      byTarget.set(m.target, { frontierSeq: Math.max(seen?.frontierSeq ?? 0, m.frontierSeq), wakeTokens: tokens });
    }
    const batchId = `rb_${digest([agentId, ...[...byTarget].map(([t, v]) => `${t}@${v.frontierSeq}`)])}`;
    const at = this.iso();
    return this.tx(() => {
      const out: RecoveryMarkerRecord[] = [];
      for (const [target, { frontierSeq, wakeTokens }] of byTarget) {
        const id = recoveryMarkerId(agentId, target, frontierSeq);
        const same = this.stmts.getMarker.get({ id });
        if (same !== undefined) {
          out.push(toMarker(same));
          continue;
        }
        const pending = this.stmts.pendingMarkersOfTarget.all({ agentId, target }).map(toMarker);
        const higher = pending.find((p) => p.frontierSeq >= frontierSeq);
        if (higher !== undefined) {
          out.push(higher);
          continue;
        }
        for (const p of pending) this.stmts.supersedeMarker.run({ id: p.id });
        const tokens = [...new Set(wakeTokens)].slice(0, RECOVERY_WAKE_TOKENS_MAX);
        this.stmts.insertMarker.run({ id, agentId, batchId, target, frontierSeq, tokens: JSON.stringify(tokens), at });
        out.push(toMarker(this.stmts.getMarker.get({ id }) as Row));
      }
      return out;
    });
  }

  /** The oldest `pending` marker of an agent, now `replay_pending`; one per fresh runtime. */
  takeRecoveryMarker(agentId: string): RecoveryMarkerRecord | undefined {
    const at = this.iso();
    return this.tx(() => {
      const row = this.stmts.oldestPendingMarker.get({ agentId });
      if (row === undefined) return undefined;
      const id = String(row.id);
      this.stmts.launchMarker.run({ id, at });
      return toMarker(this.stmts.getMarker.get({ id }) as Row);
    });
  }

  /** Settles a launched marker at its process boundary; false if it is not `replay_pending`. */
  settleRecoveryMarker(id: string): boolean {
    return Number(this.stmts.settleMarker.run({ id, at: this.iso() }).changes) === 1;
  }

  listRecoveryMarkers(agentId: string): RecoveryMarkerRecord[] {
    return this.stmts.markersOfAgent.all({ agentId }).map(toMarker);
  }

  // ---------------------------------------------------------------- reactions (contract §9.2)

  /** Stores a reaction; `already` when this author had put this emoji on this message before. */
  addReaction(r: {
    readonly messageId: string;
    readonly authorId: string;
    readonly emoji: string;
  }): 'added' | 'already' {
    const result = this.stmts.insertReaction.run({
      messageId: r.messageId,
      authorId: r.authorId,
      emoji: r.emoji,
      at: this.iso(),
    });
    return Number(result.changes) > 0 ? 'added' : 'already';
  }

  /** Reactions of the given messages, oldest first per message. */
  reactionsOf(messageIds: readonly string[]): Map<string, ReactionRecord[]> {
    const out = new Map<string, ReactionRecord[]>();
    if (messageIds.length === 0) return out;
    const rows = this.stmts.reactionsOf.all({ ids: JSON.stringify(messageIds) });
    for (const row of rows) {
      const authorId = String(row.author_id);
      const rec: ReactionRecord = {
        messageId: String(row.message_id),
        authorId,
        authorName: this.memberNames.get(authorId) ?? authorId,
        emoji: String(row.emoji),
        createdAt: String(row.created_at),
      };
      const list = out.get(rec.messageId);
      if (list === undefined) out.set(rec.messageId, [rec]);
      else list.push(rec);
    }
    return out;
  }

  // ---------------------------------------------------------------- audit (contract §8.3)

  appendAudit(a: AuditInput): void {
    this.checkTarget(a.target);
    this.stmts.insertAudit.run({
      agentId: a.agentId,
      kind: a.kind,
      target: a.target,
      messageId: a.messageId,
      detail: a.detail ?? null,
      at: this.iso(),
    });
  }

  listAudit(): AuditRecord[] {
    return this.stmts.allAudit.all().map(toAudit);
  }

  // ---------------------------------------------------------------- internals

  /** Runs `fn` in one IMMEDIATE transaction; rolls back and rethrows on error. */
  private tx<T>(fn: () => T): T {
    this.stmts.begin.run();
    const added: string[] = [];
    this.pendingConversations = added;
    try {
      const result = fn();
      this.stmts.commit.run();
      for (const t of added) this.knownConversations.add(t);
      return result;
    } catch (err) {
      if (this.db.isTransaction) this.stmts.rollback.run();
      throw err;
    } finally {
      this.pendingConversations = null;
    }
  }

  private pendingConversations: string[] | null = null;

  private ensureConversationInTx(target: TargetKey): void {
    if (this.knownConversations.has(target)) return;
    const parsed = parseTarget(target);
    if (!parsed.ok) throw new TypeError(`internal: not a TargetKey: ${JSON.stringify(target)}`);
    let parent: TargetKey | null = null;
    let kind: ConversationKind = parsed.target.kind;
    if (parsed.target.thread !== null) {
      parent = formatTarget(parentOf(parsed.target));
      kind = 'thread';
      // A thread's parent exists (issue 3).
      this.stmts.insertConversation.run({ target: parent, kind: parsed.target.kind, parent: null, at: this.iso() });
      this.pendingConversations?.push(parent);
    }
    this.stmts.insertConversation.run({ target, kind, parent, at: this.iso() });
    this.pendingConversations?.push(target);
  }

  /** TargetKeys come only from parseTarget; anything else reaching the store is a bug. */
  private checkTarget(target: TargetKey): void {
    if (this.knownConversations.has(target)) return;
    const parsed = parseTarget(target);
    if (!parsed.ok || parsed.key !== target)
      throw new TypeError(`internal: not a canonical TargetKey: ${JSON.stringify(target)}`);
  }

  private toMessage(row: Row): MessageRecord {
    const authorId = String(row.author_id);
    return {
      id: String(row.id),
      target: String(row.target) as TargetKey,
      seq: Number(row.seq),
      authorId,
      authorName: this.memberNames.get(authorId) ?? authorId,
      authorKind: String(row.author_kind) as MemberKind,
      content: String(row.content),
      createdAt: String(row.created_at),
      responseId: row.response_id === null ? null : String(row.response_id),
      chunkIndex: row.chunk_index === null ? null : Number(row.chunk_index),
      redelivered: Number(row.redelivered) === 1,
    };
  }

  private iso(): string {
    return this.now().toISOString();
  }
}

/** Deterministic id of a response chunk's message: the idempotency key of watchdog spec B. */
export function responseMessageId(authorId: string, responseId: string, chunkIndex: number): string {
  return `msg_r${digest([authorId, responseId, String(chunkIndex)])}`;
}

/** Deterministic marker id (contract §6.6): same agent, target and frontier, same id. */
export function recoveryMarkerId(agentId: string, target: TargetKey, frontierSeq: number): string {
  return `rm_${digest([agentId, target, String(frontierSeq)])}`;
}

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

function bound(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  return Math.max(1, Math.min(10_000, Math.floor(limit)));
}

function migrate(db: DatabaseSync, path: string, log: DaemonLog | undefined): void {
  const current = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (current > SCHEMA_VERSION) {
    throw new StoreError(
      'store_too_new',
      `The store ${path} has schema version ${current}, newer than this AgentTeam (${SCHEMA_VERSION}); update AgentTeam or use another --data-dir.`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    log?.info('store: migrated', { path, version: m.version, name: m.name });
  }
}

function prepareStatements(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    begin: p('BEGIN IMMEDIATE'),
    commit: p('COMMIT'),
    rollback: p('ROLLBACK'),
    upsertMember: p(`INSERT INTO members (id, kind, name, created_at, updated_at) VALUES ($id, $kind, $name, $at, $at)
      ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, updated_at = excluded.updated_at`),
    getMember: p('SELECT * FROM members WHERE id = $id'),
    allMembers: p('SELECT * FROM members ORDER BY created_at, id'),
    insertConversation: p(
      `INSERT INTO conversations (target, kind, parent, created_at) VALUES ($target, $kind, $parent, $at) ON CONFLICT (target) DO NOTHING`,
    ),
    getConversation: p(
      'SELECT c.*, (SELECT coalesce(max(seq), 0) FROM messages m WHERE m.target = c.target) AS last_seq FROM conversations c WHERE c.target = $target',
    ),
    allConversations:
      p(`SELECT c.*, (SELECT coalesce(max(seq), 0) FROM messages m WHERE m.target = c.target) AS last_seq FROM conversations c
      ORDER BY coalesce(c.parent, c.target), c.parent IS NOT NULL, c.target`),
    lastSeq: p('SELECT coalesce(max(seq), 0) AS last_seq FROM messages WHERE target = $target'),
    nextSeq: p('SELECT coalesce(max(seq), 0) + 1 AS seq FROM messages WHERE target = $target'),
    insertMessage:
      p(`INSERT INTO messages (id, target, seq, author_id, author_kind, content, created_at, response_id, chunk_index, redelivered)
      VALUES ($id, $target, $seq, $authorId, $authorKind, $content, $createdAt, $responseId, $chunkIndex, $redelivered)`),
    getMessage: p('SELECT * FROM messages WHERE id = $id'),
    insertReaction: p(
      'INSERT INTO reactions (message_id, author_id, emoji, created_at) VALUES ($messageId, $authorId, $emoji, $at) ON CONFLICT DO NOTHING',
    ),
    reactionsOf: p(
      'SELECT * FROM reactions WHERE message_id IN (SELECT value FROM json_each($ids)) ORDER BY created_at, rowid',
    ),
    messagesRange: p(
      'SELECT * FROM messages WHERE target = $target AND seq > $after AND seq < $before ORDER BY seq ASC LIMIT $limit',
    ),
    messagesTail: p(
      'SELECT * FROM messages WHERE target = $target AND seq > $after AND seq < $before ORDER BY seq DESC LIMIT $limit',
    ),
    insertWake:
      p(`INSERT INTO wakes (token, message_id, agent_id, runtime, target, target_seq, delivery_class, status, created_at, updated_at)
      VALUES ($token, $messageId, $agentId, $runtime, $target, $targetSeq, $deliveryClass, 'queued', $at, $at)`),
    wakeState: p('SELECT status FROM wakes WHERE token = $token'),
    mirrorWakeEvent: p(`UPDATE wakes SET
        status = $status,
        reason = CASE WHEN $hasStatus = 1 THEN $reason ELSE reason END,
        detail = CASE WHEN $hasStatus = 1 THEN $detail ELSE detail END,
        beacons = beacons + $beacon,
        last_beacon_at = CASE WHEN $beacon = 1 THEN $at ELSE last_beacon_at END,
        escalated = max(escalated, $escalation),
        final_check = max(final_check, $finalCheck),
        ended_at = CASE WHEN $ended = 1 THEN $at ELSE ended_at END,
        updated_at = $at
      WHERE token = $token`),
    insertWakeEvent: p(
      'INSERT INTO wake_events (wake_token, kind, status, reason, detail, at) VALUES ($token, $kind, $status, $reason, $detail, $at)',
    ),
    getWake: p('SELECT * FROM wakes WHERE token = $token'),
    wakeEvents: p('SELECT * FROM wake_events WHERE wake_token = $token ORDER BY id'),
    insertPromptInput: p(
      'INSERT INTO prompt_inputs (id, agent_id, kind, wake_tokens, text, at) VALUES ($id, $agentId, $kind, $tokens, $text, $at) RETURNING seq',
    ),
    linkPromptInput: p('INSERT OR IGNORE INTO prompt_input_wakes (wake_token, prompt_input_seq) VALUES ($token, $seq)'),
    promptInputsOfWake: p(`SELECT p.* FROM prompt_input_wakes w JOIN prompt_inputs p ON p.seq = w.prompt_input_seq
      WHERE w.wake_token = $token ORDER BY p.seq`),
    saveUndelivered:
      p(`INSERT INTO undelivered (agent_id, target, turn_id, response_id, chunk_index, content, reason, created_at)
      VALUES ($agentId, $target, $turnId, $responseId, $chunkIndex, $content, $reason, $at)
      ON CONFLICT (agent_id, response_id, chunk_index) DO UPDATE SET
        target = excluded.target, turn_id = excluded.turn_id, content = excluded.content, reason = excluded.reason, taken_at = NULL`),
    openUndelivered: p(
      'SELECT * FROM undelivered WHERE target = $target AND taken_at IS NULL AND ($agentId IS NULL OR agent_id = $agentId) ORDER BY id',
    ),
    takeUndelivered: p('UPDATE undelivered SET taken_at = $at WHERE id = $id'),
    getMarker: p('SELECT * FROM recovery_markers WHERE id = $id'),
    pendingMarkersOfTarget: p(
      `SELECT * FROM recovery_markers WHERE agent_id = $agentId AND target = $target AND state = 'pending' ORDER BY ord`,
    ),
    supersedeMarker: p(`UPDATE recovery_markers SET state = 'superseded' WHERE id = $id AND state = 'pending'`),
    insertMarker:
      p(`INSERT INTO recovery_markers (id, agent_id, batch_id, target, frontier_seq, wake_tokens, state, created_at)
      VALUES ($id, $agentId, $batchId, $target, $frontierSeq, $tokens, 'pending', $at)`),
    oldestPendingMarker: p(
      `SELECT id FROM recovery_markers WHERE agent_id = $agentId AND state = 'pending' ORDER BY ord LIMIT 1`,
    ),
    launchMarker: p(
      `UPDATE recovery_markers SET state = 'replay_pending', launched_at = $at WHERE id = $id AND state = 'pending'`,
    ),
    settleMarker: p(
      `UPDATE recovery_markers SET state = 'settled', settled_at = $at WHERE id = $id AND state = 'replay_pending'`,
    ),
    markersOfAgent: p('SELECT * FROM recovery_markers WHERE agent_id = $agentId ORDER BY ord'),
    insertAudit: p(
      'INSERT INTO audit (agent_id, kind, target, message_id, detail, at) VALUES ($agentId, $kind, $target, $messageId, $detail, $at)',
    ),
    allAudit: p('SELECT * FROM audit ORDER BY id'),
  };
}

const str = (v: SQLOutputValue | undefined): string | null => (v === null || v === undefined ? null : String(v));

function toMember(r: Row): MemberRecord {
  return {
    id: String(r.id),
    kind: String(r.kind) as MemberKind,
    name: String(r.name),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

function toConversation(r: Row): ConversationRecord {
  return {
    target: String(r.target) as TargetKey,
    kind: String(r.kind) as ConversationKind,
    parent: str(r.parent) as TargetKey | null,
    lastSeq: Number(r.last_seq),
    createdAt: String(r.created_at),
  };
}

function toWake(r: Row): WakeRecord {
  return {
    wakeToken: String(r.token),
    messageId: String(r.message_id),
    agentId: String(r.agent_id),
    runtime: String(r.runtime) as RuntimeKind,
    target: String(r.target) as TargetKey,
    targetSeq: Number(r.target_seq),
    deliveryClass: String(r.delivery_class) as DeliveryClass,
    status: String(r.status) as WakeStatus,
    reason: str(r.reason),
    detail: str(r.detail),
    beacons: Number(r.beacons),
    escalated: Number(r.escalated) === 1,
    lastBeaconAt: str(r.last_beacon_at),
    finalCheck: Number(r.final_check) === 1,
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
    endedAt: str(r.ended_at),
  };
}

function toWakeEvent(r: Row): WakeEventRecord {
  return {
    id: Number(r.id),
    wakeToken: String(r.wake_token),
    kind: String(r.kind) as WakeEventKind,
    status: str(r.status) as WakeStatus | null,
    reason: str(r.reason),
    detail: str(r.detail),
    at: String(r.at),
  };
}

function toPromptInput(r: Row): PromptInputRecord {
  return {
    id: String(r.id),
    seq: Number(r.seq),
    agentId: String(r.agent_id),
    wakeTokens: JSON.parse(String(r.wake_tokens)) as string[],
    kind: String(r.kind) as PromptInputKind,
    text: String(r.text),
    at: String(r.at),
  };
}

function toUndelivered(r: Row): UndeliveredRecord {
  return {
    id: Number(r.id),
    agentId: String(r.agent_id),
    target: String(r.target) as TargetKey,
    turnId: String(r.turn_id),
    responseId: String(r.response_id),
    chunkIndex: Number(r.chunk_index),
    content: String(r.content),
    reason: String(r.reason),
    createdAt: String(r.created_at),
    takenAt: str(r.taken_at),
  };
}

function toMarker(r: Row): RecoveryMarkerRecord {
  const id = String(r.id);
  return {
    id,
    syntheticMessageId: `msg_recovery_${id.slice('rm_'.length)}`,
    agentId: String(r.agent_id),
    batchId: String(r.batch_id),
    target: String(r.target) as TargetKey,
    frontierSeq: Number(r.frontier_seq),
    wakeTokens: JSON.parse(String(r.wake_tokens)) as string[],
    state: String(r.state) as RecoveryMarkerState,
    createdAt: String(r.created_at),
    launchedAt: str(r.launched_at),
    settledAt: str(r.settled_at),
  };
}

function toAudit(r: Row): AuditRecord {
  return {
    id: Number(r.id),
    agentId: String(r.agent_id),
    kind: String(r.kind) as AuditKind,
    target: String(r.target) as TargetKey,
    messageId: String(r.message_id),
    detail: str(r.detail),
    at: String(r.at),
  };
}
