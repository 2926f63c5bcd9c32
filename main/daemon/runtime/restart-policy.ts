/**
 * Capped restart with backoff for a crashed runtime process (issue 10 "shared adapter
 * behaviour"). Pure: the caller owns the clock and the timer. A crash loop stops after
 * `maxRestarts` crashes inside `windowMs`, so a broken CLI or config ends in one visible
 * failure instead of a restart storm.
 */
export interface RestartPolicyOptions {
  readonly maxRestarts: number;
  readonly windowMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { maxRestarts: 3, windowMs: 10 * 60_000, baseDelayMs: 1000, maxDelayMs: 30_000 };

export type RestartDecision = { readonly restart: true; readonly delayMs: number; readonly attempt: number } | { readonly restart: false; readonly crashes: number };

export class RestartPolicy {
  readonly #o: RestartPolicyOptions;
  #crashes: number[] = [];

  constructor(options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {
    this.#o = options;
  }

  /** A crash at `now`: restart after the returned delay, or give up. */
  onCrash(now: number): RestartDecision {
    this.#crashes = [...this.#crashes.filter((t) => now - t < this.#o.windowMs), now];
    const n = this.#crashes.length;
    if (n > this.#o.maxRestarts) return { restart: false, crashes: n };
    return { restart: true, attempt: n, delayMs: Math.min(this.#o.maxDelayMs, this.#o.baseDelayMs * 2 ** (n - 1)) };
  }

}
