/**
 * issue 39 "admission in one place": what may hold an agent's new wakes before they are admitted
 * (issue 27: a daily budget reached). The lifecycle asks `check` when a wake arrives for an agent
 * not paused; each capability that can hold admission adds its hold here at wiring, so the rule
 * has one entry point and no capability calls back into the lifecycle's construction.
 */
import type { TablePause } from './pending-delivery.js';

/** A hold: the pause that holds the agent's new wakes now, or null. */
export type AdmissionHold = (agentId: string) => TablePause | null;

export class AdmissionHolds {
  readonly #holds: AdmissionHold[] = [];

  add(hold: AdmissionHold): void {
    this.#holds.push(hold);
  }

  /** The first hold's pause, in the order they were added; null when nothing holds the agent. */
  readonly check = (agentId: string): TablePause | null => {
    for (const hold of this.#holds) {
      const pause = hold(agentId);
      if (pause !== null) return pause;
    }
    return null;
  };
}
