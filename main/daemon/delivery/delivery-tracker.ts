/**
 * Response delivery confirmation (watchdog spec part B). Every outbound response gets a
 * `turn_id` + `response_id` (UUID) pair; each chunk is tracked independently through the
 * pure state machine of delivery-state.ts, driven by the chunk-flow.ts pipeline on the injected
 * RxJS scheduler (ACK timeout; retry after `retryDelayMs`, or `retry_after` of a 429 when longer,
 * with identical content and the same response_id). A response is its chunks in order
 * (`concatMap`), concluded once; the Promise of `send` is only the boundary to its callers. The MCP `message_send` tool calls `send`; its result is what the tool
 * returns (`sent | already_sent` + message ids and seq), and every confirmed chunk is emitted
 * as `message.delivered` on the bus, which is what resets the silence watchdog.
 *
 * Alerts (`alertOnFailure`, `alertOnNoResponse`) are status-surface entries on `alert$`; the app
 * adds OS notifications. They are never chat messages authored as the agent (UI.md).
 */
import { randomUUID } from 'node:crypto';
import {
  Observable,
  ReplaySubject,
  Subject,
  Subscription,
  asyncScheduler,
  concatMap,
  defer,
  from,
  lastValueFrom,
  map,
  toArray,
  type SchedulerLike,
} from 'rxjs';
import type { ResponseDeliveryConfig } from '../../../shared/config.js';
import type { AckStatus, ChunkFinal, DeliveryPurpose } from '../bus/delivery-words.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { Channel } from './channel.js';
import { chunkFlow } from './chunk-flow.js';
import type { UndeliveredPort, UndeliveredRow } from './delivery-ports.js';
import type { ChunkPolicy, ChunkState } from './delivery-state.js';

export interface SendRequest {
  readonly turnId: string;
  readonly agentId: string;
  /** Canonical TargetKey text. */
  readonly target: string;
  /** The whole response; ignored when `chunks` is given. */
  readonly content: string;
  /** Pre-split chunks, each delivered and confirmed independently, in order. */
  readonly chunks?: readonly string[];
  /** A caller-stable id makes a repeated call (e.g. after a daemon restart) a replay, not a second message. */
  readonly responseId?: string;
  /** `beacon`: a silence beacon posted as a channel message (never counts as the turn's outbound). */
  readonly purpose?: DeliveryPurpose;
  /** Deliver on this named channel (e.g. `telegram` for a bound conversation) instead of the target's own. */
  readonly channel?: string;
}

export interface ChunkOutcome {
  readonly chunkIndex: number;
  readonly state: ChunkFinal;
  readonly attempts: number;
  readonly messageId: string | null;
  readonly seq: number | null;
  readonly ack: AckStatus | null;
  readonly failure: string | null;
}

interface OutcomeBase {
  readonly responseId: string;
  /** Message ids of the delivered chunks, in chunk order. */
  readonly messageIds: readonly string[];
  /** TargetSeq of the last delivered chunk (null if none or the channel has none). */
  readonly seq: number | null;
  readonly chunks: readonly ChunkOutcome[];
}

export type SendOutcome =
  | (OutcomeBase & { readonly status: AckStatus })
  | (OutcomeBase & {
      readonly status: 'failed_final' | 'uncertain';
      /** Stable code of the first chunk that did not reach `delivered`. */
      readonly code: string;
      /** Neutral, actionable text for the tool result and the inspector. */
      readonly message: string;
      /** Kept durably for re-delivery on the next inbound message of the target. */
      readonly preserved: boolean;
    });

export type DeliveryAlertKind = 'delivery_failed' | 'delivery_uncertain' | 'no_response';

/** Shaped like the API contract's `Alert` plus the ids the daemon correlates on. */
export interface DeliveryAlert {
  readonly id: string;
  readonly kind: DeliveryAlertKind;
  readonly turnId: string | null;
  readonly agentId: string;
  readonly channel: string;
  readonly target: string | null;
  readonly wakeToken: string | null;
  readonly responseId: string | null;
  /** Neutral status copy (UI.md); never written as the agent. */
  readonly message: string;
  readonly at: string;
}

/** A turn of an operator-triggered wake ended with zero outbound responses: the wake lifecycle takes over (final-check first). */
export interface NoResponseEvent {
  readonly turnId: string;
  readonly agentId: string;
  readonly channel: string;
  readonly wakeTokens: readonly string[];
}

export interface DeliveryStats {
  attempts: number;
  retries: number;
  delivered: number;
  failedFinal: number;
  uncertain: number;
  lateAcksSuppressed: number;
  preserved: number;
  redelivered: number;
}

export interface DeliveryTrackerOptions {
  readonly bus: HookBus;
  /** The channel that delivers to a target (the local conversation channel for local targets). */
  readonly channelFor: (target: string) => Channel;
  /** A channel by config name, for requests naming one and for re-delivering on the channel that failed. */
  readonly channelNamed?: (name: string) => Channel | undefined;
  /** Effective `responseDelivery` settings of a channel, e.g. `(c) => channelSettings(config, c).responseDelivery`. */
  readonly settingsFor: (channel: string) => ResponseDeliveryConfig;
  readonly undelivered: UndeliveredPort;
  /** Defaults to `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  readonly newId?: () => string;
  /** No ACK within this time is an ambiguous outcome (`ack_timeout`). Default 30 s. */
  readonly ackTimeoutMs?: number;
  /** How many recent response ids answer a repeated `send` as a replay. Default 4096. */
  readonly dedupeWindow?: number;
}

export const ALERT_COPY = {
  delivery_failed_kept: 'Reply not delivered — kept for re-delivery',
  delivery_failed: 'Reply not delivered',
  delivery_uncertain: 'Delivery unconfirmed',
  no_response: 'Received — back to idle',
} as const;

interface TurnInfo {
  readonly agentId: string;
  readonly channel: string;
  /** Released one by one as the wakes end (contract §9.4). */
  wakeTokens: readonly string[];
  outbound: number;
}

interface ChunkJob {
  readonly turnId: string;
  readonly agentId: string;
  readonly target: string;
  readonly channel: Channel;
  readonly config: ResponseDeliveryConfig;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly chunkCount: number;
  readonly content: string;
  readonly redelivered: boolean;
  readonly purpose: DeliveryPurpose;
}

export class DeliveryTracker {
  private readonly bus: HookBus;
  private readonly scheduler: SchedulerLike;
  private readonly newId: () => string;
  private readonly ackTimeoutMs: number;
  private readonly dedupeWindow: number;
  private readonly responses = new Map<string, Promise<SendOutcome>>();
  private readonly turns = new Map<string, TurnInfo>();
  /** Emits (and replays) at stop(): every chunk flow, running or starting, settles now. */
  private readonly stopping = new ReplaySubject<void>(1);
  /** Running chunk flows (one removes itself when it completes). */
  private readonly flows = new Subscription();
  private readonly alerts = new Subject<DeliveryAlert>();
  private readonly noResponses = new Subject<NoResponseEvent>();
  private readonly subscriptions: Subscription[];
  private stopped = false;

  readonly stats: DeliveryStats = {
    attempts: 0,
    retries: 0,
    delivered: 0,
    failedFinal: 0,
    uncertain: 0,
    lateAcksSuppressed: 0,
    preserved: 0,
    redelivered: 0,
  };
  readonly alert$: Observable<DeliveryAlert> = this.alerts.asObservable();
  /** spec B "NO_RESPONSE_DETECTED": handed to the wake lifecycle, which sends the final-check first. */
  readonly noResponse$: Observable<NoResponseEvent> = this.noResponses.asObservable();

  constructor(private readonly options: DeliveryTrackerOptions) {
    this.bus = options.bus;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.newId = options.newId ?? randomUUID;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 30_000;
    this.dedupeWindow = options.dedupeWindow ?? 4096;
    this.subscriptions = [
      options.bus.turnStart$.subscribe((e) =>
        this.turns.set(e.turnId, { agentId: e.agentId, channel: e.channel, wakeTokens: e.wakeTokens, outbound: 0 }),
      ),
      options.bus.responseOutbound$.subscribe((e) => {
        const turn = this.turns.get(e.turnId);
        if (turn !== undefined && e.purpose === 'reply') turn.outbound += 1;
      }),
      options.bus.turnEnd$.subscribe((e) => {
        const turn = this.turns.get(e.turnId);
        if (turn === undefined) return;
        this.turns.delete(e.turnId);
        // Only an operator-triggered turn (one serving wakes) can be missing a response.
        if (turn.outbound === 0 && turn.wakeTokens.length > 0)
          this.noResponses.next({
            turnId: e.turnId,
            agentId: turn.agentId,
            channel: turn.channel,
            wakeTokens: turn.wakeTokens,
          });
      }),
    ];
  }

  /**
   * contract §9.4 (issue 16): a wake reached its terminal status; no retry or no-response check
   * of a running turn is owned by it any longer (the wake lifecycle's correlation port).
   */
  releaseWake(wakeToken: string): void {
    for (const turn of this.turns.values())
      if (turn.wakeTokens.includes(wakeToken)) turn.wakeTokens = turn.wakeTokens.filter((t) => t !== wakeToken);
  }

  /**
   * Delivers one response (all its chunks, in order) and resolves once every chunk reached
   * exactly one final state. A repeated call with a `responseId` still remembered answers the
   * first outcome again (`already_sent` when it was delivered) without sending anything.
   */
  send(request: SendRequest): Promise<SendOutcome> {
    const responseId = request.responseId ?? this.newId();
    if (this.stopped) {
      return Promise.resolve({
        status: 'failed_final',
        responseId,
        messageIds: [],
        seq: null,
        chunks: [],
        code: 'daemon_stopped',
        message: 'The daemon is stopping; nothing was sent. Send it again after it restarts.',
        preserved: false,
      });
    }
    const previous = this.responses.get(responseId);
    if (previous !== undefined)
      return previous.then((o) => (o.status === 'sent' ? { ...o, status: 'already_sent' } : o));
    const outcome = lastValueFrom(this.response$(request, responseId));
    this.responses.set(responseId, outcome);
    if (this.responses.size > this.dedupeWindow) {
      const oldest = this.responses.keys().next().value;
      if (oldest !== undefined) this.responses.delete(oldest);
    }
    return outcome;
  }

  /**
   * spec B "preserve response for re-delivery on next inbound": call when an operator message
   * from `target` is stored. Re-delivers the target's preserved responses, oldest first, with
   * the same response_id and chunk index, marked `redelivered`.
   */
  redeliver(target: string): Promise<SendOutcome[]> {
    if (this.stopped) return Promise.resolve([]);
    const rows = this.options.undelivered.takeUndelivered(target);
    const groups = new Map<string, UndeliveredRow[]>();
    for (const row of rows) {
      // Kept for its own channel only (never shown on another one); it waits until that channel is back.
      if (!this.canDeliver(row)) {
        this.options.undelivered.saveUndelivered(row);
        continue;
      }
      let group = groups.get(row.responseId);
      if (group === undefined) groups.set(row.responseId, (group = []));
      group.push(row);
    }
    return lastValueFrom(
      from(groups.values()).pipe(
        concatMap((group) => this.redelivery$(group)),
        toArray(),
      ),
    );
  }

  /**
   * spec B "No-response detection": the wake lifecycle calls this when a wake of an
   * operator-triggered turn reached `completed_without_visible_reply` (after its final-check).
   * Raises a neutral `no_response` alert when the channel's `alertOnNoResponse` is on.
   */
  raiseNoResponseAlert(input: {
    readonly turnId: string | null;
    readonly agentId: string;
    readonly channel: string;
    readonly target: string | null;
    readonly wakeToken: string | null;
  }): boolean {
    const config = this.options.settingsFor(input.channel);
    if (!config.enabled || !config.alertOnNoResponse) return false;
    this.alert({ kind: 'no_response', ...input, responseId: null, message: ALERT_COPY.no_response });
    return true;
  }

  /** Settles every chunk still in flight (`uncertain`, or `failed_final` if nothing was sent), cancels timers, unsubscribes. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // Alerts end first: a response settled by the stop itself raises none (as before).
    this.alerts.complete();
    this.noResponses.complete();
    this.stopping.next();
    this.flows.unsubscribe();
    for (const s of this.subscriptions) s.unsubscribe();
  }

  /** One response: its outbound events, then its chunks in order, concluded once. */
  private response$(request: SendRequest, responseId: string): Observable<SendOutcome> {
    return defer(() => {
      const channel = this.channelOf(request.channel, request.target);
      const config = this.options.settingsFor(channel.name);
      const chunks = request.chunks !== undefined && request.chunks.length > 0 ? request.chunks : [request.content];
      const purpose = request.purpose ?? 'reply';
      const job = {
        turnId: request.turnId,
        agentId: request.agentId,
        target: request.target,
        channel,
        config,
        responseId,
        purpose,
        wakeToken: this.turns.get(request.turnId)?.wakeTokens[0] ?? null,
      };
      for (let i = 0; i < chunks.length; i++) {
        this.bus.emit('response.outbound', {
          turnId: request.turnId,
          responseId,
          chunkIndex: i,
          chunkCount: chunks.length,
          agentId: request.agentId,
          target: request.target,
          content: chunks[i]!,
          redelivered: false,
          purpose,
        });
      }
      // In order: chunk i+1 is sent only once chunk i is final, so the operator reads them in order.
      return from(chunks).pipe(
        concatMap((content, chunkIndex) =>
          this.chunk$({ ...job, chunkIndex, chunkCount: chunks.length, content, redelivered: false }),
        ),
        toArray(),
        map((results) =>
          this.conclude(
            job,
            results,
            chunks.map((content, chunkIndex) => ({
              agentId: request.agentId,
              target: request.target,
              turnId: request.turnId,
              responseId,
              chunkIndex,
              content,
            })),
          ),
        ),
      );
    });
  }

  /** spec B "preserve response for re-delivery": one preserved response again, same response_id and chunk indexes, marked `redelivered`. */
  private redelivery$(group: readonly UndeliveredRow[]): Observable<SendOutcome> {
    return defer(() => {
      const first = group[0]!;
      const responseId = first.responseId;
      const channel = this.channelOf(first.channel, first.target);
      const config = this.options.settingsFor(channel.name);
      const chunkCount = Math.max(...group.map((r) => r.chunkIndex)) + 1;
      for (const row of group) {
        this.bus.emit('response.outbound', {
          turnId: row.turnId,
          responseId,
          chunkIndex: row.chunkIndex,
          chunkCount,
          agentId: row.agentId,
          target: row.target,
          content: row.content,
          redelivered: true,
          purpose: 'reply',
        });
      }
      return from(group).pipe(
        concatMap((row) => {
          this.stats.redelivered += 1;
          return this.chunk$({
            turnId: row.turnId,
            agentId: row.agentId,
            target: row.target,
            channel,
            config,
            responseId,
            chunkIndex: row.chunkIndex,
            chunkCount,
            content: row.content,
            redelivered: true,
            purpose: 'reply',
          });
        }),
        toArray(),
        map((results) =>
          this.conclude(
            {
              turnId: first.turnId,
              agentId: first.agentId,
              target: first.target,
              channel,
              config,
              responseId,
              purpose: 'reply',
              wakeToken: null,
            },
            results,
            group,
          ),
        ),
      );
    });
  }

  /** Builds the response outcome; preserves and alerts once per response (not per chunk). */
  private conclude(
    job: {
      turnId: string;
      agentId: string;
      target: string;
      channel: Channel;
      config: ResponseDeliveryConfig;
      responseId: string;
      purpose: DeliveryPurpose;
      wakeToken: string | null;
    },
    results: readonly ChunkOutcome[],
    contents: ReadonlyArray<Omit<UndeliveredRow, 'reason'>>,
  ): SendOutcome {
    const delivered = results.filter((r) => r.state === 'delivered');
    const base = {
      responseId: job.responseId,
      messageIds: delivered.map((r) => r.messageId!),
      seq: delivered.at(-1)?.seq ?? null,
      chunks: results,
    };
    const bad = results.find((r) => r.state === 'failed_final') ?? results.find((r) => r.state === 'uncertain');
    if (bad === undefined)
      return { ...base, status: results.every((r) => r.ack === 'already_sent') ? 'already_sent' : 'sent' };
    const { config } = job;
    let preserved = false;
    if (job.purpose === 'reply' && config.enabled && config.preserveUndelivered) {
      let saved = 0;
      let saveFailed = false;
      for (const r of results) {
        // An uncertain chunk is kept only where a resend cannot duplicate it (idempotent channel).
        const keep = r.state === 'failed_final' || (r.state === 'uncertain' && job.channel.idempotent);
        const row = contents.find((c) => c.chunkIndex === r.chunkIndex);
        if (!keep || row === undefined) continue;
        try {
          this.options.undelivered.saveUndelivered({
            ...row,
            reason: r.failure ?? 'unknown',
            channel: job.channel.name,
          });
          this.stats.preserved += 1;
          saved += 1;
        } catch {
          saveFailed = true;
        }
      }
      preserved = saved > 0 && !saveFailed;
    }
    const status = bad.state === 'failed_final' ? 'failed_final' : 'uncertain';
    if (job.purpose === 'reply' && config.enabled && config.alertOnFailure) {
      const message =
        status === 'uncertain'
          ? ALERT_COPY.delivery_uncertain
          : preserved
            ? ALERT_COPY.delivery_failed_kept
            : ALERT_COPY.delivery_failed;
      this.alert({
        kind: status === 'uncertain' ? 'delivery_uncertain' : 'delivery_failed',
        turnId: job.turnId,
        agentId: job.agentId,
        channel: job.channel.name,
        target: job.target,
        wakeToken: job.wakeToken,
        responseId: job.responseId,
        message,
      });
    }
    const message =
      status === 'uncertain'
        ? `Delivery of chunk ${bad.chunkIndex + 1}/${results.length} could not be confirmed (${bad.failure}); it was not resent to avoid a duplicate. Do not resend it.`
        : `Chunk ${bad.chunkIndex + 1}/${results.length} was not delivered (${bad.failure})${preserved ? '; it is kept and will be re-delivered on the next message from this conversation' : ''}.`;
    return { ...base, status, code: bad.failure ?? 'unknown', message, preserved };
  }

  /** The named channel (a request naming one, a kept row's channel), else the target's own. */
  private channelOf(name: string | undefined, target: string): Channel {
    if (name === undefined) return this.options.channelFor(target);
    const own = this.options.channelFor(target);
    if (own.name === name) return own;
    const named = this.options.channelNamed?.(name);
    if (named === undefined) throw new Error(`internal: no channel named "${name}"`);
    return named;
  }

  /** Whether a kept row's channel can deliver now (a channel removed from the config cannot). */
  private canDeliver(row: UndeliveredRow): boolean {
    if (row.channel === undefined || row.channel === this.options.channelFor(row.target).name) return true;
    return this.options.channelNamed?.(row.channel) !== undefined;
  }

  private alert(fields: Omit<DeliveryAlert, 'id' | 'at'>): void {
    this.alerts.next({ id: this.newId(), ...fields, at: new Date(this.scheduler.now()).toISOString() });
  }

  /**
   * One chunk until its final state: emits its outcome once, then completes. The chunk's flow
   * may outlive that (a late answer is still folded, only to be counted), so it runs in the
   * tracker's own subscription, ended at stop().
   */
  private chunk$(job: ChunkJob): Observable<ChunkOutcome> {
    const policy: ChunkPolicy = {
      retryCount: job.config.enabled ? job.config.retryCount : 0,
      retryDelayMs: job.config.retryDelayMs,
      idempotent: job.channel.idempotent,
    };
    return new Observable<ChunkOutcome>((subscriber) => {
      const flow = chunkFlow({
        policy,
        ackTimeoutMs: this.ackTimeoutMs,
        scheduler: this.scheduler,
        abort$: this.stopping,
        send: (attempt) =>
          job.channel.send({
            turnId: job.turnId,
            agentId: job.agentId,
            target: job.target,
            responseId: job.responseId,
            chunkIndex: job.chunkIndex,
            chunkCount: job.chunkCount,
            content: job.content,
            redelivered: job.redelivered,
            attempt,
          }),
      }).subscribe(({ effect, state }) => {
        switch (effect.type) {
          case 'attempt':
            this.stats.attempts += 1;
            break;
          case 'schedule_retry':
            this.stats.retries += 1;
            break;
          case 'late_ack_suppressed':
            this.stats.lateAcksSuppressed += 1;
            break;
          case 'final':
            subscriber.next(this.finish(job, state, effect.state));
            subscriber.complete();
            break;
        }
      });
      if (!flow.closed) this.flows.add(flow);
    });
  }

  private finish(job: ChunkJob, state: ChunkState, final: ChunkFinal): ChunkOutcome {
    if (final === 'delivered') this.stats.delivered += 1;
    else if (final === 'failed_final') this.stats.failedFinal += 1;
    else this.stats.uncertain += 1;
    const outcome: ChunkOutcome = {
      chunkIndex: job.chunkIndex,
      state: final,
      attempts: state.attempts,
      messageId: state.messageId,
      seq: state.seq,
      ack: state.ack,
      failure: final === 'delivered' ? null : state.failure,
    };
    this.bus.emit('delivery.result', {
      turnId: job.turnId,
      responseId: job.responseId,
      chunkIndex: job.chunkIndex,
      chunkCount: job.chunkCount,
      agentId: job.agentId,
      target: job.target,
      channel: job.channel.name,
      state: final,
      attempts: state.attempts,
      messageId: state.messageId,
      seq: state.seq,
      ack: state.ack,
      failure: outcome.failure,
      redelivered: job.redelivered,
      purpose: job.purpose,
    });
    // Only a confirmed reply is operator-visible output: it resets the silence watchdog (spec A).
    if (final === 'delivered' && job.purpose === 'reply' && state.messageId !== null) {
      this.bus.emit('message.delivered', {
        turnId: job.turnId,
        agentId: job.agentId,
        channel: job.channel.name,
        target: job.target,
        messageId: state.messageId,
        kind: 'message',
      });
    }
    return outcome;
  }
}
