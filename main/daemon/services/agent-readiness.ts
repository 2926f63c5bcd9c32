/**
 * Each agent's readiness (issue 15): the last probe of its CLI and sign-in (runtime/readiness.ts,
 * at start and on demand, never a model call) combined with its session's state and restarts,
 * into one of Ready · Needs sign-in · CLI missing · Starting · Restarting (n of cap) · Stopped.
 * Tells `changed` whenever an agent's shown readiness may have changed.
 */
import type { AgentReadiness } from '../../../shared/api/contract.js';
import type { Agent } from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import { isCannotStartReason } from '../../../shared/agent-readiness.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { ReadinessProbe } from '../runtime/readiness.js';

/** issue 40: why an agent's runtime is down, as its session knows (`AgentSession.down`). */
export interface RuntimeDown {
  readonly reason: FailureReason;
  readonly detail: string | null;
}

export interface AgentReadinessOptions {
  readonly agents: readonly AgentConfig[];
  /** issue 42: `fresh` asks the CLI even when a kept answer is still current (runtime/probe-cache.ts). */
  readonly probe: (agent: AgentConfig, fresh?: boolean) => Promise<ReadinessProbe>;
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

  /**
   * Probes the agents (all, or the named one); resolves when done. Concurrent checks of one agent
   * share one run. `fresh` (the operator's Retry): never a kept answer.
   */
  check(agentId?: string, fresh = false): Promise<void> {
    const agents = this.#o.agents.filter((a) => agentId === undefined || a.id === agentId);
    return Promise.all(
      agents.map((agent) => {
        const slot = this.#slots.get(agent.id) as Slot;
        slot.checking ??= this.#o
          .probe(agent, fresh)
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

  /**
   * issue 40 item 6: whether the agent's CLI may be started — null when it may (signed in, or not
   * probed: a probe that failed says so itself), else why not as a runtime-not-built result: a CLI
   * that is missing or not signed in never runs a process until it is ready.
   */
  async startable(agent: AgentConfig): Promise<{ readonly code: FailureReason; readonly message: string } | null> {
    await this.check(agent.id);
    return this.refusal(agent);
  }

  /** `startable`'s answer from the last probe, without probing again. */
  refusal(agent: AgentConfig): { readonly code: FailureReason; readonly message: string } | null {
    const probe = this.#slots.get(agent.id)?.probe ?? null;
    if (probe === null || probe.outcome === 'ready') return null;
    // issue 43: its host did not let it in (no answer, sign-in refused, host key unknown): nothing runs until it does.
    if (isHostOutcome(probe.outcome))
      return {
        code: 'host_unreachable',
        message: `agent "${agent.id}" was not started: ${probe.detail ?? 'its host did not answer over SSH'}; it starts once a check finds the host answering`,
      };
    const what = probe.outcome === 'cli_missing' ? 'its CLI was not found' : 'its CLI is not signed in';
    return {
      code: probe.outcome === 'cli_missing' ? 'cli_missing' : 'auth_required',
      message: `agent "${agent.id}" was not started: ${what}${probe.detail === null ? '' : ` (${probe.detail})`}; it starts once a check finds it ready (Retry)`,
    };
  }

  /**
   * A restart was scheduled (attempt n), or the runtime is up again (null). issue 43 "a dropped
   * connection is a runtime exit": an agent on another host is probed again at each restart — the
   * exit may be its host's, and then it reads not ready (`host_unreachable`) until the host answers
   * again — and once it is up after such an answer (its host answered the restart).
   */
  restart(agent: AgentConfig, attempt: number | null): void {
    const slot = this.#slots.get(agent.id);
    if (slot === undefined || slot.restart === attempt) return;
    slot.restart = attempt;
    this.#o.changed(agent);
    if (agent.host !== undefined && (attempt !== null || (slot.probe !== null && isHostOutcome(slot.probe.outcome))))
      void this.check(agent.id);
  }

  /**
   * The readiness shown for `agent` in session state `state`; `down`: why its runtime is down,
   * as its session knows (issue 40: a cause of its own is named, never blamed on a crash).
   */
  readiness(agent: AgentConfig, state: Agent['state'], down: RuntimeDown | null = null): AgentReadiness {
    const slot = this.#slots.get(agent.id);
    const probe = slot?.probe ?? null;
    const restart = slot?.restart ?? null;
    const base = {
      cliVersion: probe?.cliVersion ?? null,
      detail: probe?.detail ?? null,
      checkedAt: probe?.checkedAt ?? null,
      restart: null,
    };
    // issue 43: the agent's host did not let it in: the connection's own state and fix.
    if (probe !== null && isHostOutcome(probe.outcome))
      return { ...base, state: probe.outcome, ready: false, reason: 'host_unreachable' };
    // issue 40: what the session hit when it started outranks an older probe; the exact sentence is the detail.
    const hit = state === 'crashed' ? down : null;
    if (hit !== null && isCannotStartReason(hit.reason))
      return { ...base, detail: hit.detail, state: 'cannot_start', ready: false, reason: hit.reason };
    if (probe?.outcome === 'cli_missing' || hit?.reason === 'cli_missing')
      return { ...base, state: 'cli_missing', ready: false, reason: 'cli_missing' };
    if (probe?.outcome === 'needs_sign_in' || hit?.reason === 'auth_required')
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

/** issue 43: a probe outcome that is the connection's (main/daemon/hosts/), not the CLI's. */
function isHostOutcome(
  outcome: ReadinessProbe['outcome'],
): outcome is 'host_unreachable' | 'host_auth_failed' | 'host_key_unknown' {
  return outcome === 'host_unreachable' || outcome === 'host_auth_failed' || outcome === 'host_key_unknown';
}
