/**
 * issue 42 "Sleep and wake" at scale: at most `resources.startsAtOnce` agent processes start at
 * once. A CLI's start is CPU-bound (Codex app-server, Claude Code and OpenCode load their runtimes,
 * open their session, connect to our MCP server); twenty sleeping agents woken by one round of
 * messages all started together on a 2-core machine, so each start took as long as all of them
 * (Codex wake-ups took 24–29 s with 14 at once, past its 30 s start timeout with 20, and every
 * Codex wake failed). Starting them a few at a time costs the round no time in all (the CPU is the
 * same) and keeps each start within its timeout.
 *
 * The same mechanism as the memory hold (memory-admission.ts): the wake of a sleeping agent that
 * would start one process too many is held `paused / waiting_for_start`, its reason visible on its
 * chip, and released (`WakeLifecycle.resume`) in arrival order as each start ends (ready, or failed).
 * Agents starting for another cause (the daemon's own start, a restart, the operator's Try now)
 * count too: they use the same cores.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Agent } from '../../../shared/api/contract.js';
import type { WakePause } from '../wake/wake-lifecycle.js';

export interface StartAdmissionOptions {
  /** How many agent processes may start at once (0: no limit). */
  readonly startsAtOnce: number;
  /** Whether the agent is asleep (its delivery would start a new process). */
  readonly asleep: (agentId: string) => boolean;
  /** Releases the agent's held wakes (`WakeLifecycle.resume`); false when it was not held. */
  readonly resume: (agentId: string) => boolean;
  readonly clock: SchedulerLike;
  /**
   * How long a start let through may take to show (the agent reads `starting`) before its place is
   * given back — a wake admitted and then cancelled before its delivery starts nothing (default 30 s).
   */
  readonly claimMs?: number;
}

export class StartAdmission {
  readonly #o: StartAdmissionOptions;
  /** Agents whose start was let through and has not ended, with the timer that gives an unused place back. */
  readonly #starting = new Map<string, Subscription | null>();
  /** Agents whose wakes are held, oldest first. */
  readonly #held: string[] = [];

  constructor(options: StartAdmissionOptions) {
    this.#o = options;
  }

  /** The admission hold: a pause while `startsAtOnce` agents are starting, else null (a place is taken). */
  readonly hold = (agentId: string): WakePause | null => {
    const limit = this.#o.startsAtOnce;
    if (limit <= 0 || !this.#o.asleep(agentId) || this.#starting.has(agentId)) return null;
    if (this.#starting.size < limit && this.#held.length === 0) {
      this.#claim(agentId);
      return null;
    }
    if (!this.#held.includes(agentId)) this.#held.push(agentId);
    return {
      kind: 'waiting_for_start',
      resetsAt: null,
      detail: `${this.#starting.size} agents are starting; at most ${limit} start at once (resources.startsAtOnce)`,
    };
  };

  /** The agent's state changed: a start shows (`starting`) or ends (anything else but asleep). */
  state(agentId: string, state: Agent['state']): void {
    if (state === 'starting') {
      // Its own start (the timer's job is done) or one of another cause: either way it holds a place.
      this.#starting.get(agentId)?.unsubscribe();
      this.#starting.set(agentId, null);
      return;
    }
    // Asleep with a place claimed: its wake is on its way to start it (the claim's timer watches that).
    if (state === 'sleeping' && this.#starting.get(agentId) !== null) return;
    if (this.#starting.has(agentId)) this.#end(agentId);
  }

  dispose(): void {
    for (const timer of this.#starting.values()) timer?.unsubscribe();
    this.#starting.clear();
    this.#held.length = 0;
  }

  #claim(agentId: string): void {
    const timer = this.#o.clock.schedule(() => {
      // Let through but never started (its wake cancelled meanwhile): the place is given back.
      if (this.#starting.get(agentId) === timer) this.#end(agentId);
    }, this.#o.claimMs ?? 30_000);
    this.#starting.set(agentId, timer);
  }

  #end(agentId: string): void {
    this.#starting.get(agentId)?.unsubscribe();
    this.#starting.delete(agentId);
    this.#release();
  }

  /** Held agents take the free places in arrival order; one awake meanwhile (Try now) needs none. */
  #release(): void {
    while (this.#starting.size < this.#o.startsAtOnce && this.#held.length > 0) {
      const next = this.#held.shift() as string;
      if (!this.#o.asleep(next)) continue;
      this.#claim(next);
      // Not held any more (the operator released or cancelled it): its place is given back.
      if (!this.#o.resume(next)) this.#end(next);
    }
  }
}
