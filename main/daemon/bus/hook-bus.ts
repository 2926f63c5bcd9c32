/**
 * The hook bus: one typed stream per hook name (watchdog spec "Required hooks"), exposed as
 * Observables, fed by `emit`. Producers (runtime adapters, the delivery tracker) emit; the
 * silence watchdog, the wake lifecycle, metrics and the UI bridge subscribe.
 *
 * Emission is synchronous (plain `Subject`): a subscriber sees an event before `emit` returns,
 * so ordering between hooks is the order of the producer's calls. A subscriber that throws is
 * a bug: the other subscribers still run and RxJS rethrows the error asynchronously (uncaught),
 * so it is seen, never silently swallowed.
 */
import { Subject, type Observable } from 'rxjs';
import type { HookEventMap, HookName } from './hook-events.js';

type Subjects = { readonly [K in HookName]: Subject<HookEventMap[K]> };

export class HookBus {
  private readonly subjects: Subjects = {
    'turn.start': new Subject(),
    'message.delivered': new Subject(),
    'response.outbound': new Subject(),
    'delivery.result': new Subject(),
    'turn.end': new Subject(),
    'runtime.local': new Subject(),
    'approval.wait': new Subject(),
  };

  readonly turnStart$: Observable<HookEventMap['turn.start']> = this.subjects['turn.start'].asObservable();
  /** Operator-visible deliveries only. */
  readonly messageDelivered$: Observable<HookEventMap['message.delivered']> =
    this.subjects['message.delivered'].asObservable();
  readonly responseOutbound$: Observable<HookEventMap['response.outbound']> =
    this.subjects['response.outbound'].asObservable();
  readonly deliveryResult$: Observable<HookEventMap['delivery.result']> =
    this.subjects['delivery.result'].asObservable();
  readonly turnEnd$: Observable<HookEventMap['turn.end']> = this.subjects['turn.end'].asObservable();
  /** Tool calls, local text (counts only), runtime errors: never operator-visible. */
  readonly runtimeLocal$: Observable<HookEventMap['runtime.local']> = this.subjects['runtime.local'].asObservable();

  /** issue 14: a turn waits for the operator's approval, or no longer does (pauses the silence watchdog). */
  readonly approvalWait$: Observable<HookEventMap['approval.wait']> = this.subjects['approval.wait'].asObservable();

  /** The stream of one hook. */
  on<K extends HookName>(name: K): Observable<HookEventMap[K]> {
    return (this.subjects[name] as Subject<HookEventMap[K]>).asObservable();
  }

  emit<K extends HookName>(name: K, event: HookEventMap[K]): void {
    const subject = this.subjects[name] as Subject<HookEventMap[K]>;
    // Hot path (runtime-local events dominate): a hook nobody observes costs one check, no allocation.
    if (subject.observed) subject.next(event);
  }

  /** Completes every stream (daemon stop); later emits are ignored. Idempotent. */
  complete(): void {
    for (const subject of Object.values(this.subjects) as Subject<unknown>[]) subject.complete();
  }
}
