/**
 * Silence watchdog (watchdog spec part A): per active turn, a beacon when no operator-visible
 * output was delivered for `thresholdSeconds`; at most `maxBeacons`, then one escalation, then
 * nothing more; stops at turn end.
 *
 * Why not `switchMap(() => timer())` per event: that allocates an action, a timer and
 * subscribers for every delivery (research/reliability-perf.md §3a: ~1/55 of a raw
 * `setTimeout` baseline, 4.6 KB per turn). Instead each turn holds plain state and at most one
 * scheduled action with a *lazy deadline*: a visible delivery only writes `silenceFrom`; when
 * the action fires early because the deadline moved, it reschedules itself for the remainder.
 * Time comes from the injected RxJS scheduler, so `TestScheduler.run` drives it virtually.
 */
import {
  Subject,
  asyncScheduler,
  type Observable,
  type SchedulerAction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { SilenceWatchdogConfig } from '../../../shared/config.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { MessageDeliveredEvent, TurnStartEvent } from '../bus/hook-events.js';

export type BeaconKind = 'beacon' | 'escalation';

/** What the watchdog emits; where it is shown depends on the channel (see beacon-router.ts). */
export interface Beacon {
  readonly turnId: string;
  readonly agentId: string;
  readonly channel: string;
  readonly target: string | null;
  readonly wakeTokens: readonly string[];
  readonly kind: BeaconKind;
  /** 1-based: beacons are 1..maxBeacons, the escalation is maxBeacons + 1. */
  readonly index: number;
  /** Since turn.start (the chip shows "🧠 Working… {elapsed}"). */
  readonly elapsedMs: number;
  /** Since the last operator-visible delivery (or turn start). */
  readonly silentMs: number;
  /** The configured `message` or `escalationMessage`. */
  readonly message: string;
}

export interface SilenceWatchdogOptions {
  readonly bus: HookBus;
  /** Effective `silenceWatchdog` settings of a channel, e.g. `(c) => channelSettings(config, c).silenceWatchdog`. */
  readonly settingsFor: (channel: string) => SilenceWatchdogConfig;
  /** Defaults to `asyncScheduler`; tests pass a `TestScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Per-turn state; a class so every turn shares one hidden class (heap per turn is a benchmark goal). */
class TurnWatch {
  beacons = 0;
  escalated = false;
  action: Subscription | null = null;
  constructor(
    readonly owner: SilenceWatchdog,
    readonly start: TurnStartEvent,
    readonly config: SilenceWatchdogConfig,
    readonly startedAt: number,
    /** Start of the current silence: turn start, the last visible delivery or the last beacon. */
    public silenceFrom: number,
  ) {}
}

/** One shared work function (no closure per turn); `this` is the scheduled action. */
function check(this: SchedulerAction<TurnWatch>, watch?: TurnWatch): void {
  if (watch !== undefined) watch.owner.fire(watch, this);
}

export class SilenceWatchdog {
  private readonly turns = new Map<string, TurnWatch>();
  /** Turns by `agentId\u0000channel`, for deliveries that do not name their turn. */
  private readonly byAgent = new Map<string, Set<TurnWatch>>();
  private readonly scheduler: SchedulerLike;
  private readonly settingsFor: (channel: string) => SilenceWatchdogConfig;
  private readonly beacons = new Subject<Beacon>();
  private readonly subscriptions: Subscription[];

  /** Beacons and escalations, in time order. Never an agent reply (never settles a wake). */
  readonly beacon$: Observable<Beacon> = this.beacons.asObservable();

  constructor(options: SilenceWatchdogOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.settingsFor = options.settingsFor;
    const { bus } = options;
    // Only these three hooks matter (spec A "Required hooks"); runtime-local events are not even observed.
    this.subscriptions = [
      bus.turnStart$.subscribe((e) => this.onTurnStart(e)),
      bus.messageDelivered$.subscribe((e) => this.onDelivered(e)),
      bus.turnEnd$.subscribe((e) => this.onTurnEnd(e.turnId)),
    ];
  }

  /** Turns currently watched. */
  get activeTurns(): number {
    return this.turns.size;
  }

  /** Beacons (not counting the escalation) emitted so far in an active turn, else null. */
  beaconsOf(turnId: string): number | null {
    return this.turns.get(turnId)?.beacons ?? null;
  }

  /** Unsubscribes from the bus and cancels every scheduled action. Idempotent. */
  stop(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    for (const watch of this.turns.values()) watch.action?.unsubscribe();
    this.turns.clear();
    this.byAgent.clear();
    this.beacons.complete();
  }

  private onTurnStart(event: TurnStartEvent): void {
    const config = this.settingsFor(event.channel);
    // A repeated turn.start for a live turn is a stale/duplicate event: it must not restart the count.
    if (!config.enabled || this.turns.has(event.turnId)) return;
    const now = this.scheduler.now();
    const watch = new TurnWatch(this, event, config, now, now);
    this.turns.set(event.turnId, watch);
    const key = agentKey(event.agentId, event.channel);
    let set = this.byAgent.get(key);
    if (set === undefined) this.byAgent.set(key, (set = new Set()));
    set.add(watch);
    watch.action = this.scheduler.schedule(check, thresholdMs(config), watch);
  }

  private onDelivered(event: MessageDeliveredEvent): void {
    if (event.turnId !== undefined) {
      const watch = this.turns.get(event.turnId);
      if (watch !== undefined) this.reset(watch, event);
      return;
    }
    const set = this.byAgent.get(agentKey(event.agentId, event.channel));
    if (set !== undefined) for (const watch of set) this.reset(watch, event);
  }

  private reset(watch: TurnWatch, event: MessageDeliveredEvent): void {
    // spec A: never reset by typing alone (unless resetOnTypingOnly), streaming only with resetOnStreaming.
    if (event.kind === 'typing' && !watch.config.resetOnTypingOnly) return;
    if (event.kind === 'stream' && !watch.config.resetOnStreaming) return;
    // Lazy deadline: the scheduled action notices the move when it fires.
    watch.silenceFrom = this.scheduler.now();
  }

  private onTurnEnd(turnId: string): void {
    const watch = this.turns.get(turnId);
    if (watch === undefined) return;
    watch.action?.unsubscribe();
    watch.action = null;
    this.turns.delete(turnId);
    const key = agentKey(watch.start.agentId, watch.start.channel);
    const set = this.byAgent.get(key);
    if (set !== undefined) {
      set.delete(watch);
      if (set.size === 0) this.byAgent.delete(key);
    }
  }

  /** @internal Called by the scheduled action of `watch`. */
  fire(watch: TurnWatch, action: SchedulerAction<TurnWatch>): void {
    if (watch.escalated || this.turns.get(watch.start.turnId) !== watch) return;
    const now = this.scheduler.now();
    const threshold = thresholdMs(watch.config);
    const due = watch.silenceFrom + threshold;
    if (now < due) {
      action.schedule(watch, due - now);
      return;
    }
    const { config } = watch;
    const base = {
      turnId: watch.start.turnId,
      agentId: watch.start.agentId,
      channel: watch.start.channel,
      target: watch.start.target ?? null,
      wakeTokens: watch.start.wakeTokens,
      elapsedMs: now - watch.startedAt,
      silentMs: now - watch.silenceFrom,
    };
    if (watch.beacons < config.maxBeacons) {
      watch.beacons += 1;
      // The next beacon comes one threshold after this one: a beacon is not agent output, so it
      // does not end the silence, but it restarts the count towards the next status update.
      watch.silenceFrom = now;
      action.schedule(watch, threshold);
      this.beacons.next({ ...base, kind: 'beacon', index: watch.beacons, message: config.message });
    } else {
      // spec A: "Max 5 beacons per turn, then one escalation message, then stops".
      watch.escalated = true;
      this.beacons.next({
        ...base,
        kind: 'escalation',
        index: config.maxBeacons + 1,
        message: config.escalationMessage,
      });
    }
  }
}

function thresholdMs(config: SilenceWatchdogConfig): number {
  return Math.round(config.thresholdSeconds * 1000);
}

function agentKey(agentId: string, channel: string): string {
  return `${agentId}\u0000${channel}`;
}
