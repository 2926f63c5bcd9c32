/**
 * issue 42 "Memory-aware admission": when free memory (MemAvailable) is below
 * `resources.minFreeMemoryMB`, no new agent process starts. A wake for a sleeping agent (whose
 * delivery would start its CLI) is held `paused / waiting_for_memory` — the reason visible on its
 * chip — while the awake agent idle longest is put to sleep first; the hold is checked again on a
 * slow timer of the daemon's clock and released once memory is back (or by the operator's Try now).
 * An agent whose process runs is never held: its delivery starts nothing. Added to the lifecycle's
 * admission holds (wake/admission-holds.ts) by the root, as the usage room's budget hold is.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import type { WakePause } from '../wake/wake-lifecycle.js';

export interface MemoryAdmissionOptions {
  /** The floor in bytes (0: never hold). */
  readonly minFreeBytes: number;
  /** MemAvailable now in bytes; null where unknown (nothing is held then). */
  readonly memAvailable: () => number | null;
  /** Whether the agent is asleep (its delivery would start a new process). */
  readonly asleep: (agentId: string) => boolean;
  /** The awake idle agent idle longest (not `except`), or undefined. */
  readonly longestIdle: (except: string) => string | undefined;
  readonly sleepNow: (agentId: string) => Promise<boolean>;
  /** Releases the agent's held wakes (`WakeLifecycle.resume`); false when it was not held. */
  readonly resume: (agentId: string) => boolean;
  readonly clock: SchedulerLike;
  /** How often a held agent's memory is checked again (default 5 s). */
  readonly recheckMs?: number;
}

const MB = 1024 * 1024;

export class MemoryAdmission {
  readonly #o: MemoryAdmissionOptions;
  readonly #watched = new Map<string, Subscription>();

  constructor(options: MemoryAdmissionOptions) {
    this.#o = options;
  }

  /** The admission hold: a pause while starting the agent's process would go below the floor, else null. */
  readonly hold = (agentId: string): WakePause | null => {
    if (this.#o.minFreeBytes <= 0 || !this.#o.asleep(agentId) || this.#enough()) return null;
    this.#makeRoom(agentId);
    this.#watch(agentId);
    const free = this.#o.memAvailable() ?? 0;
    return {
      kind: 'waiting_for_memory',
      resetsAt: null,
      detail: `free memory ${Math.round(free / MB)} MB is below resources.minFreeMemoryMB (${Math.round(this.#o.minFreeBytes / MB)} MB)`,
    };
  };

  dispose(): void {
    for (const s of this.#watched.values()) s.unsubscribe();
    this.#watched.clear();
  }

  #enough(): boolean {
    const free = this.#o.memAvailable();
    return free === null || free >= this.#o.minFreeBytes;
  }

  /** The awake agent idle longest is put to sleep first (its memory is what the held one needs). */
  #makeRoom(agentId: string): void {
    const idle = this.#o.longestIdle(agentId);
    if (idle !== undefined) void this.#o.sleepNow(idle);
  }

  #watch(agentId: string): void {
    if (this.#watched.has(agentId)) return;
    const check = (): void => {
      this.#watched.delete(agentId);
      // Released by the operator (Try now) or cancelled meanwhile: nothing more to do.
      if (this.#enough()) {
        this.#o.resume(agentId);
        return;
      }
      this.#makeRoom(agentId);
      this.#watched.set(agentId, this.#o.clock.schedule(check, this.#o.recheckMs ?? 5000));
    };
    this.#watched.set(agentId, this.#o.clock.schedule(check, this.#o.recheckMs ?? 5000));
  }
}
