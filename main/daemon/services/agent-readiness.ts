/**
 * Each agent's readiness (issue 15): the last probe of its CLI and sign-in (runtime/readiness.ts,
 * at start and on demand, never a model call) combined with its session's state and restarts,
 * into one of Ready · Needs sign-in · CLI missing · Starting · Restarting (n of cap) · Stopped.
 * Tells `changed` whenever an agent's shown readiness may have changed.
 */
import type { AgentReadiness } from '../../../shared/api/contract.js';
import type { Agent } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import type { ReadinessProbe } from '../runtime/readiness.js';

export interface AgentReadinessOptions {
  readonly agents: readonly AgentConfig[];
  readonly probe: (agent: AgentConfig) => Promise<ReadinessProbe>;
  readonly restartCap: number;
  readonly changed: (agent: AgentConfig) => void;
}

interface Slot {
  probe: ReadinessProbe | null;
  restart: number | null;
  checking: Promise<void> | null;
}

export class AgentReadinessService {
  readonly #o: AgentReadinessOptions;
  readonly #slots = new Map<string, Slot>();

  constructor(options: AgentReadinessOptions) {
    this.#o = options;
    for (const a of options.agents) this.#slots.set(a.id, { probe: null, restart: null, checking: null });
  }

  /** Probes the agents (all, or the named one); resolves when done. Concurrent checks of one agent share one run. */
  check(agentId?: string): Promise<void> {
    const agents = this.#o.agents.filter((a) => agentId === undefined || a.id === agentId);
    return Promise.all(
      agents.map((agent) => {
        const slot = this.#slots.get(agent.id) as Slot;
        slot.checking ??= this.#o
          .probe(agent)
          .catch((err: unknown): ReadinessProbe => ({
            outcome: 'cli_missing',
            cliVersion: null,
            detail: err instanceof Error ? err.message : String(err),
            checkedAt: new Date().toISOString(),
          }))
          .then((probe) => {
            slot.probe = probe;
            slot.checking = null;
            this.#o.changed(agent);
          });
        return slot.checking;
      }),
    ).then(() => undefined);
  }

  /** A restart was scheduled (attempt n), or the runtime is up again (null). */
  restart(agent: AgentConfig, attempt: number | null): void {
    const slot = this.#slots.get(agent.id);
    if (slot === undefined || slot.restart === attempt) return;
    slot.restart = attempt;
    this.#o.changed(agent);
  }

  /** The readiness shown for `agent` in session state `state`. */
  readiness(agent: AgentConfig, state: Agent['state']): AgentReadiness {
    const slot = this.#slots.get(agent.id);
    const probe = slot?.probe ?? null;
    const restart = slot?.restart ?? null;
    const base = {
      cliVersion: probe?.cliVersion ?? null,
      detail: probe?.detail ?? null,
      checkedAt: probe?.checkedAt ?? null,
      restart: null,
    };
    if (probe?.outcome === 'cli_missing') return { ...base, state: 'cli_missing', ready: false, reason: 'cli_missing' };
    if (probe?.outcome === 'needs_sign_in')
      return { ...base, state: 'needs_sign_in', ready: false, reason: 'auth_required' };
    if (state === 'stopped' || state === 'crashed')
      return { ...base, state: 'stopped', ready: false, reason: state === 'crashed' ? 'cli_exited' : null };
    if (restart !== null && state === 'starting')
      return {
        ...base,
        state: 'restarting',
        ready: false,
        reason: 'cli_exited',
        restart: { attempt: restart, cap: this.#o.restartCap },
      };
    // issue 42: a sleeping agent takes work (its next delivery wakes it).
    if (state === 'sleeping') return { ...base, state: 'sleeping', ready: true, reason: null };
    if (state === 'starting' || probe === null) return { ...base, state: 'starting', ready: false, reason: null };
    return { ...base, state: 'ready', ready: true, reason: null };
  }
}
