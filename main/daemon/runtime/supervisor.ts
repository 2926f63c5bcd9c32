/**
 * Restart policy for runtime processes: capped exponential backoff, and a cap on restarts
 * within a window so a crash loop stops instead of burning CPU. Pure: the adapter supplies
 * the clock and schedules the delay on its (injected) RxJS scheduler.
 */
export interface RestartPolicy {
  /** Delay before the first restart. */
  readonly baseDelayMs: number;
  /** Upper bound of the delay. */
  readonly maxDelayMs: number;
  /** Restarts allowed within `windowMs`; one more crash gives up. */
  readonly maxRestarts: number;
  readonly windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRestarts: 5,
  windowMs: 10 * 60_000,
};

export type RestartDecision =
  | { readonly restart: true; readonly attempt: number; readonly delayMs: number }
  | { readonly restart: false; readonly restarts: number };

/** Remembers recent restarts and decides the next one. */
export class RestartSupervisor {
  private restarts: number[] = [];

  constructor(private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY) {}

  /** Called when a process exits unexpectedly at time `now`. */
  onCrash(now: number): RestartDecision {
    this.restarts = this.restarts.filter((t) => now - t < this.policy.windowMs);
    if (this.restarts.length >= this.policy.maxRestarts) return { restart: false, restarts: this.restarts.length };
    const attempt = this.restarts.length + 1;
    this.restarts.push(now);
    const delayMs = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
    return { restart: true, attempt, delayMs };
  }

  /** A manual start forgets the crash history. */
  reset(): void {
    this.restarts = [];
  }
}
