/**
 * `silenceBeacons`: the custom operator of the silence watchdog (watchdog spec A, STYLE.md habit
 * 13). From the events of live turns (turn-events.ts) it emits, per turn, a beacon when no
 * operator-visible output was delivered for `thresholdSeconds`; at most `maxBeacons`, then one
 * escalation, then nothing more; a turn is forgotten at its turn.end.
 *
 * The per-turn grouping and the deadline both live inside the operator because both have to be
 * cheap (`npm run bench -- watchdog`: ≥ 0.5 of raw timers, ≤ 1 KB per active turn):
 * - RxJS `groupBy` costs ~1.4 KB per group, ~2.9 KB with the `duration` that ends a group at
 *   turn.end (measured on rxjs 7.8), so a turn here is one small object in a Map;
 * - `switchMap(() => timer())` per delivery allocates an action, a timer and subscribers for every
 *   delivery (research/reliability-perf.md §3a: ~1/55 of a raw `setTimeout` baseline). Instead a
 *   turn has at most one scheduled action with a *lazy deadline*: a visible delivery only writes
 *   `silenceFrom`; when the action fires early because the deadline moved, it reschedules itself
 *   for the remainder.
 * Time comes from the injected RxJS scheduler, so `TestScheduler.run` drives it virtually.
 */
import {
  Observable,
  type OperatorFunction,
  type SchedulerAction,
  type SchedulerLike,
  type Subscriber,
  type Subscription,
} from 'rxjs';
import type { SilenceWatchdogConfig } from '../../../shared/config.js';
import type { DeliveredKind, TurnStartEvent } from '../bus/hook-events.js';
import type { TurnEvent } from './turn-events.js';

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

/** Effective `silenceWatchdog` settings of a channel, e.g. `(c) => settingsFor(c).silenceWatchdog`. */
export type SilenceSettings = (channel: string) => SilenceWatchdogConfig;

/** Beacons of every live turn, from the turns' events (turn.start opens a turn, turn.end forgets it). */
export function silenceBeacons(
  settingsFor: SilenceSettings,
  scheduler: SchedulerLike,
): OperatorFunction<TurnEvent, Beacon> {
  return (events) =>
    new Observable<Beacon>((subscriber) => {
      const turns = new Map<string, TurnWatch>();
      const subscription = events.subscribe({
        next(event) {
          switch (event.hook) {
            case 'turn.start': {
              // A repeated turn.start of a live turn is a stale/duplicate event: it must not restart the count.
              if (turns.has(event.turnId)) return;
              const config = settingsFor(event.start.channel);
              if (!config.enabled) return;
              turns.set(event.turnId, new TurnWatch(subscriber, scheduler, event.start, config));
              return;
            }
            case 'message.delivered':
              turns.get(event.turnId)?.delivered(event.kind);
              return;
            case 'approval.wait':
              turns.get(event.turnId)?.waiting(event.waiting);
              return;
            case 'turn.end':
              turns.get(event.turnId)?.cancel();
              turns.delete(event.turnId);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        subscription.unsubscribe();
        for (const watch of turns.values()) watch.cancel();
        turns.clear();
      };
    });
}

/** One watched turn; a class so every turn shares one hidden class (heap per turn is a benchmark goal). */
class TurnWatch {
  private readonly startedAt: number;
  /** Start of the current silence: turn start, the last visible delivery or the last beacon. */
  private silenceFrom: number;
  private beacons = 0;
  private escalated = false;
  /** The one scheduled action of the turn (later schedules reuse or chain to it, so cancelling it cancels them). */
  private action: Subscription;
  /** issue 14: approvals the turn waits on; while > 0 the silence clock is paused (no beacon). */
  private waits = 0;

  constructor(
    private readonly subscriber: Subscriber<Beacon>,
    private readonly scheduler: SchedulerLike,
    private readonly start: TurnStartEvent,
    private readonly config: SilenceWatchdogConfig,
  ) {
    this.startedAt = this.silenceFrom = scheduler.now();
    this.action = scheduler.schedule(check, thresholdMs(config), this);
  }

  delivered(kind: DeliveredKind): void {
    // spec A: never reset by typing alone (unless resetOnTypingOnly), streaming only with resetOnStreaming.
    if (kind === 'typing' && !this.config.resetOnTypingOnly) return;
    if (kind === 'stream' && !this.config.resetOnStreaming) return;
    // Lazy deadline: the scheduled action notices the move when it fires.
    this.silenceFrom = this.scheduler.now();
  }

  /**
   * issue 14: a wait for the operator is operator-visible (the approval chip), so no beacon while
   * it lasts; after the answer the silence is counted from zero again.
   */
  waiting(on: boolean): void {
    if (this.escalated) return;
    const before = this.waits;
    this.waits = Math.max(0, this.waits + (on ? 1 : -1));
    if (this.waits > 0 || before === 0) return;
    this.silenceFrom = this.scheduler.now();
    // The action ended while paused (it does not reschedule then): schedule a fresh one.
    this.action.unsubscribe();
    this.action = this.scheduler.schedule(check, thresholdMs(this.config), this);
  }

  cancel(): void {
    this.escalated = true;
    this.action.unsubscribe();
  }

  /** Runs when the scheduled action fires: a beacon if the deadline really passed, else a reschedule. */
  fire(action: SchedulerAction<TurnWatch>): void {
    if (this.escalated || this.waits > 0) return;
    const { config, start } = this;
    const now = this.scheduler.now();
    const threshold = thresholdMs(config);
    const due = this.silenceFrom + threshold;
    if (now < due) {
      action.schedule(this, due - now);
      return;
    }
    const elapsedMs = now - this.startedAt;
    const silentMs = now - this.silenceFrom;
    if (this.beacons < config.maxBeacons) {
      this.beacons += 1;
      // The next beacon comes one threshold after this one: a beacon is not agent output, so it
      // does not end the silence, but it restarts the count towards the next status update.
      this.silenceFrom = now;
      action.schedule(this, threshold);
      this.subscriber.next(beacon(start, 'beacon', this.beacons, elapsedMs, silentMs, config.message));
    } else {
      // spec A: "Max 5 beacons per turn, then one escalation message, then stops".
      this.escalated = true;
      this.subscriber.next(
        beacon(start, 'escalation', config.maxBeacons + 1, elapsedMs, silentMs, config.escalationMessage),
      );
    }
  }
}

/** One shared work function (no closure per turn); `this` is the scheduled action. */
function check(this: SchedulerAction<TurnWatch>, watch?: TurnWatch): void {
  watch?.fire(this);
}

function beacon(
  start: TurnStartEvent,
  kind: BeaconKind,
  index: number,
  elapsedMs: number,
  silentMs: number,
  message: string,
): Beacon {
  return {
    turnId: start.turnId,
    agentId: start.agentId,
    channel: start.channel,
    target: start.target ?? null,
    wakeTokens: start.wakeTokens,
    kind,
    index,
    elapsedMs,
    silentMs,
    message,
  };
}

function thresholdMs(config: SilenceWatchdogConfig): number {
  return Math.round(config.thresholdSeconds * 1000);
}
