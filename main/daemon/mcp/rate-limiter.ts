/**
 * Per-agent token bucket for communication writes (shared/config.ts `limits.sendsPerMinute`).
 * Pure: time comes from the caller, so tests drive it without timers.
 */
export interface RateDecision {
  readonly allowed: boolean;
  /** When refused: milliseconds until one token is available again. */
  readonly retryAfterMs: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  /** `perMinute` calls per minute per key, with a burst of the same size. */
  constructor(private readonly perMinute: number) {
    if (!(perMinute > 0)) throw new Error(`internal: rate perMinute must be > 0, got ${perMinute}`);
    this.refillPerMs = perMinute / 60_000;
  }

  /** Takes one token for `key` at time `now` (ms) when one is available. */
  take(key: string, now: number): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + elapsed * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.refillPerMs) };
  }

  /** Forgets a key (agent removed or token revoked). */
  forget(key: string): void {
    this.buckets.delete(key);
  }
}
