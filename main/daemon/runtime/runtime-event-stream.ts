/**
 * The event stream of one adapter (the skeleton's and the demo's): every event is
 * stamped with the process generation it came from (generation-tagged watches: a stale event
 * can never settle a newer turn), and nothing is sent once the stream completed.
 */
import { Subject } from 'rxjs';
import type { RuntimeEvent, RuntimeEventEnvelope } from './runtime-adapter.js';

export class RuntimeEventStream {
  readonly #subject = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#subject.asObservable();

  emit(generation: number, event: RuntimeEvent): void {
    if (!this.#subject.closed) this.#subject.next({ ...event, generation } as RuntimeEventEnvelope);
  }

  /** The adapter is stopped for good. */
  complete(): void {
    this.#subject.complete();
  }
}
