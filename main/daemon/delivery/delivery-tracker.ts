/**
 * Response delivery confirmation (watchdog spec part B). Every outbound response gets a
 * `turn_id` + `response_id` (UUID) pair; each chunk is tracked independently through the
 * pure state machine of delivery-state.ts, driven by the chunk-flow.ts pipeline on the injected
 * RxJS scheduler (ACK timeout; retry after `retryDelayMs`, or `retry_after` of a 429 when longer,
 * with identical content and the same response_id). A response, sent or re-delivered (one flow),
 * is its chunks in order (`concatMap`), concluded once; the Promise of `send` is only the boundary
 * to its callers. The MCP `message_send` tool calls `send`; its result is what the tool returns
 * (`sent | already_sent` + message ids and seq), and every confirmed chunk is emitted as
 * `message.delivered` on the bus, which is what resets the silence watchdog.
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
import { isTerminal, type WakeStatus } from '../../../shared/wake-status.js';
import type { AckStatus, ChunkFinal, DeliveryPurpose } from '../bus/delivery-words.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { Channel, ChannelSendRequest } from './channel.js';
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
  /** issue 16: a reply's SeenUpToSeq, which the local channel stores with the reply as its RepliedUpToSeq. */
  readonly repliedUpToSeq?: number;
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

export const DELIVERY_ALERT_KINDS = ['delivery_failed', 'delivery_uncertain', 'no_response'] as const;
export type DeliveryAlertKind = (typeof DELIVERY_ALERT_KINDS)[number];

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

/** A wake's status as the wake lifecycle publishes it (`wake_status`, contract §10.1), as far as the tracker reads it. */
export interface WakeStatusNews {
  readonly agentId: string;
  readonly wakeToken: string;
  readonly status: WakeStatus;
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
  /**
   * contract §9.4 (issue 16, 39): the wake lifecycle's status events; at a wake's terminal status
   * the tracker releases that wake from its agent's running turn (an alert no longer names it).
   */
  readonly wakeStatus$?: Observable<WakeStatusNews>;
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
  no_response: 'Turn ended without a message — back to idle',
} as const;

/** One chunk as the channel receives it, less the attempt number the chunk flow adds. */
type ChunkRequest = Omit<ChannelSendRequest, 'attempt'>;

/**
 * One response through delivery confirmation. A send and a re-delivery are the same flow and
 * differ only in this data: the chunks (their ids, indexes and `redelivered` mark), the channel,
 * the purpose, and the wake an alert names.
 */
interface ResponseJob {
  /** In chunk order; never empty. Each goes to the channel as it is, with the attempt number added. */
  readonly chunks: readonly ChunkRequest[];
  readonly channel: Channel;
  readonly config: ResponseDeliveryConfig;
  readonly purpose: DeliveryPurpose;
  /** The wake an alert names: the turn's first wake for a send; none for a re-delivery. */
  readonly wakeToken: string | null;
}

export class DeliveryTracker {
  private readonly bus: HookBus;
  private readonly scheduler: SchedulerLike;
  private readonly newId: () => string;
  private readonly ackTimeoutMs: number;
  private readonly dedupeWindow: number;
  private readonly responses = new Map<string, Promise<SendOutcome>>();
  /**
   * The wakes of each running turn by agent, then turn id, released one by one as they end
   * (contract §9.4); keyed per agent, so one agent's terminal never touches another's turns.
   */
  private readonly turns = new Map<string, Map<string, readonly string[]>>();
  /** The agent of each running turn (`turn.end` names only the turn). */
  private readonly turnAgents = new Map<string, string>();
  /** Emits (and replays) at stop(): every chunk flow, running or starting, settles now. */
  private readonly stopping = new ReplaySubject<void>(1);
  /** Running chunk flows (one removes itself when it completes). */
  private readonly flows = new Subscription();
  private readonly alerts = new Subject<DeliveryAlert>();
  private readonly subscriptions: Subscription[];
  private stopped = false;

  readonly alert$: Observable<DeliveryAlert> = this.alerts.asObservable();

  constructor(private readonly options: DeliveryTrackerOptions) {
    this.bus = options.bus;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.newId = options.newId ?? randomUUID;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 30_000;
    this.dedupeWindow = options.dedupeWindow ?? 4096;
    this.subscriptions = [
      options.bus.turnStart$.subscribe((e) => this.turnStarted(e.agentId, e.turnId, e.wakeTokens)),
      options.bus.turnEnd$.subscribe((e) => this.turnEnded(e.turnId)),
    ];
    if (options.wakeStatus$ !== undefined)
      this.subscriptions.push(
        options.wakeStatus$.subscribe((e) => {
          if (isTerminal(e.status)) this.releaseWake(e.agentId, e.wakeToken);
        }),
      );
  }

  private turnStarted(agentId: string, turnId: string, wakeTokens: readonly string[]): void {
    let ofAgent = this.turns.get(agentId);
    if (ofAgent === undefined) this.turns.set(agentId, (ofAgent = new Map()));
    ofAgent.set(turnId, wakeTokens);
    this.turnAgents.set(turnId, agentId);
  }

  private turnEnded(turnId: string): void {
    const agentId = this.turnAgents.get(turnId);
    if (agentId === undefined) return;
    this.turnAgents.delete(turnId);
    const ofAgent = this.turns.get(agentId);
    ofAgent?.delete(turnId);
    if (ofAgent?.size === 0) this.turns.delete(agentId);
  }

  /**
   * contract §9.4 (issue 16): a wake of this agent reached its terminal status; an alert of the
   * agent's running turn no longer names it. Only that agent's turns are looked at.
   */
  private releaseWake(agentId: string, wakeToken: string): void {
    const ofAgent = this.turns.get(agentId);
    if (ofAgent === undefined) return;
    for (const [turnId, tokens] of ofAgent) {
      if (!tokens.includes(wakeToken)) continue;
      ofAgent.set(
        turnId,
        tokens.filter((t) => t !== wakeToken),
      );
    }
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
    const outcome = lastValueFrom(this.response$(() => this.sendJob(request, responseId)));
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
        concatMap((group) => this.response$(() => this.redeliveryJob(group))),
        toArray(),
      ),
    );
  }

  /**
   * spec B "No-response detection", the one mechanism (issue 24): the communication service calls
   * this once per operator-triggered turn that sent nothing and whose wakes ended
   * `completed_without_visible_reply / no_reply` after their final-check; `channel` is the one the
   * conversation is delivered on. Raises a neutral `no_response` alert when that channel's
   * `enabled` and `alertOnNoResponse` are on. (The tracker counts no outbound per turn itself.)
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
    this.stopping.next();
    this.flows.unsubscribe();
    for (const s of this.subscriptions) s.unsubscribe();
  }

  /** A `send`: the request's chunks (or its whole content as one), on its channel or the target's own. */
  private sendJob(request: SendRequest, responseId: string): ResponseJob {
    const channel = this.channelOf(request.channel, request.target);
    const contents = request.chunks !== undefined && request.chunks.length > 0 ? request.chunks : [request.content];
    return {
      // What the channel needs from the request is put on each chunk here, once; the flow passes it on as it is.
      chunks: contents.map((content, chunkIndex) => ({
        turnId: request.turnId,
        agentId: request.agentId,
        target: request.target,
        responseId,
        chunkIndex,
        chunkCount: contents.length,
        content,
        redelivered: false,
        ...(request.repliedUpToSeq === undefined ? {} : { repliedUpToSeq: request.repliedUpToSeq }),
      })),
      channel,
      config: this.options.settingsFor(channel.name),
      purpose: request.purpose ?? 'reply',
      wakeToken: this.turns.get(request.agentId)?.get(request.turnId)?.[0] ?? null,
    };
  }

  /** spec B "preserve response for re-delivery": a kept response again, same response_id and chunk indexes, marked `redelivered`. */
  private redeliveryJob(group: readonly UndeliveredRow[]): ResponseJob {
    const first = group[0]!;
    const channel = this.channelOf(first.channel, first.target);
    const chunkCount = Math.max(...group.map((r) => r.chunkIndex)) + 1;
    return {
      chunks: group.map((row) => ({
        turnId: row.turnId,
        agentId: row.agentId,
        target: row.target,
        responseId: first.responseId,
        chunkIndex: row.chunkIndex,
        chunkCount,
        content: row.content,
        redelivered: true,
      })),
      channel,
      config: this.options.settingsFor(channel.name),
      purpose: 'reply',
      wakeToken: null,
    };
  }

  /**
   * One response, a send or a re-delivery alike: its outbound events, then its chunks in order
   * (chunk i+1 is sent only once chunk i is final, so the operator reads them in order), concluded
   * once. The job is built on subscription, so a channel that cannot be found fails this response.
   */
  private response$(jobOf: () => ResponseJob): Observable<SendOutcome> {
    return defer(() => {
      const job = jobOf();
      for (const c of job.chunks) {
        this.bus.emit('response.outbound', {
          turnId: c.turnId,
          responseId: c.responseId,
          chunkIndex: c.chunkIndex,
          chunkCount: c.chunkCount,
          agentId: c.agentId,
          target: c.target,
          content: c.content,
          redelivered: c.redelivered,
          purpose: job.purpose,
        });
      }
      return from(job.chunks).pipe(
        concatMap((chunk) => this.chunk$(job, chunk)),
        toArray(),
        map((results) => this.conclude(job, results)),
      );
    });
  }

  /** Builds the response outcome; preserves and alerts once per response (not per chunk). */
  private conclude(job: ResponseJob, results: readonly ChunkOutcome[]): SendOutcome {
    const first = job.chunks[0]!;
    const delivered = results.filter((r) => r.state === 'delivered');
    const base = {
      responseId: first.responseId,
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
        const chunk = job.chunks.find((c) => c.chunkIndex === r.chunkIndex);
        if (!keep || chunk === undefined) continue;
        try {
          this.options.undelivered.saveUndelivered({
            agentId: chunk.agentId,
            target: chunk.target,
            turnId: chunk.turnId,
            responseId: chunk.responseId,
            chunkIndex: chunk.chunkIndex,
            content: chunk.content,
            reason: r.failure ?? 'unknown',
            channel: job.channel.name,
          });
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
        turnId: first.turnId,
        agentId: first.agentId,
        channel: job.channel.name,
        target: first.target,
        wakeToken: job.wakeToken,
        responseId: first.responseId,
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
   * may outlive that (a late answer is still folded, and suppressed), so it runs in the
   * tracker's own subscription, ended at stop().
   */
  private chunk$(job: ResponseJob, chunk: ChunkRequest): Observable<ChunkOutcome> {
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
        send: (attempt) => job.channel.send({ ...chunk, attempt }),
      }).subscribe(({ effect, state }) => {
        if (effect.type !== 'final') return;
        subscriber.next(this.finish(job, chunk, state, effect.state));
        subscriber.complete();
      });
      if (!flow.closed) this.flows.add(flow);
    });
  }

  private finish(job: ResponseJob, chunk: ChunkRequest, state: ChunkState, final: ChunkFinal): ChunkOutcome {
    const outcome: ChunkOutcome = {
      chunkIndex: chunk.chunkIndex,
      state: final,
      attempts: state.attempts,
      messageId: state.messageId,
      seq: state.seq,
      ack: state.ack,
      failure: final === 'delivered' ? null : state.failure,
    };
    this.bus.emit('delivery.result', {
      turnId: chunk.turnId,
      responseId: chunk.responseId,
      chunkIndex: chunk.chunkIndex,
      chunkCount: chunk.chunkCount,
      agentId: chunk.agentId,
      target: chunk.target,
      channel: job.channel.name,
      state: final,
      attempts: state.attempts,
      messageId: state.messageId,
      seq: state.seq,
      ack: state.ack,
      failure: outcome.failure,
      redelivered: chunk.redelivered,
      purpose: job.purpose,
    });
    // Only a confirmed reply is operator-visible output: it resets the silence watchdog (spec A).
    if (final === 'delivered' && job.purpose === 'reply' && state.messageId !== null) {
      this.bus.emit('message.delivered', {
        turnId: chunk.turnId,
        agentId: chunk.agentId,
        channel: job.channel.name,
        target: chunk.target,
        messageId: state.messageId,
        kind: 'message',
      });
    }
    return outcome;
  }
}
