/**
 * Per-agent token bucket for communication writes (shared/config.ts `limits.sendsPerMinute`) and,
 * over an hour, for the conversations an agent starts (issue 29 `limits.conversationsPerHour`).
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

  /** `perWindow` calls per window (a minute unless told) per key, with a burst of the same size. */
  constructor(
    private readonly perWindow: number,
    windowMs = 60_000,
  ) {
    if (!(perWindow > 0)) throw new Error(`internal: rate perWindow must be > 0, got ${perWindow}`);
    if (!(windowMs > 0)) throw new Error(`internal: rate windowMs must be > 0, got ${windowMs}`);
    this.refillPerMs = perWindow / windowMs;
  }

  /** Takes one token for `key` at time `now` (ms) when one is available. */
  take(key: string, now: number): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.perWindow, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(this.perWindow, bucket.tokens + elapsed * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.refillPerMs) };
  }

  /** Whether `key` has a token at time `now`, without taking it (a refusal before any work is done). */
  peek(key: string, now: number): RateDecision {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return { allowed: true, retryAfterMs: 0 };
    const tokens = Math.min(this.perWindow, bucket.tokens + Math.max(0, now - bucket.updatedAt) * this.refillPerMs);
    if (tokens >= 1) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / this.refillPerMs) };
  }

  /** Forgets a key (agent removed or token revoked). */
  forget(key: string): void {
    this.buckets.delete(key);
  }
}
