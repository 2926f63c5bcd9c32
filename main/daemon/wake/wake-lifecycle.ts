/**
 * The wake lifecycle service: one pure `PendingDeliveryTable` per agent runtime process, whose
 * effects it applies through ports — the journal (store), metrics, the `wake_status` bus and
 * the correlation port — plus the turn message-send scope guard the MCP server calls.
 * Synchronous and timer-free (DESIGN.md "Reactive core"): the runtime adapter reports turn
 * boundaries and asks whether a final-check is due; the watchdog and retries live elsewhere.
 */
import type { Observable } from 'rxjs';
import type { AcpPreset, PromptLanguage } from '../../../shared/config.js';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import {
  isTerminal,
  type FailureReason,
  type RuntimeKind,
  type SendRefusalCode,
  type WakeStatus,
} from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { boundedDetail, textMetrics } from '../diagnostics.js';
import type { WakeMetrics } from '../metrics/wake-metrics.js';
import {
  failureReasonOf,
  type DeliveryClass,
  type PendingDelivery,
  type RecoveryCause,
  type RecoveryFrontier,
  type TableEffect,
  type TablePause,
  type TerminalOutcome,
  type TurnBoundaryKind,
  type WakeAdmission,
} from './pending-delivery.js';
import { EventStream } from './event-stream.js';
import { PendingDeliveryTable } from './pending-delivery-table.js';
import type {
  FinalCheckRenderer,
  JournalQueuedWake,
  WakeAgentFields,
  WakeCorrelationPort,
  WakeJournal,
  WakeJournalEvent,
} from './wake-ports.js';
import type { WakeStatusEvent } from './wake-status-event.js';

/** Bounded failure detail (contract §9.3: "bounded runtime failure detail"). */
export const DEFAULT_PENDING_CAPACITY = 32;
const TARGET_CACHE_SIZE = 1024;
// issue 19: `enqueue`'s two possible answers, shared instead of built per wake.
const ADMITTED = Object.freeze({ admitted: true });
const NOT_ADMITTED = Object.freeze({ admitted: false });
const NO_FRONTIERS: readonly RecoveryFrontier[] = Object.freeze([]);

/** A wake's terminal as the journal records it: the table's outcome, with the refusal it names (issue 15). */
interface Ended {
  readonly row: PendingDelivery;
  readonly status: TerminalOutcome['status'];
  readonly reason: string | null;
  readonly detail: string | null;
}

/** issue 24 (contract §6.6 "fail closed"): a recovery whose markers could not be saved, and the wakes it failed. */
export interface RecoveryLost {
  readonly agentId: string;
  readonly cause: RecoveryCause;
  /** The original wakes that now end `failed` instead of being continued. */
  readonly wakeTokens: readonly string[];
  /** Why the save failed (bounded). */
  readonly detail: string;
}

export interface AgentProfile {
  readonly agentId: string;
  /** Public technical name (mentions, `dm:@name`). */
  readonly publicName: string;
  readonly displayName: string;
  readonly runtime: RuntimeKind;
  readonly model: string | null;
  /** Language of the agent's prompts (the final-check is rendered in it); default `en`. */
  readonly language?: PromptLanguage;
  /** issue 28: an ACP agent's preset (its tool names in the final-check). */
  readonly preset?: AcpPreset;
}

export interface WakeLifecycleOptions {
  readonly journal: WakeJournal;
  readonly renderFinalCheck: FinalCheckRenderer;
  readonly metrics: WakeMetrics;
  readonly correlation?: WakeCorrelationPort;
  readonly defaultCapacity?: number;
  /** Epoch milliseconds (default `Date.now`); injected so tests and marbles control time. */
  readonly now?: () => number;
  readonly log?: DaemonLog;
  /** issue 24: a recovery could not be saved, so its wakes ended `failed` (the daemon raises an alert). */
  readonly onRecoveryLost?: (lost: RecoveryLost) => void;
  /**
   * issue 27: asked when a wake arrives for an agent not paused: a pause (its daily budget reached)
   * holds admission, so the new wake — and any after it — waits `paused` until `resume`.
   */
  readonly admissionHold?: (agentId: string) => WakePause | null;
}

export interface InboundWake {
  readonly wakeToken: string;
  readonly messageId: string;
  /** Target text as the message carried it; canonicalised here. Unparseable → "reply unavailable". */
  readonly target: string;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
  /** contract §8.3: further exact sendable destinations the input carries (task scope, workflow target). */
  readonly sendableTargets?: readonly TargetKey[];
}

/** Rows to write into the runtime now (admitted from the FIFO queue, or re-offered after replacement). */
export interface WakeDelivery {
  readonly agentId: string;
  readonly generation: number;
  readonly wakes: ReadonlyArray<{
    readonly wakeToken: string;
    readonly messageId: string;
    readonly target: string;
    readonly targetKey: TargetKey | null;
    readonly targetSeq: number;
    readonly deliveryClass: DeliveryClass;
    /**
     * issue 38: the session already holds this wake's input (a usage pause took it back and the
     * limit has reset): write a continuation, never the task again.
     */
    readonly resumed?: boolean;
  }>;
}

export interface FinalCheckInjection {
  readonly generation: number;
  /** The rendered prompt; record it as `prompt_input` kind `final_check` (§6.4, §8.4). */
  readonly finalCheck: string;
  readonly wakeTokens: readonly string[];
}

export type SendScopeCheck =
  | { readonly ok: true; readonly crossTarget: boolean }
  | { readonly ok: false; readonly code: 'out_of_scope' | 'unknown_agent'; readonly message: string };

export interface SendResult {
  readonly agentId: string;
  readonly status: 'sent' | 'already_sent' | (string & {});
  readonly targetKey: TargetKey;
  readonly seenUpToSeq: number;
  /** The stored message id; with `crossTarget` it is audited (§8.3). */
  readonly messageId?: string;
  /** The send passed the scope guard only because `allow_cross_target` was set. */
  readonly crossTarget?: boolean;
}

/** issue 27: why and until when an agent's wakes are paused (kept by the table, its one home: issue 38). */
export type WakePause = TablePause;

interface AgentSlot {
  profile: AgentProfile;
  readonly table: PendingDeliveryTable;
  /** issue 15: the last refused `message_send` seen while each wake was being handled. */
  readonly refusals: Map<string, SendRefusalCode>;
}

export class WakeLifecycle {
  readonly #o: WakeLifecycleOptions;
  readonly #agents = new Map<string, AgentSlot>();
  // issue 19: not RxJS Subjects: their `next` allocates per call (event-stream.ts).
  readonly #status = new EventStream<WakeStatusEvent>();
  readonly #deliveries = new EventStream<WakeDelivery>();
  readonly #now: () => number;
  /** ISO text of the last timestamp: events in the same millisecond share it (hot path). */
  #lastMs = Number.NaN;
  #lastIso = '';
  readonly #targetCache = new Map<string, TargetKey | null>();

  /** Every wake status change (§10.1), after it was persisted. */
  readonly wakeStatus$: Observable<WakeStatusEvent> = this.#status.observable;
  /** Rows the runtime adapter must write into the runtime now; it answers with `onDelivered`. */
  readonly deliveries$: Observable<WakeDelivery> = this.#deliveries.observable;

  constructor(options: WakeLifecycleOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** Registers (or updates the profile of) an agent. Its table starts at generation 0. */
  registerAgent(profile: AgentProfile): void {
    const slot = this.#agents.get(profile.agentId);
    if (slot !== undefined) {
      slot.profile = profile;
      return;
    }
    const capacity = this.#o.defaultCapacity ?? DEFAULT_PENDING_CAPACITY;
    this.#agents.set(profile.agentId, {
      profile,
      table: new PendingDeliveryTable(capacity),
      refusals: new Map(),
    });
  }

  /**
   * After a daemon restart (§8.3: the send scope and the rows of the old process are not
   * restored). The table decides by the recovery rule (recovery-rule.ts, contract §6.6): the
   * wakes the journal holds in flight (`delivered` / `final_check_sent`) end — `reply_sent`
   * (detail `already_sent`) when the agent's stored RepliedUpToSeq covers them, `failed`
   * (`daemon_restarted`) when they cannot be recovered again, else by the ordinary rule — and
   * their exact targets come back as recovery frontiers. This applies it: the terminals and the
   * recovery markers go to the journal in one transaction (issue 24), then to the bus, then
   * `recover` is called with the saved frontiers (the daemon enqueues the one recovery wake) BEFORE
   * the wakes still `queued` re-enter the FIFO in their stored order (§9.1: never dropped, never
   * reordered; the recovered inputs were older).
   */
  restore(
    agentId: string,
    recover?: (frontiers: readonly RecoveryFrontier[]) => void,
    pause?: WakePause | null,
  ): {
    readonly requeued: number;
    readonly ended: number;
    readonly recovery: readonly RecoveryFrontier[];
  } {
    const slot = this.#slot(agentId);
    const journal = this.#o.journal;
    const repliedUpToSeq = (key: TargetKey | null) =>
      key === null ? 0 : (journal.agentCursor?.(agentId, key).repliedUpToSeq ?? 0);
    const inFlight = [
      ...journal.listWakes({ agentId, status: 'delivered' }),
      ...journal.listWakes({ agentId, status: 'final_check_sent' }),
    ].map((w) => {
      const targetKey = this.#canonical(w.target);
      return { ...this.#admission(w, targetKey), recoveries: w.recoveries, repliedUpToSeq: repliedUpToSeq(targetKey) };
    });
    const restored = slot.table.restoreInFlight(inFlight);
    const ended = restored.effects;
    const recovery = this.#apply(slot, ended, restored.recovery, 'daemon_restarted');
    // Always: pending markers of an earlier run are launched here too, before the queued wakes.
    recover?.(recovery);
    // issue 27: the wakes a pause held (always the oldest: every row of the table paused) re-enter
    // first and stay held with the stored pause until the recovery service's timer releases them.
    const paused = journal.listWakes({ agentId, status: 'paused' });
    // A recovery wake just launched waits too (a paused agent's wakes never reach its runtime).
    if (paused.length > 0 || pause)
      this.#apply(
        slot,
        slot.table.pause(null, {
          kind: pause?.kind ?? 'usage_limit',
          resetsAt: pause?.resetsAt ?? null,
          detail: pause?.detail ?? null,
        }),
      );
    const queued = [...paused, ...journal.listWakes({ agentId, status: 'queued' })].map((w) =>
      this.#admission(w, this.#canonical(w.target)),
    );
    const { effects: admitted, requeued } = slot.table.requeue(queued, new Set(paused.map((w) => w.wakeToken)));
    this.#apply(slot, admitted);
    return { requeued, ended: ended.length, recovery };
  }

  /**
   * A routed wake: recorded `queued`, counted, then admitted now or when a row settles. With
   * `recorded`, the caller already stored it `queued` (atomic admission with its message, or a
   * recovery wake launched with its marker, issue 16): it is only counted and admitted here.
   */
  enqueue(
    agentId: string,
    wake: InboundWake,
    options?: { readonly recorded?: boolean },
  ): { readonly admitted: boolean } {
    const slot = this.#slot(agentId);
    if (slot.table.has(wake.wakeToken)) return slot.table.row(wake.wakeToken) !== undefined ? ADMITTED : NOT_ADMITTED;
    const targetKey = this.#canonical(wake.target);
    const target = targetKey ?? wake.target;
    const { runtime } = slot.profile;
    // Routed wakes come from stored messages, whose targets are canonical; an unparseable one is kept as given.
    if (options?.recorded !== true)
      this.#o.journal.insertWake({
        wakeToken: wake.wakeToken,
        messageId: wake.messageId,
        agentId,
        runtime,
        target: target as TargetKey,
        targetSeq: wake.targetSeq,
        deliveryClass: wake.deliveryClass,
        ...this.wakeAgent(agentId),
      });
    this.#o.metrics.received(runtime);
    this.#publish(
      slot,
      wake.wakeToken,
      wake.messageId,
      target,
      wake.targetSeq,
      wake.deliveryClass,
      'queued',
      null,
      null,
      null,
      this.#iso(),
    );
    if (!slot.table.held) {
      const hold = this.#o.admissionHold?.(agentId) ?? null;
      if (hold !== null) slot.table.pause(null, hold);
    }
    const effects = slot.table.enqueue({
      wakeToken: wake.wakeToken,
      messageId: wake.messageId,
      target,
      targetKey,
      targetSeq: wake.targetSeq,
      deliveryClass: wake.deliveryClass,
      sendableTargets: wake.sendableTargets,
    });
    this.#apply(slot, effects);
    return slot.table.row(wake.wakeToken) !== undefined ? ADMITTED : NOT_ADMITTED;
  }

  /**
   * contract §10.1: the agent's public technical name, display name and model as the daemon
   * resolves them now — what a wake accepted now records in the journal (a caller that stores
   * the wake itself, e.g. with its message, spreads this into the record).
   */
  wakeAgent(agentId: string): Required<WakeAgentFields> {
    const p = this.#slot(agentId).profile;
    return { agentName: p.publicName, agentDisplayName: p.displayName, model: p.model };
  }

  /** The adapter wrote these rows into runtime process `generation`: they are runtime-visible. */
  onDelivered(agentId: string, generation: number, wakeTokens: readonly string[]): void {
    const slot = this.#slot(agentId);
    let at: string | undefined;
    for (const token of slot.table.markDelivered(generation, wakeTokens)) {
      const row = slot.table.row(token) as PendingDelivery;
      this.#o.journal.appendWakeEvent({ wakeToken: token, kind: 'status', status: 'delivered' });
      this.#publishRow(slot, row, 'delivered', null, null, null, (at ??= this.#iso()));
    }
  }

  /** The adapter could not write these rows into the runtime: they fail (§9.2 runtime error, scoped to them). */
  onDeliveryFailed(
    agentId: string,
    generation: number,
    wakeTokens: readonly string[],
    detail: string,
    reason: FailureReason = 'runtime_error',
  ): void {
    const slot = this.#slot(agentId);
    if (generation !== slot.table.generation) return;
    for (const token of wakeTokens) {
      this.#apply(slot, slot.table.terminate(token, { status: 'failed', reason, detail: boundedDetail(detail) }));
    }
  }

  /**
   * issue 15: our own refusal of the agent's `message_send` (`rate_limited`, `out_of_scope`,
   * `content_too_large`) is recorded on the wakes its runtime is handling now, and a wake that
   * then ends without a reply names it in its detail.
   */
  onSendRefused(agentId: string, code: SendRefusalCode, message: string): readonly string[] {
    const slot = this.#agents.get(agentId);
    if (slot === undefined) return [];
    const tokens: string[] = [];
    for (const row of slot.table.rows()) {
      if (!slot.table.isVisible(row.wakeToken)) continue;
      slot.refusals.set(row.wakeToken, code);
      this.#o.journal.appendWakeEvent({
        wakeToken: row.wakeToken,
        kind: 'alert',
        reason: code,
        detail: boundedDetail(`message_send refused: ${code}: ${message}`),
      });
      tokens.push(row.wakeToken);
    }
    return tokens;
  }

  /**
   * A turn boundary of process `generation` (contract §8.3, §9.2). Returns the one final-check
   * to inject into the same session (and the adapter must then skip idle/compaction for this
   * boundary), or null. A stale generation, or a boundary after cleanup, is a no-op.
   */
  onTurnBoundary(agentId: string, generation: number, kind: TurnBoundaryKind = 'turn_end'): FinalCheckInjection | null {
    const slot = this.#slot(agentId);
    const result = slot.table.boundary(generation, kind);
    if (result.finalCheck === null) {
      this.#apply(slot, result.effects);
      return null;
    }
    const p = slot.profile;
    const finalCheck = this.#o.renderFinalCheck(result.finalCheck, {
      agentId: p.agentId,
      runtime: p.runtime,
      language: p.language ?? 'en',
      ...(p.preset === undefined ? {} : { preset: p.preset }),
    });
    this.#apply(slot, result.effects);
    const wakeTokens = result.finalCheck.flatMap((g) => g.wakes.map((w) => w.wakeToken));
    return { generation, finalCheck, wakeTokens };
  }

  /** Phase 4: the final-check could not be injected; those rows end no_reply at once, no retry. */
  onFinalCheckUndeliverable(
    agentId: string,
    generation: number,
    wakeTokens: readonly string[],
    detail = 'the final-check could not be delivered to the runtime',
  ): void {
    const slot = this.#slot(agentId);
    this.#apply(
      slot,
      slot.table.finalCheckUndeliverable(generation, wakeTokens, `final_check_undeliverable: ${boundedDetail(detail)}`),
    );
  }

  /** §9.2: every row still in the table ends `failed`. With `processExited`, admission pauses until replacement. */
  onRuntimeError(
    agentId: string,
    generation: number,
    detail: string,
    options: { readonly processExited?: boolean; readonly reason?: FailureReason } = {},
  ): void {
    const slot = this.#slot(agentId);
    this.#apply(
      slot,
      slot.table.runtimeError(
        generation,
        boundedDetail(detail),
        options.processExited ?? false,
        options.reason ?? 'runtime_error',
      ),
    );
  }

  /**
   * issue 27 "pause, don't fail": the turn of `generation` was refused by a usage or rate limit with
   * a known reset (or a budget holds the agent): the table takes its rows back (their place, their
   * final-check kept: issue 38) and they show `paused` (journal, timeline, bus); later wakes wait
   * behind them until `resume`. Returns the tokens paused (none for a stale generation).
   */
  pause(agentId: string, generation: number | null, pause: WakePause): readonly string[] {
    const slot = this.#slot(agentId);
    const effects = slot.table.pause(generation, {
      ...pause,
      detail: pause.detail === null ? null : boundedDetail(pause.detail),
    });
    this.#apply(slot, effects);
    return effects.flatMap((e) => (e.kind === 'paused' ? [e.row.wakeToken] : []));
  }

  /**
   * issue 38: whether these rows of a delivery are still due to be written into process
   * `generation` (asked right before the write: a wake paused or ended meanwhile never reaches the runtime).
   */
  due(agentId: string, generation: number, wakeTokens: readonly string[]): boolean {
    return this.#agents.get(agentId)?.table.due(generation, wakeTokens) ?? false;
  }

  /** issue 27: the agent's pause, if its admission is held (with the wakes it paused). */
  pauseOf(agentId: string): (WakePause & { readonly wakeTokens: readonly string[] }) | null {
    return this.#agents.get(agentId)?.table.pauseState() ?? null;
  }

  /**
   * issue 27: the pause ends (its reset came, the operator's Try now, a budget raised): admission
   * resumes in FIFO order, so the paused wakes go to the runtime again — once: a wake whose input
   * the session already holds as a continuation (issue 38) — before any later one.
   * False when the agent was not paused.
   */
  resume(agentId: string): boolean {
    const slot = this.#slot(agentId);
    if (!slot.table.held) return false;
    this.#apply(slot, slot.table.release());
    return true;
  }

  /**
   * issue 27: the operator cancelled the pause: the paused wakes end `failed/stopped_by_operator`
   * (the operator ended that work; its limit did not), and the wakes behind them are admitted.
   * Returns the tokens ended.
   */
  cancelPause(agentId: string, detail: string): readonly string[] {
    const slot = this.#slot(agentId);
    const effects = slot.table.cancelPause({
      status: 'failed',
      reason: 'stopped_by_operator',
      detail: boundedDetail(detail),
    });
    this.#apply(slot, effects);
    return effects.flatMap((e) => (e.kind === 'terminal' ? [e.row.wakeToken] : []));
  }

  /**
   * issue 29, 38: the turn the daemon asked to end (Stop, a turn timeout) ended — or completed in a
   * race with the interrupt: exactly that turn's wakes (the runtime-visible rows) end `failed` with
   * why it was ended; wakes waiting for a later turn are delivered after it.
   */
  onTurnEnded(agentId: string, generation: number, reason: FailureReason, detail: string): void {
    const slot = this.#slot(agentId);
    this.#apply(slot, slot.table.turnEnded(generation, { status: 'failed', reason, detail: boundedDetail(detail) }));
  }

  /** issue 27: records and publishes a wake the table shows `paused`, with the table's pause. */
  #markPaused(slot: AgentSlot, row: PendingDelivery, at: string): void {
    const pause = slot.table.pauseState();
    if (pause === null) return;
    const detail = this.#pauseDetail(pause);
    this.#o.journal.appendWakeEvent({
      wakeToken: row.wakeToken,
      kind: 'status',
      status: 'paused',
      reason: pause.kind,
      detail,
    });
    this.#publishRow(slot, row, 'paused', pause.kind, detail, null, at);
  }

  #pauseDetail(p: WakePause): string {
    const until = p.resetsAt === null ? 'until further notice' : `until ${new Date(p.resetsAt).toISOString()}`;
    return boundedDetail(`${p.kind} ${until}${p.detail === null ? '' : `; ${p.detail}`}`);
  }

  /**
   * The runtime process exited unexpectedly (issue 16): admission pauses until `onProcessReplaced`,
   * which recovers the runtime-visible rows (§6.6) instead of failing them; only synthetic
   * recovery rows (never recovered twice) end `failed` now. When no replacement comes (the
   * runtime gave up), `onRuntimeError` fails what is left.
   */
  onProcessExited(agentId: string, generation: number, detail: string, reason?: FailureReason): void {
    const slot = this.#slot(agentId);
    this.#apply(slot, slot.table.processExited(generation, boundedDetail(detail), reason));
  }

  /**
   * The runtime's context overflowed and its session cannot go on (issue 16, contract §6.6):
   * runtime-visible rows end (`completed_without_visible_reply/context_overflow`) and come back as
   * recovery frontiers for one recovery continuation per target into the fresh session the agent
   * session starts (issue 24: its process is replaced, never resumed); the markers are saved with
   * their terminals. Returns the frontiers saved.
   */
  onContextReset(agentId: string, generation: number, cause: RecoveryCause): readonly RecoveryFrontier[] {
    const slot = this.#slot(agentId);
    const result = slot.table.contextReset(generation, cause);
    return this.#apply(slot, result.effects, result.recovery, cause);
  }

  /**
   * A new runtime process took over (§6.6, §8.3). The original wakes end `failed` with the old
   * process's exit (issue 24) and the recovery markers of the old process (one per canonical
   * target, highest unresolved TargetSeq) are saved in the same transaction; returns the frontiers
   * saved, for the integrator's synthetic recovery wakes.
   */
  onProcessReplaced(agentId: string, newGeneration: number): readonly RecoveryFrontier[] {
    const slot = this.#slot(agentId);
    const result = slot.table.processReplaced(newGeneration);
    return this.#apply(slot, result.effects, result.recovery, 'process_replaced');
  }

  /** §9.2: only `sent` / `already_sent` with a canonical TargetKey and SeenUpToSeq settle rows. Returns how many. */
  onSendResult(result: SendResult): number {
    const slot = this.#slot(result.agentId);
    if (
      result.crossTarget === true &&
      result.messageId !== undefined &&
      (result.status === 'sent' || result.status === 'already_sent')
    ) {
      // contract §8.3: an explicit cross-target send is allowed and audited.
      // issue 24: on the timelines of the wakes the runtime was handling (runtime-visible rows).
      const wakeTokens: string[] = [];
      for (const row of slot.table.rows()) if (slot.table.isVisible(row.wakeToken)) wakeTokens.push(row.wakeToken);
      this.#o.journal.appendAudit({
        agentId: result.agentId,
        kind: 'cross_target_send',
        target: result.targetKey,
        messageId: result.messageId,
        wakeTokens,
      });
    }
    if (result.status !== 'sent' && result.status !== 'already_sent') return 0;
    if (!Number.isFinite(result.seenUpToSeq)) return 0;
    const effects = slot.table.sendResult(result.targetKey, result.seenUpToSeq);
    this.#apply(slot, effects);
    let settled = 0;
    for (const e of effects) if (e.kind === 'terminal') settled += 1;
    return settled;
  }

  /** Whether a reaction to this message would settle a row of the agent (nothing changes). */
  awaitsReaction(input: { readonly agentId: string; readonly messageId: string }): boolean {
    return this.#slot(input.agentId).table.awaitsReaction(input.messageId);
  }

  /** §9.2: a confirmed reaction to the triggering message settles exactly that row. */
  onReactionConfirmed(input: { readonly agentId: string; readonly messageId: string }): boolean {
    const slot = this.#slot(input.agentId);
    const effects = slot.table.reactionConfirmed(input.messageId);
    this.#apply(slot, effects);
    return effects.some((e) => e.kind === 'terminal');
  }

  /** Local assistant text (§6.5): only its byte and rune counts are kept; the text is dropped here. */
  onLocalText(agentId: string, generation: number, text: string): void {
    this.onLocalTextCounts(agentId, generation, textMetrics(text));
  }

  /** The same, for adapters that already reduced the text to its counts (contract §6.5: they never hand it over). */
  onLocalTextCounts(
    agentId: string,
    generation: number,
    counts: { readonly bytes: number; readonly runes: number },
  ): void {
    const slot = this.#slot(agentId);
    slot.table.noteLocalText(generation, counts.bytes, counts.runes);
    // issue 30: a disabled debug level builds no fields object (daemon-log.ts).
    if (this.#o.log?.debugEnabled !== true) return;
    this.#o.log.debug('wake: local runtime text observed (not relayed)', {
      agentId,
      generation,
      bytes: counts.bytes,
      runes: counts.runes,
    });
  }

  /**
   * The turn message-send scope guard (§8.3), called by the MCP server before it writes
   * anything. Only exact destinations of runtime-visible inputs of the live generation pass;
   * anything else needs `allow_cross_target` (then allowed and audited on the send result).
   * Never falls back to "the latest delivery".
   */
  checkSendScope(agentId: string, targetKey: TargetKey, allowCrossTarget: boolean): SendScopeCheck {
    const slot = this.#agents.get(agentId);
    if (slot === undefined)
      return {
        ok: false,
        code: 'unknown_agent',
        message: `No agent "${agentId}" is registered with the daemon; check agentteam.json.`,
      };
    if (slot.table.inScope(targetKey)) return { ok: true, crossTarget: false };
    if (allowCrossTarget) return { ok: true, crossTarget: true };
    return {
      ok: false,
      code: 'out_of_scope',
      message: `"${targetKey}" is not the exact target of an input you are handling now. Reply with the exact target given in the message you received, or set allow_cross_target=true to send there on purpose.`,
    };
  }

  /** Rows of an agent in FIFO order (inspection and tests). */
  pending(agentId: string): ReadonlyArray<Readonly<PendingDelivery>> {
    return [...this.#slot(agentId).table.rows()];
  }
  /**
   * watchdog spec A: the wakes the runtime is working on now, of those `carried` by its turn
   * (listed at turn.start) and those written into the running turn since (a runtime may show a
   * message written mid-turn inside that turn). A row still waiting for its delivery is not
   * being worked on; an ended wake is in no table. Carried first, in order, each once.
   */
  workingOn(agentId: string, carried: readonly string[]): string[] {
    const table = this.#slot(agentId).table;
    const tokens = new Set(carried);
    for (const row of table.rows()) tokens.add(row.wakeToken);
    return [...tokens].filter((wakeToken) => table.isVisible(wakeToken));
  }
  queued(agentId: string): number {
    return this.#slot(agentId).table.queued;
  }
  generation(agentId: string): number {
    return this.#slot(agentId).table.generation;
  }

  /** Completes the streams. The lifecycle holds no timers, so nothing else needs stopping. */
  dispose(): void {
    this.#status.complete();
    this.#deliveries.complete();
  }

  #slot(agentId: string): AgentSlot {
    const slot = this.#agents.get(agentId);
    // A bug, not a boundary error: the integrator registers every configured agent at start.
    if (slot === undefined) throw new Error(`internal: wake lifecycle has no agent "${agentId}"`);
    return slot;
  }

  /**
   * Applies the table's effects: each terminal to the journal, then to the metrics and the bus;
   * admitted rows go out as one delivery. With recovery `frontiers` (issue 24, contract §6.6) the
   * terminals and the recovery markers are written in ONE transaction before anything is
   * announced; if that write fails, the recovery is not lost silently: the wakes it would have
   * continued end `failed` with the session's failure reason, `onRecoveryLost` raises an alert, and
   * no frontier is returned. Returns the frontiers saved.
   */
  #apply(
    slot: AgentSlot,
    effects: readonly TableEffect[],
    frontiers: readonly RecoveryFrontier[] = NO_FRONTIERS,
    cause?: RecoveryCause,
  ): readonly RecoveryFrontier[] {
    // Two phases only when a recovery must commit with its terminals; the hot path writes and
    // announces each terminal at once (issue 19: no per-batch arrays).
    const ends =
      frontiers.length > 0 && cause !== undefined ? this.#persistRecovery(slot, effects, frontiers, cause) : null;
    let admitted: PendingDelivery[] | null = null;
    // issue 19: one clock read per batch of effects (the events of one transition share its time);
    // read lazily, so a batch that publishes nothing reads no clock.
    let at: string | undefined;
    let k = 0;
    for (const effect of effects) {
      const row = effect.row;
      switch (effect.kind) {
        case 'admitted':
          (admitted ??= []).push(row);
          break;
        case 'paused':
          this.#markPaused(slot, row, (at ??= this.#iso()));
          break;
        case 'unpaused':
          this.#o.journal.appendWakeEvent({ wakeToken: row.wakeToken, kind: 'status', status: 'queued' });
          this.#publishRow(slot, row, 'queued', null, null, null, (at ??= this.#iso()));
          break;
        case 'final_check_sent':
          this.#o.journal.appendWakeEvent({
            wakeToken: row.wakeToken,
            kind: 'final_check',
            status: 'final_check_sent',
          });
          this.#publishRow(slot, row, 'final_check_sent', null, null, null, (at ??= this.#iso()));
          break;
        case 'terminal': {
          let end: Ended | null;
          if (ends === null) {
            end = this.#ended(slot, row, effect.outcome);
            if (!this.#write(end)) end = null;
          } else end = ends.ended[k++] ?? null;
          if (end === null) {
            this.#o.log?.warn('wake: journal refused a second terminal status', {
              wakeToken: row.wakeToken,
              status: effect.outcome.status,
            });
            break;
          }
          this.#announceEnd(slot, end, (at ??= this.#iso()));
          break;
        }
      }
    }
    if (admitted !== null) {
      // Group by generation: re-offered rows after a replacement share the new one.
      const generation = admitted[0]?.generation ?? slot.table.generation;
      // The rows themselves, not a copy of each (issue 19): the fields a delivery carries are
      // readonly on a row, so a consumer reading them later (after `await`) sees the same values.
      this.#deliveries.next({ agentId: slot.profile.agentId, generation, wakes: admitted });
    }
    return ends === null ? frontiers : ends.saved;
  }

  /**
   * issue 24: the terminals of a recovery's transition and its markers, in one transaction. On
   * failure (fail closed, §6.6) the covered wakes end `failed` instead, written one by one; a
   * store that refuses even those is logged, never thrown at the caller (a runtime event's
   * subscriber). Returns, in effect order, what was written for each terminal (null: nothing).
   */
  #persistRecovery(
    slot: AgentSlot,
    effects: readonly TableEffect[],
    frontiers: readonly RecoveryFrontier[],
    cause: RecoveryCause,
  ): { readonly ended: ReadonlyArray<Ended | null>; readonly saved: readonly RecoveryFrontier[] } {
    const { journal, log } = this.#o;
    const agentId = slot.profile.agentId;
    const ends: Ended[] = [];
    for (const e of effects) if (e.kind === 'terminal') ends.push(this.#ended(slot, e.row, e.outcome));
    const markers = frontiers.map((f) => ({
      target: f.target,
      frontierSeq: f.targetSeq,
      wakeTokens: f.wakeTokens ?? [f.wakeToken],
    }));
    try {
      const written = journal.transaction(() => {
        const w = ends.map((end) => (this.#write(end) ? end : null));
        journal.saveRecoveryBatch(agentId, markers, cause);
        return w;
      });
      return { ended: written, saved: frontiers };
    } catch (err) {
      const why = boundedDetail(err instanceof Error ? err.message : String(err));
      const covered = new Set(markers.flatMap((m) => m.wakeTokens));
      log?.error('wake: the recovery could not be saved; its wakes end failed', { agentId, cause, error: why });
      const failed = ends.map((end): Ended | null => {
        const closed: Ended = covered.has(end.row.wakeToken)
          ? {
              row: end.row,
              status: 'failed',
              reason: end.status === 'failed' ? end.reason : failureReasonOf(cause),
              detail: boundedDetail(
                `the recovery continuation could not be saved (${why})${end.detail === null ? '' : `; ${end.detail}`}`,
              ),
            }
          : end;
        try {
          return this.#write(closed) ? closed : null;
        } catch (writeErr) {
          log?.error('wake: the journal refused a failed terminal', {
            wakeToken: end.row.wakeToken,
            error: writeErr instanceof Error ? writeErr.message : String(writeErr),
          });
          return null;
        }
      });
      try {
        this.#o.onRecoveryLost?.({ agentId, cause, wakeTokens: [...covered], detail: why });
      } catch (alertErr) {
        // The alert writes to the same store: a store that refuses it is logged, never thrown at the runtime's subscriber.
        log?.error('wake: the alert of a lost recovery could not be raised', {
          agentId,
          error: alertErr instanceof Error ? alertErr.message : String(alertErr),
        });
      }
      return { ended: failed, saved: NO_FRONTIERS };
    }
  }

  /** The terminal of a row as the journal records it (issue 15: it names the refusal it follows). */
  #ended(slot: AgentSlot, row: PendingDelivery, outcome: TerminalOutcome): Ended {
    const { status, reason } = outcome;
    let refusal: SendRefusalCode | undefined;
    if (slot.refusals.size > 0) {
      refusal = slot.refusals.get(row.wakeToken);
      slot.refusals.delete(row.wakeToken);
    }
    const detail =
      refusal !== undefined && status !== 'reply_sent'
        ? boundedDetail(`message_send refused: ${refusal}${outcome.detail ? `; ${outcome.detail}` : ''}`)
        : outcome.detail;
    return { row, status, reason, detail };
  }

  /** The journal is the durable half of "one terminal per wake, ever" (§6.2): false when it refused. */
  #write(end: Ended): boolean {
    // Keys absent when there is none (the port's shape); built without spread copies (issue 19).
    const event: { -readonly [K in keyof WakeJournalEvent]: WakeJournalEvent[K] } = {
      wakeToken: end.row.wakeToken,
      kind: 'status',
      status: end.status,
    };
    if (end.reason !== null) event.reason = end.reason;
    if (end.detail !== null) event.detail = end.detail;
    return this.#o.journal.appendWakeEvent(event);
  }

  /** A written terminal: retry ownership released (§9.4), counted, published. */
  #announceEnd(slot: AgentSlot, end: Ended, at: string): void {
    const { row, status, reason, detail } = end;
    this.#o.correlation?.release(row.wakeToken);
    const { runtime } = slot.profile;
    if (status === 'reply_sent') this.#o.metrics.replySent(runtime);
    else if (status === 'failed') this.#o.metrics.failed(runtime);
    else this.#o.metrics.completedWithoutVisibleReply(runtime, reason as string);
    const localText = row.localTextBytes > 0 ? { bytes: row.localTextBytes, runes: row.localTextRunes } : null;
    this.#publishRow(slot, row, status, reason, detail, localText, at);
  }

  /** A stored wake as the table takes it (the journal keeps no sendable targets: §8.3, not restored). */
  #admission(w: JournalQueuedWake, targetKey: TargetKey | null): WakeAdmission {
    return {
      wakeToken: w.wakeToken,
      messageId: w.messageId,
      target: w.target,
      targetKey,
      targetSeq: w.targetSeq,
      deliveryClass: w.deliveryClass,
      ...(w.finalCheck === true ? { finalCheckSent: true } : {}),
    };
  }

  /** Canonical TargetKey of a target text, or null; memoised (targets are few, the cache is bounded). */
  #canonical(text: string): TargetKey | null {
    const hit = this.#targetCache.get(text);
    if (hit !== undefined) return hit;
    const parsed = parseTarget(text);
    const key = parsed.ok ? parsed.key : null;
    if (this.#targetCache.size >= TARGET_CACHE_SIZE) this.#targetCache.clear();
    this.#targetCache.set(text, key);
    return key;
  }

  #iso(): string {
    const ms = this.#now();
    if (ms !== this.#lastMs) {
      this.#lastMs = ms;
      this.#lastIso = new Date(ms).toISOString();
    }
    return this.#lastIso;
  }

  #publishRow(
    slot: AgentSlot,
    row: PendingDelivery,
    status: WakeStatus,
    reason: string | null,
    detail: string | null,
    localText: WakeStatusEvent['localText'],
    at: string,
  ): void {
    this.#publish(
      slot,
      row.wakeToken,
      row.messageId,
      row.target,
      row.targetSeq,
      row.deliveryClass,
      status,
      reason,
      detail,
      localText,
      at,
    );
  }

  /** The row's fields as arguments, not an object: a queued wake has no row yet (issue 19: no copy per event). */
  #publish(
    slot: AgentSlot,
    wakeToken: string,
    messageId: string,
    target: string,
    targetSeq: number,
    deliveryClass: DeliveryClass,
    status: WakeStatus,
    reason: string | null,
    detail: string | null,
    localText: WakeStatusEvent['localText'],
    at: string,
  ): void {
    const p = slot.profile;
    const event: WakeStatusEvent = {
      type: 'wake_status',
      wakeToken,
      messageId,
      agentId: p.agentId,
      agentName: p.publicName,
      agentDisplayName: p.displayName,
      runtime: p.runtime,
      model: p.model,
      target,
      targetSeq,
      deliveryClass,
      status,
      reason,
      detail,
      localText,
      at,
    };
    // issue 19: the line is written synchronously to stderr; at info on every transition it cost
    // 13 % of the daemon's CPU under 20 busy agents. Operators need the outcome (terminal
    // statuses, §6.2) at info; queued/delivered/final_check_sent are in the journal and at debug.
    // contract §10.1: the terminal line carries who (id, technical and display name), runtime,
    // model and target; the agent id is a log field, never a metric label (wake-metrics.ts).
    if (isTerminal(status))
      this.#o.log?.info('wake status', {
        wakeToken,
        agentId: p.agentId,
        agentName: p.publicName,
        agentDisplayName: p.displayName,
        runtime: p.runtime,
        model: p.model,
        target,
        status,
        reason,
      });
    // issue 30: every non-terminal transition passes here; with debug off it allocates no fields.
    else if (this.#o.log?.debugEnabled === true)
      this.#o.log.debug('wake status', { wakeToken, agentId: p.agentId, status, reason });
    this.#status.next(event);
  }
}
