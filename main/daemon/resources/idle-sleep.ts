/**
 * issue 42 "Sleep and wake": an agent idle for its `idleSleepSeconds` (its own `resources` entry,
 * else the daemon's `resources.idleSleepSeconds`; 0 = never) is put to sleep: its CLI process is
 * stopped cleanly and the next delivery starts it again in the same session (the session's rule,
 * services/agent-session.ts). This service only keeps time: since when each agent is idle, one
 * timer per idle agent on the daemon's injected clock, and which awake agent has been idle longest
 * (memory-aware admission puts that one to sleep first).
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Agent } from '../../../shared/api/contract.js';
import type { DaemonLog } from '../daemon-log.js';

export interface IdleSleepOptions {
  /** The agent's idle time before it sleeps, in seconds (0: never). */
  readonly idleSleepSecondsOf: (agentId: string) => number;
  /** Puts the agent to sleep; false when it was not idle any more (a turn started meanwhile). */
  readonly sleep: (agentId: string) => Promise<boolean>;
  readonly clock: SchedulerLike;
  readonly log: DaemonLog;
}

interface Idle {
  readonly since: number;
  timer: Subscription | null;
}

export class IdleSleep {
  readonly #o: IdleSleepOptions;
  readonly #idle = new Map<string, Idle>();
  #disposed = false;

  constructor(options: IdleSleepOptions) {
    this.#o = options;
  }

  /** The agent's session state changed (or was told again): an idle agent's clock starts once. */
  state(agentId: string, state: Agent['state']): void {
    if (this.#disposed) return;
    const idle = this.#idle.get(agentId);
    if (state !== 'idle') {
      idle?.timer?.unsubscribe();
      this.#idle.delete(agentId);
      return;
    }
    if (idle !== undefined) return;
    const entry: Idle = { since: this.#o.clock.now(), timer: null };
    this.#idle.set(agentId, entry);
    this.#arm(agentId, entry);
  }

  /** The awake idle agent idle longest (not `except`), or undefined. */
  longestIdle(except?: string): string | undefined {
    let best: [string, number] | undefined;
    for (const [agentId, idle] of this.#idle)
      if (agentId !== except && (best === undefined || idle.since < best[1])) best = [agentId, idle.since];
    return best?.[0];
  }

  /** Puts the agent to sleep now (memory-aware admission); false when it could not. */
  sleepNow(agentId: string): Promise<boolean> {
    return this.#sleep(agentId);
  }

  dispose(): void {
    this.#disposed = true;
    for (const idle of this.#idle.values()) idle.timer?.unsubscribe();
    this.#idle.clear();
  }

  #arm(agentId: string, idle: Idle): void {
    const seconds = this.#o.idleSleepSecondsOf(agentId);
    if (seconds <= 0) return;
    idle.timer = this.#o.clock.schedule(() => {
      idle.timer = null;
      // Still the same idle stretch (a turn in between replaced the entry): sleep, else nothing.
      // Refused while still idle (e.g. a delivery was on its way): asked again after the same time.
      const same = () => !this.#disposed && this.#idle.get(agentId) === idle;
      if (same()) void this.#sleep(agentId).then((ok) => (ok || !same() ? undefined : this.#arm(agentId, idle)));
    }, seconds * 1000);
  }

  async #sleep(agentId: string): Promise<boolean> {
    const ok = await this.#o.sleep(agentId).catch((err: unknown) => {
      this.#o.log.warn('could not put the agent to sleep', { agentId, error: String(err) });
      return false;
    });
    if (ok) this.#o.log.info('agent put to sleep (idle)', { agentId });
    return ok;
  }
}
