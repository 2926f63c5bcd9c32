/**
 * The silence watchdog's input: its three hooks (watchdog spec A "Required hooks": turn.start,
 * message.delivered, turn.end) as one stream of events addressed to a live turn.
 *
 * An event for a turn that never started or already ended (a late confirmation after
 * turn.end, a stale turn.end) is dropped here; a repeated turn.start of a live turn is
 * dropped too (it must not restart the count); a delivery that does not name its turn counts for
 * every live turn of that agent on that channel.
 */
import { Observable, Subscription } from 'rxjs';
import type { HookBus } from '../bus/hook-bus.js';
import type { DeliveredKind, TurnStartEvent } from '../bus/hook-events.js';

export type TurnEvent =
  | { readonly hook: 'turn.start'; readonly turnId: string; readonly start: TurnStartEvent }
  /** Operator-visible output of the turn was delivered (the only kind of event that may reset the silence). */
  | { readonly hook: 'message.delivered'; readonly turnId: string; readonly kind: DeliveredKind }
  | { readonly hook: 'turn.end'; readonly turnId: string }
  /** issue 14: the turn waits for the operator (an approval): the silence clock pauses, then restarts from zero. */
  | { readonly hook: 'approval.wait'; readonly turnId: string; readonly waiting: boolean };

/** The live turns of one subscription: by id, and by agent + channel for deliveries without a turn id. */
class LiveTurns {
  private readonly keyOf = new Map<string, string>();
  private readonly byAgent = new Map<string, Set<string>>();

  open(start: TurnStartEvent): boolean {
    if (this.keyOf.has(start.turnId)) return false;
    const key = agentKey(start.agentId, start.channel);
    this.keyOf.set(start.turnId, key);
    let turns = this.byAgent.get(key);
    if (turns === undefined) this.byAgent.set(key, (turns = new Set()));
    turns.add(start.turnId);
    return true;
  }

  has(turnId: string): boolean {
    return this.keyOf.has(turnId);
  }

  of(agentId: string, channel: string): ReadonlySet<string> | undefined {
    return this.byAgent.get(agentKey(agentId, channel));
  }

  close(turnId: string): boolean {
    const key = this.keyOf.get(turnId);
    if (key === undefined) return false;
    this.keyOf.delete(turnId);
    const turns = this.byAgent.get(key);
    turns?.delete(turnId);
    if (turns?.size === 0) this.byAgent.delete(key);
    return true;
  }
}

/** The watchdog hooks of `bus`, addressed to live turns (state per subscription). */
export function turnEvents(bus: HookBus): Observable<TurnEvent> {
  return new Observable<TurnEvent>((subscriber) => {
    const live = new LiveTurns();
    // A container of its own: a completing hook stream must not tear the other two down.
    const subscription = new Subscription();
    subscription.add(
      bus.turnStart$.subscribe((start) => {
        if (live.open(start)) subscriber.next({ hook: 'turn.start', turnId: start.turnId, start });
      }),
    );
    subscription.add(
      bus.messageDelivered$.subscribe(({ turnId, agentId, channel, kind }) => {
        if (turnId !== undefined) {
          if (live.has(turnId)) subscriber.next({ hook: 'message.delivered', turnId, kind });
          return;
        }
        const turns = live.of(agentId, channel);
        if (turns !== undefined)
          for (const id of turns) subscriber.next({ hook: 'message.delivered', turnId: id, kind });
      }),
    );
    subscription.add(
      bus.approvalWait$.subscribe(({ turnId, waiting }) => {
        if (live.has(turnId)) subscriber.next({ hook: 'approval.wait', turnId, waiting });
      }),
    );
    subscription.add(
      bus.turnEnd$.subscribe({
        next: ({ turnId }) => {
          if (live.close(turnId)) subscriber.next({ hook: 'turn.end', turnId });
        },
        // The bus completes at daemon stop: so does the watchdog.
        complete: () => subscriber.complete(),
      }),
    );
    return subscription;
  });
}

function agentKey(agentId: string, channel: string): string {
  return `${agentId}\u0000${channel}`;
}
