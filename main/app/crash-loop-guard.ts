/**
 * `render-process-gone` handling (research/reliability-perf.md §4): reload the window after a
 * renderer crash, but not forever — past `maxCrashes` within `windowMs` the renderer is
 * crash-looping and reloading again only burns CPU. Pure: the clock is passed in.
 */
export class CrashLoopGuard {
  private crashes: number[] = [];

  constructor(
    private readonly maxCrashes = 3,
    private readonly windowMs = 60_000,
  ) {}

  /** Records one crash at `now` (ms) and says whether the window may be reloaded. */
  recordCrash(now: number): boolean {
    this.crashes = [...this.crashes.filter((t) => now - t < this.windowMs), now];
    return this.crashes.length <= this.maxCrashes;
  }

  /** The person asked to try again. */
  reset(): void {
    this.crashes = [];
  }
}
