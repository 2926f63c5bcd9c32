/**
 * The pending-delivery table of one agent's runtime process (contract §9): a bounded FIFO of
 * rows, the durable-order admission queue in front of it, and the turn message-send scope of
 * §8.3. Pure: every operation returns the effects the caller must apply (persist, publish,
 * count, deliver); no I/O, no timers, no clock. Time lives in RxJS pipelines around it.
 *
 * Process generations tag everything a runtime reports, so a stale event from an older
 * process (or one reported after cleanup) can never settle or recreate a row (§6.2, §9.4).
 */
import type { FailureReason, SendRefusalCode } from '../../../shared/wake-status.js';
import type { TargetKey } from '../../../shared/target.js';
import {
  isRecoveryMessage,
  PendingDelivery,
  type RecoveryCause,
  type FinalCheckGroup,
  type RecoveryFrontier,
  type TableEffect,
  type TablePause,
  type TerminalOutcome,
  type TurnBoundaryKind,
  type WakeAdmission,
} from './pending-delivery.js';
import {
  DAEMON_RESTARTED,
  PROCESS_REPLACED,
  recoveryDecision,
  recoveryFrontiers,
  type SessionFailure,
  type StoredWakeFacts,
} from './recovery-rule.js';

/** Result of a turn boundary: the final-check to inject (rows now `final_check_sent`) or null. */
export interface BoundaryResult {
  readonly effects: readonly TableEffect[];
  /** Non-null: inject one final-check now and skip idle/compaction for this boundary (§9.2). */
  readonly finalCheck: FinalCheckGroup[] | null;
}

/** A wake as the journal stores it, with what it knows beyond the row (daemon restart, issue 16). */
export type StoredWake = WakeAdmission & StoredWakeFacts;

export interface ReplacementResult {
  readonly effects: readonly TableEffect[];
  /** contract §6.6: exact targets and frontiers the replaced process left unresolved. */
  readonly recovery: readonly RecoveryFrontier[];
}

const NONE: readonly TableEffect[] = [];
// issue 19: the outcomes every settled row shares, built once instead of once per row (readonly values).
const REPLY_SENT: TerminalOutcome = Object.freeze({ status: 'reply_sent', reason: null, detail: null });
const SIGNAL_ONLY: TerminalOutcome = Object.freeze({
  status: 'completed_without_visible_reply',
  reason: 'signal_only',
  detail: null,
});
const NO_REPLY: TerminalOutcome = Object.freeze({
  status: 'completed_without_visible_reply',
  reason: 'no_reply',
  detail: null,
});

/**
 * contract §9.2, the one settle rule: a `message_send` result `sent|already_sent` on `targetKey`
 * with `seenUpToSeq` settles `reply_sent` exactly the rows of that target it covers
 * (`TargetSeq <= SeenUpToSeq`), of either class (issue 38: a covered `signal_only` hand-back row
 * whose agent then posts there visibly replied). The table settles by it (`sendResult`) and answers
 * by it (`handling`): its one home (issue 39).
 */
function sendSettles(row: PendingDelivery, targetKey: TargetKey, seenUpToSeq: number): boolean {
  return row.targetKey === targetKey && row.targetSeq <= seenUpToSeq;
}

export class PendingDeliveryTable {
  readonly #capacity: number;
  /** Insertion order is FIFO order (Map iteration order), which §9.1 requires. */
  readonly #rows = new Map<string, PendingDelivery>();
  /**
   * Wakes beyond capacity, oldest first; admitted strictly in this order, never dropped. Rows, not
   * admissions: a row a pause took back keeps what it was (its final-check sent, the session that saw it).
   */
  #queue: PendingDelivery[] = [];
  #queueHead = 0;
  readonly #queuedTokens = new Set<string>();
  #generation: number;
  /** False after the process exited until its replacement starts: nothing is admitted into a dead process. */
  #accepting = true;
  /** contract §8.3: exact sendable destinations of runtime-visible inputs in this generation. */
  #scope = new Set<TargetKey>();
  /** issue 24: why the process of this generation exited, until its replacement ends its rows with it. */
  #exit: SessionFailure | null = null;
  /**
   * issue 27, 38: the agent's pause, its one home. While set, admission is held (a usage limit
   * until its reset, a daily budget reached): the paused rows wait at the head of the queue, later
   * wakes behind them. `wakeTokens`: the wakes this pause shows `paused`.
   */
  #pause: (TablePause & { readonly wakeTokens: Set<string> }) | null = null;

  constructor(capacity: number, generation = 0) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`internal: pending-delivery capacity must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
    this.#generation = generation;
  }

  get capacity(): number {
    return this.#capacity;
  }
  get generation(): number {
    return this.#generation;
  }
  /** Rows in the FIFO (admitted, not yet terminal). Never above `capacity`. */
  get size(): number {
    return this.#rows.size;
  }
  /** Wakes waiting for admission. */
  get queued(): number {
    return this.#queue.length - this.#queueHead;
  }
  row(wakeToken: string): PendingDelivery | undefined {
    return this.#rows.get(wakeToken);
  }
  rows(): IterableIterator<PendingDelivery> {
    return this.#rows.values();
  }
  /** Whether the row was written into the runtime (delivered or final-check sent) and has not ended. */
  isVisible(wakeToken: string): boolean {
    return this.#rows.get(wakeToken)?.visible === true;
  }
  /** Whether the wake is in the table or the queue (a terminal wake is neither). */
  has(wakeToken: string): boolean {
    return this.#rows.has(wakeToken) || this.#queuedTokens.has(wakeToken);
  }
  /** issue 27: whether admission is held (the agent is paused). */
  get held(): boolean {
    return this.#pause !== null;
  }
  /** issue 27, 38: the agent's pause, with the wakes it shows `paused` (null: not paused). */
  pauseState(): (TablePause & { readonly wakeTokens: readonly string[] }) | null {
    const p = this.#pause;
    return p === null ? null : { kind: p.kind, resetsAt: p.resetsAt, detail: p.detail, wakeTokens: [...p.wakeTokens] };
  }
  /** issue 27: the queued wakes in FIFO order (the paused ones first). */
  queuedTokens(): string[] {
    return this.#queue.slice(this.#queueHead).map((w) => w.wakeToken);
  }
  inScope(target: TargetKey): boolean {
    return this.#scope.has(target);
  }
  scope(): ReadonlySet<TargetKey> {
    return this.#scope;
  }

  /** A new wake: admitted now if the FIFO has room, else it waits in order. Duplicates are ignored. */
  enqueue(wake: WakeAdmission): readonly TableEffect[] {
    if (this.has(wake.wakeToken)) return NONE;
    if (
      this.#accepting &&
      this.#pause === null &&
      this.#queueHead === this.#queue.length &&
      this.#rows.size < this.#capacity
    ) {
      // issue 19: nothing waits and there is room, so the wake is admitted at once (FIFO order holds:
      // it is the only one); it skips the queue and its token set, and the consumed queue is dropped.
      if (this.#queueHead !== 0) {
        this.#queue = [];
        this.#queueHead = 0;
      }
      const row = this.#rowOf(wake);
      this.#rows.set(wake.wakeToken, row);
      return [{ kind: 'admitted', row }];
    }
    const row = this.#rowOf(wake);
    this.#queue.push(row);
    this.#queuedTokens.add(wake.wakeToken);
    const effects: TableEffect[] = [];
    // issue 27: a wake that arrives while a daily budget (issue 42: or short memory) holds the agent's
    // admission waits visibly `paused` (behind a usage limit's paused rows it waits `queued`: the limit is theirs, not its).
    if (this.#pause !== null && this.#pause.kind !== 'usage_limit') {
      this.#pause.wakeTokens.add(wake.wakeToken);
      effects.push({ kind: 'paused', row });
    }
    this.#admit(effects);
    return effects;
  }

  /**
   * The runtime adapter wrote these rows into the runtime (`generation`): they are now
   * runtime-visible, and their exact targets join the turn message-send scope (§8.3).
   * Returns the tokens that changed (unknown, stale or already-visible tokens are skipped).
   */
  markDelivered(generation: number, wakeTokens: readonly string[]): string[] {
    if (generation !== this.#generation) return [];
    const changed: string[] = [];
    for (const token of wakeTokens) {
      const row = this.#rows.get(token);
      if (row === undefined || row.generation !== generation || row.visible) continue;
      row.visible = true;
      row.seenIn = generation;
      if (row.targetKey !== null) this.#scope.add(row.targetKey);
      if (row.sendableTargets !== null) for (const t of row.sendableTargets) this.#scope.add(t);
      changed.push(token);
    }
    return changed;
  }

  /**
   * contract §9.2: a `message_send` result `sent|already_sent` with canonical TargetKey and
   * SeenUpToSeq settles `reply_sent` for the rows of that target it covers (`TargetSeq <=
   * SeenUpToSeq`) only; higher rows and other targets are untouched. Covered rows of either class:
   * a `signal_only` row (a hand-back) whose agent then posts to its target visibly replied there
   * (issue 38: it read "Received — back to idle" while the lead had answered).
   */
  sendResult(targetKey: TargetKey, seenUpToSeq: number): readonly TableEffect[] {
    const effects: TableEffect[] = [];
    // Deleting the current entry while iterating a Map is well-defined, so no copy is needed.
    for (const row of this.#rows.values()) {
      if (sendSettles(row, targetKey, seenUpToSeq)) {
        this.#end(row, REPLY_SENT, effects);
      }
    }
    this.#admit(effects);
    return effects;
  }

  /**
   * contract §9.2 asked, nothing applied (issue 25: the team routes a reply by what it settles):
   * the runtime-visible rows in FIFO order, each with whether a `sent` result on `targetKey`
   * covering `seenUpToSeq` would settle it — by the rule `sendResult` applies.
   */
  handling(
    targetKey: TargetKey,
    seenUpToSeq: number,
  ): Array<{ readonly wakeToken: string; readonly settled: boolean }> {
    const out: Array<{ readonly wakeToken: string; readonly settled: boolean }> = [];
    for (const row of this.#rows.values())
      if (row.visible) out.push({ wakeToken: row.wakeToken, settled: sendSettles(row, targetKey, seenUpToSeq) });
    return out;
  }

  /**
   * issue 15: our own refusal of the agent's `message_send` is charged to the rows its runtime is
   * handling now (runtime-visible ones: a row not yet written cannot be what the agent answered);
   * a row that then ends without a reply names it. Returns the tokens charged.
   */
  chargeRefusal(code: SendRefusalCode): string[] {
    const charged: string[] = [];
    for (const row of this.#rows.values()) {
      if (!row.visible) continue;
      row.refusal = code;
      charged.push(row.wakeToken);
    }
    return charged;
  }

  /** contract §9.2: a confirmed reaction to the triggering message settles exactly that row. */
  reactionConfirmed(messageId: string): readonly TableEffect[] {
    const row = this.#reactionRow(messageId);
    if (row === undefined) return NONE;
    const effects: TableEffect[] = [];
    this.#end(row, { status: 'reply_sent', reason: null, detail: 'reaction' }, effects);
    this.#admit(effects);
    return effects;
  }

  /** Whether a reaction to `messageId` would settle a row (issue 24: asked before the reaction is stored). */
  awaitsReaction(messageId: string): boolean {
    return this.#reactionRow(messageId) !== undefined;
  }

  /** The row a reaction to the triggering message settles: exactly that message's `visible_reply` row. */
  #reactionRow(messageId: string): PendingDelivery | undefined {
    for (const row of this.#rows.values())
      if (row.messageId === messageId && row.deliveryClass === 'visible_reply') return row;
    return undefined;
  }

  /**
   * A turn boundary of `generation` (contract §9.2, Phase 4):
   * - rows already `final_check_sent` end `completed_without_visible_reply` (no_reply): no second injection;
   * - runtime-visible `signal_only` rows end with their `signal_only` classification, never a final-check;
   * - runtime-visible `visible_reply` rows `awaiting_check` get one final-check, aggregated by
   *   canonical target in FIFO order, and become `final_check_sent`;
   * - with no final-check pending, the send scope retires (§8.3), except at a compaction
   *   boundary, whose continuation keeps it.
   * A stale generation is a no-op.
   */
  boundary(generation: number, kind: TurnBoundaryKind): BoundaryResult {
    if (generation !== this.#generation) return { effects: NONE, finalCheck: null };
    const effects: TableEffect[] = [];
    const groups = new Map<TargetKey | null, Array<{ messageId: string; targetSeq: number; wakeToken: string }>>();
    for (const row of this.#rows.values()) {
      if (!row.visible) continue;
      if (row.deliveryClass === 'signal_only') {
        // contract §9.3: a signal-only row carries only its classification.
        this.#end(row, SIGNAL_ONLY, effects);
      } else if (row.status === 'final_check_sent') {
        // contract §6.4: the final-check turn ended without a confirmed reply: terminal, never re-injected.
        this.#end(row, NO_REPLY, effects);
      } else {
        row.status = 'final_check_sent';
        effects.push({ kind: 'final_check_sent', row });
        let group = groups.get(row.targetKey);
        if (group === undefined) groups.set(row.targetKey, (group = []));
        group.push({ messageId: row.messageId, targetSeq: row.targetSeq, wakeToken: row.wakeToken });
      }
    }
    const finalCheck: FinalCheckGroup[] | null =
      groups.size === 0 ? null : [...groups].map(([target, wakes]) => ({ target, wakes }));
    if (finalCheck === null && kind !== 'compaction') this.#scope = new Set();
    this.#admit(effects);
    return { effects, finalCheck };
  }

  /**
   * contract §9.2 / Phase 4: the final-check could not be injected (stdin closed, RPC refused):
   * those rows end `completed_without_visible_reply` at once, no retry.
   */
  finalCheckUndeliverable(generation: number, wakeTokens: readonly string[], detail: string): readonly TableEffect[] {
    if (generation !== this.#generation) return NONE;
    const effects: TableEffect[] = [];
    for (const token of wakeTokens) {
      const row = this.#rows.get(token);
      if (row === undefined || row.status !== 'final_check_sent') continue;
      this.#end(row, { status: 'completed_without_visible_reply', reason: 'no_reply', detail }, effects);
    }
    if (![...this.#rows.values()].some((r) => r.status === 'final_check_sent')) this.#scope = new Set();
    this.#admit(effects);
    return effects;
  }

  /**
   * contract §9.2: a runtime error fails every row still in the table; they are gone, so no
   * later boundary can reclassify them. When the process exited, nothing more is admitted
   * until `processReplaced`.
   */
  runtimeError(
    generation: number,
    detail: string,
    processExited: boolean,
    reason: FailureReason | null = null,
  ): readonly TableEffect[] {
    if (generation !== this.#generation) return NONE;
    const effects: TableEffect[] = [];
    for (const row of [...this.#rows.values()]) this.#end(row, { status: 'failed', reason, detail }, effects);
    this.#scope = new Set();
    if (processExited) this.#accepting = false;
    this.#admit(effects);
    return effects;
  }

  /**
   * issue 27 "pause, don't fail": the turn of `generation` was refused by a usage or rate limit
   * (`usage_limit`): every row still in the table leaves it, in FIFO order, back to the head of the
   * queue — its place kept, nothing ended, its send scope retired (§8.3), and (issue 38) its status
   * kept: a row whose one final-check went out stays `final_check_sent`, so the resume never sends a
   * second (§6.4). A daily budget (`daily_budget`) only holds admission: the rows already running
   * finish, later wakes wait `paused`. Admission stays held until `release`. A stale generation is a
   * no-op; a second pause updates the first (its reset, its detail) and keeps its wakes.
   */
  pause(generation: number | null, pause: TablePause): readonly TableEffect[] {
    if (generation !== null && generation !== this.#generation) return NONE;
    const wakeTokens = this.#pause?.wakeTokens ?? new Set<string>();
    this.#pause = { kind: pause.kind, resetsAt: pause.resetsAt, detail: pause.detail, wakeTokens };
    if (pause.kind !== 'usage_limit') return NONE;
    const effects: TableEffect[] = [];
    const back: PendingDelivery[] = [];
    for (const row of [...this.#rows.values()]) {
      this.#rows.delete(row.wakeToken);
      this.#queuedTokens.add(row.wakeToken);
      wakeTokens.add(row.wakeToken);
      row.visible = false;
      back.push(row);
      effects.push({ kind: 'paused', row });
    }
    if (back.length > 0) {
      this.#queue = [...back, ...this.#queue.slice(this.#queueHead)];
      this.#queueHead = 0;
    }
    this.#scope = new Set();
    return effects;
  }

  /** issue 27: the pause ended (the reset came, Try now, a budget raised): admission resumes in FIFO order. */
  release(): readonly TableEffect[] {
    const pause = this.#pause;
    if (pause === null) return NONE;
    this.#pause = null;
    const effects: TableEffect[] = [];
    // Its wakes wait `queued` again (issue 38: a restart before they are written must not pause them anew).
    for (const row of this.#queue.slice(this.#queueHead))
      if (pause.wakeTokens.has(row.wakeToken)) effects.push({ kind: 'unpaused', row });
    this.#admit(effects);
    return effects;
  }

  /**
   * issue 27: the operator cancelled the pause: the wakes it paused (still at the head of the
   * queue) end with `outcome`, and admission resumes for the wakes behind them.
   */
  cancelPause(outcome: TerminalOutcome): readonly TableEffect[] {
    const pause = this.#pause;
    if (pause === null) return NONE;
    this.#pause = null;
    const effects: TableEffect[] = [];
    const kept: PendingDelivery[] = [];
    for (const row of this.#queue.slice(this.#queueHead)) {
      if (!pause.wakeTokens.has(row.wakeToken)) {
        kept.push(row);
        continue;
      }
      this.#queuedTokens.delete(row.wakeToken);
      effects.push({ kind: 'terminal', row, outcome });
    }
    this.#queue = kept;
    this.#queueHead = 0;
    this.#admit(effects);
    return effects;
  }

  /**
   * issue 38: whether these rows are still due to be written into `generation` now: admitted, not
   * yet written, not ended, not taken back by a pause. Asked by the runtime's prompt queue right
   * before it writes a waiting delivery, so a paused (or ended) wake never reaches a runtime.
   */
  due(generation: number, wakeTokens: readonly string[]): boolean {
    if (generation !== this.#generation || !this.#accepting) return false;
    for (const token of wakeTokens) {
      const row = this.#rows.get(token);
      if (row !== undefined && !row.visible && row.generation === generation) return true;
    }
    return false;
  }

  /**
   * issue 29, 38: the turn the daemon asked to end (Stop, a turn timeout) ended, or completed in a
   * race with the interrupt: exactly the rows that turn was working on — the runtime-visible ones —
   * end with `outcome`; rows admitted but not yet written wait for the next turn (Stop ends only the
   * stopped turn's wakes). The send scope retires with the turn (§8.3). A stale generation is a no-op.
   */
  turnEnded(generation: number, outcome: TerminalOutcome): readonly TableEffect[] {
    if (generation !== this.#generation) return NONE;
    const effects: TableEffect[] = [];
    for (const row of [...this.#rows.values()]) if (row.visible) this.#end(row, outcome, effects);
    this.#scope = new Set();
    this.#admit(effects);
    return effects;
  }

  /**
   * The runtime process of `generation` exited unexpectedly, or is being replaced (issue 16):
   * nothing more is admitted until `processReplaced`, and the send scope retires (§8.3).
   * Runtime-visible synthetic recovery rows end `failed` now (at most one recovery per wake, so a
   * message that kills the runtime cannot loop); every other row waits for the replacement, which
   * ends the runtime-visible ones `failed` with this exit's reason and detail (issue 24: a crash is
   * never reclassified) and recovers them (§6.6), and re-offers the rest.
   */
  processExited(generation: number, detail: string, reason: FailureReason = 'cli_exited'): readonly TableEffect[] {
    if (generation !== this.#generation) return NONE;
    this.#exit = { reason, detail };
    const effects: TableEffect[] = [];
    for (const row of [...this.#rows.values()]) {
      if (row.visible && isRecoveryMessage(row.messageId))
        this.#end(row, { status: 'failed', reason, detail }, effects);
    }
    this.#scope = new Set();
    this.#accepting = false;
    return effects;
  }

  /**
   * A new runtime process (`newGeneration` > current) replaces the old one. contract §8.3: the
   * send scope is not restored. §6.6: runtime-visible rows of the old process end `failed` with
   * the reason and detail of its exit (`cli_exited`, `process_replaced`, …; issue 24) and their
   * exact targets and highest unresolved TargetSeq per canonical target come back as recovery
   * frontiers; rows that were admitted but never reached the old process are re-offered to the new one.
   */
  processReplaced(newGeneration: number): ReplacementResult {
    if (newGeneration <= this.#generation) return { effects: NONE, recovery: [] };
    const effects: TableEffect[] = [];
    this.#generation = newGeneration;
    this.#accepting = true;
    this.#scope = new Set();
    const failure = this.#exit ?? PROCESS_REPLACED;
    this.#exit = null;
    const recovery = this.#recoverVisible('process_replaced', effects, failure);
    for (const row of [...this.#rows.values()]) {
      // Rows that never reached the old process keep their status: one a pause took back after its
      // final-check went out stays `final_check_sent` (issue 38, §6.4: never a second final-check).
      row.generation = newGeneration;
      row.resumed = false;
      effects.push({ kind: 'admitted', row });
    }
    this.#admit(effects);
    return { effects, recovery };
  }

  /**
   * The context of the runtime of `generation` overflowed (issue 16, contract §6.6): its
   * runtime-visible rows end (`context_overflow`) and come back as recovery frontiers, exactly as
   * at a replacement; rows not yet visible stay, and the replacement that starts the fresh session
   * (issue 24) re-offers them to it. A stale generation is a no-op.
   */
  contextReset(generation: number, cause: RecoveryCause): ReplacementResult {
    if (generation !== this.#generation) return { effects: NONE, recovery: [] };
    const effects: TableEffect[] = [];
    const recovery = this.#recoverVisible(cause, effects);
    this.#admit(effects);
    return { effects, recovery };
  }

  /**
   * After a daemon restart (§6.6, issue 16; §8.3: the rows of the old process are not restored):
   * the wakes the journal holds in flight belonged to a process that is gone. Each ends by the
   * recovery rule (recovery-rule.ts, cause `daemon_restarted`: `failed`, issue 24) with what the journal knows of it;
   * a wake already in this table or its queue is skipped. They never held a slot here, so nothing
   * is admitted: the caller launches the recovery, then `requeue`s the stored queue.
   */
  restoreInFlight(wakes: readonly StoredWake[]): ReplacementResult {
    const effects: TableEffect[] = [];
    const recovered: PendingDelivery[] = [];
    for (const w of wakes) {
      if (this.has(w.wakeToken)) continue;
      // Generation -1: the row belonged to no process of this daemon.
      const row = new PendingDelivery(
        w.messageId,
        w.target,
        w.targetKey,
        w.targetSeq,
        w.wakeToken,
        w.deliveryClass,
        -1,
      );
      const { outcome, recover } = recoveryDecision(row, 'daemon_restarted', w, DAEMON_RESTARTED);
      if (recover) recovered.push(row);
      effects.push({ kind: 'terminal', row, outcome });
    }
    return { effects, recovery: recoveryFrontiers(recovered) };
  }

  /**
   * §9.1 after a daemon restart: the wakes still stored `queued` re-enter the FIFO in their stored
   * order (never dropped, never reordered). Returns the admissions and how many re-entered (a wake
   * already here, e.g. a recovery wake launched just before, is skipped).
   */
  requeue(
    wakes: readonly WakeAdmission[],
    storedPaused: ReadonlySet<string> = new Set(),
  ): { readonly effects: readonly TableEffect[]; readonly requeued: number } {
    const effects: TableEffect[] = [];
    let requeued = 0;
    for (const w of wakes) {
      if (this.has(w.wakeToken)) continue;
      const admitted = this.enqueue(w);
      if (storedPaused.has(w.wakeToken)) {
        // issue 27: a wake the journal already holds `paused` is this pause's again, not paused anew.
        this.#pause?.wakeTokens.add(w.wakeToken);
        for (const e of admitted) if (e.kind !== 'paused' || e.row.wakeToken !== w.wakeToken) effects.push(e);
      } else effects.push(...admitted);
      requeued += 1;
    }
    return { effects, requeued };
  }

  /** Ends every runtime-visible row by the recovery rule (recovery-rule.ts) and returns the frontiers. */
  #recoverVisible(cause: RecoveryCause, effects: TableEffect[], failure?: SessionFailure): RecoveryFrontier[] {
    const recovered: PendingDelivery[] = [];
    for (const row of [...this.#rows.values()]) {
      if (!row.visible) continue;
      const { outcome, recover } = recoveryDecision(row, cause, undefined, failure);
      if (recover) recovered.push(row);
      this.#end(row, outcome, effects);
    }
    return recoveryFrontiers(recovered);
  }

  /** Local assistant text seen in `generation`: only its counts are kept (§6.5). */
  noteLocalText(generation: number, bytes: number, runes: number): void {
    if (generation !== this.#generation) return;
    for (const row of this.#rows.values()) {
      if (!row.visible) continue;
      row.localTextBytes += bytes;
      row.localTextRunes += runes;
    }
  }

  /**
   * The one terminal helper (contract Phase 1, §9.4), public for owners that end a wake for
   * their own reasons (e.g. a delivery the runtime adapter could not write). A token not in
   * the table is a no-op: a wake reaches at most one terminal status, ever.
   */
  terminate(wakeToken: string, outcome: TerminalOutcome): readonly TableEffect[] {
    const row = this.#rows.get(wakeToken);
    if (row === undefined) return NONE;
    const effects: TableEffect[] = [];
    this.#end(row, outcome, effects);
    this.#admit(effects);
    return effects;
  }

  /** §9.4 cleanup: remove the row (releasing its FIFO slot) and report the terminal. */
  #end(row: PendingDelivery, outcome: TerminalOutcome, effects: TableEffect[]): void {
    this.#rows.delete(row.wakeToken);
    effects.push({ kind: 'terminal', row, outcome });
  }

  #rowOf(wake: WakeAdmission): PendingDelivery {
    const row = new PendingDelivery(
      wake.messageId,
      wake.target,
      wake.targetKey,
      wake.targetSeq,
      wake.wakeToken,
      wake.deliveryClass,
      this.#generation,
      wake.sendableTargets?.length ? wake.sendableTargets : null,
    );
    // issue 38: a paused wake restored after a restart keeps its one final-check (§6.4: never a second).
    if (wake.finalCheckSent === true) row.status = 'final_check_sent';
    return row;
  }

  /** §9.1: admit queued wakes strictly in order while the FIFO has room. */
  #admit(effects: TableEffect[]): void {
    while (
      this.#accepting &&
      this.#pause === null &&
      this.#rows.size < this.#capacity &&
      this.#queueHead < this.#queue.length
    ) {
      const row = this.#queue[this.#queueHead] as PendingDelivery;
      this.#queueHead += 1;
      this.#queuedTokens.delete(row.wakeToken);
      row.generation = this.#generation;
      // issue 38: the session of this generation already holds the row's input (a pause took it back).
      row.resumed = row.seenIn === this.#generation;
      this.#rows.set(row.wakeToken, row);
      effects.push({ kind: 'admitted', row });
    }
    // Compact the consumed prefix now and then so the queue array does not grow without bound.
    if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#queueHead);
      this.#queueHead = 0;
    }
  }
}
