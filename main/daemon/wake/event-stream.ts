/**
 * A multicast stream for the wake lifecycle's hot path (issue 19): what an RxJS `Subject` does
 * for `next` / `complete` / late subscription, without its per-`next` allocations. rxjs 7's
 * CommonJS `Subject.next` (the build Node loads) wraps each call in an `errorContext` closure and
 * walks its observers through a downlevelled `__values` iterator (an iterator object, a closure
 * and one result object per observer): in the `wake` benchmark that was a visible share of every
 * transition's CPU and of its GC. Subscribers still get a real RxJS `Subscriber` (operators,
 * teardown, and an error thrown by an observer reported asynchronously, as with a Subject).
 */
import { Observable, type Subscriber } from 'rxjs';

export class EventStream<T> {
  /** Replaced, never mutated (copy on write), so a `next` in progress walks a stable snapshot as a Subject does. */
  #subscribers: readonly Subscriber<T>[] = [];
  #stopped = false;

  readonly observable: Observable<T> = new Observable<T>((subscriber) => {
    if (this.#stopped) {
      subscriber.complete();
      return undefined;
    }
    this.#subscribers = [...this.#subscribers, subscriber];
    return () => {
      this.#subscribers = this.#subscribers.filter((s) => s !== subscriber);
    };
  });

  next(value: T): void {
    if (this.#stopped) return;
    const subscribers = this.#subscribers;
    for (let i = 0; i < subscribers.length; i++) (subscribers[i] as Subscriber<T>).next(value);
  }

  /** Completes every subscriber; later `next` calls are ignored and late subscribers complete at once. */
  complete(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const subscribers = this.#subscribers;
    this.#subscribers = [];
    for (const s of subscribers) s.complete();
  }
}
