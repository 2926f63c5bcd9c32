/**
 * The wake lifecycle service: one pure `PendingDeliveryTable` per agent runtime process, whose
 * effects it applies through ports — the journal (store), metrics and the `wake_status` bus, whose
 * terminals the delivery tracker hears (wake-effects.ts; the events built by wake-status-publisher.ts, restarts
 * and recoveries journaled by recovery-journal.ts) — plus the turn message-send scope guard the
 * MCP server calls. The send decisions around it (refusals, audit) are the communication service's.
 * Synchronous and timer-free (DESIGN.md "Reactive core"): the runtime adapter reports turn
 * boundaries and asks whether a final-check is due; the watchdog and retries live elsewhere.
 */
import type { Observable } from 'rxjs';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import type { FailureReason, SendRefusalCode } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { boundedDetail, textMetrics } from '../diagnostics.js';
import type { WakeMetrics } from '../metrics/wake-metrics.js';
import type {
  DeliveryClass,
  PendingDelivery,
  RecoveryCause,
  RecoveryFrontier,
  TableEffect,
  TablePause,
  TurnBoundaryKind,
  WakeAdmission,
} from './pending-delivery.js';
import { PendingDeliveryTable } from './pending-delivery-table.js';
import { RecoveryJournal, type RecoveryLost } from './recovery-journal.js';
import { WakeEffects, type AgentSlot, type WakeDelivery } from './wake-effects.js';
import { EventStream } from './event-stream.js';
import type { FinalCheckRenderer, WakeAgentFields, WakeJournal } from './wake-ports.js';
import type { WakeStatusEvent } from './wake-status-event.js';
import { WakeStatusPublisher, type AgentProfile } from './wake-status-publisher.js';

// The lifecycle's public types, where their callers have always imported them from.
export type { RecoveryLost } from './recovery-journal.js';
export type { WakeDelivery } from './wake-effects.js';
export type { AgentProfile } from './wake-status-publisher.js';

const TARGET_CACHE_SIZE = 1024;
// issue 19: `enqueue`'s two possible answers, shared instead of built per wake.
const ADMITTED = Object.freeze({ admitted: true });
const NOT_ADMITTED = Object.freeze({ admitted: false });

export interface WakeLifecycleOptions {
  readonly journal: WakeJournal;
  readonly renderFinalCheck: FinalCheckRenderer;
  readonly metrics: WakeMetrics;
  /**
   * Rows a runtime process may hold in its pending-delivery FIFO: shared/config.ts
   * `limits.pendingCapacity`, the one home of its default (issue 39: the lifecycle keeps none).
   */
  readonly pendingCapacity: number;
  /** Epoch milliseconds (default `Date.now`); injected so tests and marbles control time. */
  readonly now?: () => number;
  readonly log?: DaemonLog;
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
}

/** issue 27: why and until when an agent's wakes are paused (kept by the table, its one home: issue 38). */
export type WakePause = TablePause;

export class WakeLifecycle {
  readonly #o: WakeLifecycleOptions;
  readonly #agents = new Map<string, AgentSlot>();
  readonly #recovery: RecoveryJournal;
  readonly #effects: WakeEffects;
  readonly #targetCache = new Map<string, TargetKey | null>();
  readonly #canonicalOf = (text: string) => this.#canonical(text);

  /** Every wake status change (§10.1), after it was persisted. */
  readonly wakeStatus$: Observable<WakeStatusEvent>;
  /** Rows the runtime adapter must write into the runtime now; it answers with `onDelivered`. */
  readonly deliveries$: Observable<WakeDelivery>;
  readonly #lost = new EventStream<RecoveryLost>();
  /** issue 24: a recovery could not be saved, so its wakes ended `failed` (the alerts tell the operator). */
  readonly recoveryLost$: Observable<RecoveryLost> = this.#lost.observable;

  constructor(options: WakeLifecycleOptions) {
    this.#o = options;
    const status = new WakeStatusPublisher(options.now ?? Date.now, options.log);
    const recovery = (this.#recovery = new RecoveryJournal(options.journal, options.log, this.#lost));
    this.#effects = new WakeEffects({ ...options, status, recovery });
    this.wakeStatus$ = status.events$;
    this.deliveries$ = this.#effects.deliveries$;
  }

  /** Registers (or updates the profile of) an agent. Its table starts at generation 0. */
  registerAgent(profile: AgentProfile): void {
    const slot = this.#agents.get(profile.agentId);
    if (slot !== undefined) {
      slot.profile = profile;
      return;
    }
    this.#agents.set(profile.agentId, { profile, table: new PendingDeliveryTable(this.#o.pendingCapacity) });
  }

  /**
   * After a daemon restart: the agent's wakes in flight end by the recovery rule, their recovery
   * is saved with their terminals and launched by `recover`, then the wakes still waiting re-enter
   * the FIFO in their stored order, held by `pause` if the agent is paused (recovery-journal.ts).
   */
  restore(
    agentId: string,
    recover?: (frontiers: readonly RecoveryFrontier[]) => void,
    pause?: WakePause | null,
  ): { readonly requeued: number; readonly ended: number; readonly recovery: readonly RecoveryFrontier[] } {
    const slot = this.#slot(agentId);
    const apply = (effects: readonly TableEffect[], frontiers?: readonly RecoveryFrontier[], cause?: RecoveryCause) =>
      this.#effects.apply(slot, effects, frontiers, cause);
    return this.#recovery.restore({ agentId, table: slot.table, apply, canonical: this.#canonicalOf, recover, pause });
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
    // One object, recorded, published `queued` and handed to the table (issue 19: no copy per event).
    // Routed wakes come from stored messages, whose targets are canonical; an unparseable one is kept as given.
    const admission: WakeAdmission = {
      wakeToken: wake.wakeToken,
      messageId: wake.messageId,
      target: targetKey ?? wake.target,
      targetKey,
      targetSeq: wake.targetSeq,
      deliveryClass: wake.deliveryClass,
      sendableTargets: wake.sendableTargets,
    };
    this.#effects.received(slot, admission, options?.recorded === true);
    if (!slot.table.held) {
      const hold = this.#o.admissionHold?.(agentId) ?? null;
      if (hold !== null) slot.table.pause(null, hold);
    }
    this.#effects.apply(slot, slot.table.enqueue(admission));
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
    this.#effects.delivered(slot, slot.table.markDelivered(generation, wakeTokens));
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
    const outcome = { status: 'failed', reason, detail: boundedDetail(detail) } as const;
    for (const token of wakeTokens) this.#effects.apply(slot, slot.table.terminate(token, outcome));
  }

  /**
   * issue 15: our own refusal of the agent's `message_send` (`rate_limited`, `out_of_scope`,
   * `content_too_large`) is charged to the wakes its runtime is handling now (the communication
   * service decides and records it); a wake that then ends without a reply names it in its detail.
   * Returns the tokens charged (none for an unknown agent).
   */
  chargeRefusal(agentId: string, code: SendRefusalCode): readonly string[] {
    return this.#agents.get(agentId)?.table.chargeRefusal(code) ?? [];
  }

  /**
   * contract §9.2 asked, not applied (issue 39: the rule's one owner is the table): the agent's
   * runtime-visible wakes in FIFO order, each with whether a `sent` result on `targetKey` covering
   * `seenUpToSeq` settles it (the communication service routes a reply by them, issue 25).
   */
  handling(
    agentId: string,
    targetKey: TargetKey,
    seenUpToSeq: number,
  ): ReadonlyArray<{ readonly wakeToken: string; readonly settled: boolean }> {
    return this.#agents.get(agentId)?.table.handling(targetKey, seenUpToSeq) ?? [];
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
      this.#effects.apply(slot, result.effects);
      return null;
    }
    const p = slot.profile;
    const finalCheck = this.#o.renderFinalCheck(result.finalCheck, {
      agentId: p.agentId,
      runtime: p.runtime,
      language: p.language ?? 'en',
      ...(p.preset === undefined ? {} : { preset: p.preset }),
      ...(p.agentTools === undefined ? {} : { agentTools: p.agentTools }),
    });
    this.#effects.apply(slot, result.effects);
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
    const why = `final_check_undeliverable: ${boundedDetail(detail)}`;
    this.#effects.apply(slot, slot.table.finalCheckUndeliverable(generation, wakeTokens, why));
  }

  /** §9.2: every row still in the table ends `failed`. With `processExited`, admission pauses until replacement. */
  onRuntimeError(
    agentId: string,
    generation: number,
    detail: string,
    options: { readonly processExited?: boolean; readonly reason?: FailureReason } = {},
  ): void {
    const slot = this.#slot(agentId);
    const { processExited = false, reason = 'runtime_error' } = options;
    this.#effects.apply(slot, slot.table.runtimeError(generation, boundedDetail(detail), processExited, reason));
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
    this.#effects.apply(slot, effects);
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
    this.#effects.apply(slot, slot.table.release());
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
    this.#effects.apply(slot, effects);
    return effects.flatMap((e) => (e.kind === 'terminal' ? [e.row.wakeToken] : []));
  }

  /**
   * issue 29, 38: the turn the daemon asked to end (Stop, a turn timeout) ended — or completed in a
   * race with the interrupt: exactly that turn's wakes (the runtime-visible rows) end `failed` with
   * why it was ended; wakes waiting for a later turn are delivered after it.
   */
  onTurnEnded(agentId: string, generation: number, reason: FailureReason, detail: string): void {
    const slot = this.#slot(agentId);
    this.#effects.apply(
      slot,
      slot.table.turnEnded(generation, { status: 'failed', reason, detail: boundedDetail(detail) }),
    );
  }

  /**
   * The runtime process exited unexpectedly (issue 16): admission pauses until `onProcessReplaced`,
   * which recovers the runtime-visible rows (§6.6) instead of failing them; only synthetic
   * recovery rows (never recovered twice) end `failed` now. When no replacement comes (the
   * runtime gave up), `onRuntimeError` fails what is left.
   */
  onProcessExited(agentId: string, generation: number, detail: string, reason?: FailureReason): void {
    const slot = this.#slot(agentId);
    this.#effects.apply(slot, slot.table.processExited(generation, boundedDetail(detail), reason));
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
    return this.#effects.apply(slot, result.effects, result.recovery, cause);
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
    return this.#effects.apply(slot, result.effects, result.recovery, 'process_replaced');
  }

  /** §9.2: only `sent` / `already_sent` with a canonical TargetKey and SeenUpToSeq settle rows. Returns how many. */
  onSendResult(result: SendResult): number {
    const slot = this.#slot(result.agentId);
    if (result.status !== 'sent' && result.status !== 'already_sent') return 0;
    if (!Number.isFinite(result.seenUpToSeq)) return 0;
    const effects = slot.table.sendResult(result.targetKey, result.seenUpToSeq);
    this.#effects.apply(slot, effects);
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
    this.#effects.apply(slot, effects);
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
    const { bytes, runes } = counts;
    this.#slot(agentId).table.noteLocalText(generation, bytes, runes);
    // issue 30: a disabled debug level builds no fields object (daemon-log.ts).
    if (this.#o.log?.debugEnabled === true)
      this.#o.log.debug('wake: local runtime text observed (not relayed)', { agentId, generation, bytes, runes });
  }

  /**
   * The turn message-send scope guard (§8.3), called by the MCP server before it writes
   * anything. Only exact destinations of runtime-visible inputs of the live generation pass;
   * anything else needs `allow_cross_target` (then allowed, and audited by the communication service).
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
    this.#effects.complete();
    this.#lost.complete();
  }

  #slot(agentId: string): AgentSlot {
    const slot = this.#agents.get(agentId);
    // A bug, not a boundary error: the integrator registers every configured agent at start.
    if (slot === undefined) throw new Error(`internal: wake lifecycle has no agent "${agentId}"`);
    return slot;
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
}
