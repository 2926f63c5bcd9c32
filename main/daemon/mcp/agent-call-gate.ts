/**
 * issue 30 "the operator's traffic first": at most `perTurn` agent tool calls are handled per
 * event-loop turn; the rest wait for the next turn (setImmediate), so the operator's requests
 * and pushes (the UI's WebSocket frames, Electron IPC) that are ready meanwhile are served
 * before them. Under a busy team one poll phase used to run every ready agent call — each a store
 * commit, wake transitions and pushes — and the page's frame waited behind the whole batch
 * (bench/PROFILES.md: the loop saturated, not blocked; a chip behind ~20 agents' work).
 *
 * A turn here runs from one check phase to the next: calls released in the check phase and calls
 * that arrive in the following poll phase share one budget. An immediate queued while the check
 * phase runs runs in the next loop iteration, after its poll phase: that is the operator's window.
 * Calls keep their order (first come, first handled); nothing is dropped, only deferred.
 */

/** Agent calls handled per event-loop turn (each ≈ 1–3 ms of the daemon's CPU under load). */
export const AGENT_CALLS_PER_TURN = 4;

export class AgentCallGate {
  readonly #perTurn: number;
  readonly #waiting: Array<() => void> = [];
  #used = 0;
  #scheduled = false;
  /** Calls that had to wait for a later turn (metrics and tests). */
  deferred = 0;

  constructor(perTurn: number = AGENT_CALLS_PER_TURN) {
    if (!(perTurn >= 1)) throw new Error(`agent calls per turn must be at least 1, not ${perTurn}`);
    this.#perTurn = perTurn;
  }

  /** undefined: handle the call now; else a promise resolved in the turn it may be handled in. */
  admit(): Promise<void> | undefined {
    this.#scheduleNextTurn();
    if (this.#waiting.length === 0 && this.#used < this.#perTurn) {
      this.#used += 1;
      return undefined;
    }
    this.deferred += 1;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #scheduleNextTurn(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#nextTurn());
  }

  #nextTurn(): void {
    this.#scheduled = false;
    this.#used = 0;
    while (this.#used < this.#perTurn && this.#waiting.length > 0) {
      this.#used += 1;
      (this.#waiting.shift() as () => void)();
    }
    // Calls released (their budget is reset next turn) or still waiting: the next loop iteration,
    // after the poll phase between (the operator's window).
    if (this.#used > 0) this.#scheduleNextTurn();
  }
}
