/**
 * One configured agent at run time: its runtime adapter (any `RuntimeAdapter`: Claude Code,
 * Codex, OpenCode, demo) bound to the wake lifecycle, through ONE subscription to the
 * adapter's events. For each event, in this order:
 *
 * 1. the agent's state (`starting` → `idle` ⇄ `busy`, `crashed`, `stopped`) and the hook bus
 *    bridge: `turn.start` (with the wakes the turn carries), `turn.end`, runtime-local tool
 *    calls and local-text counts — never the text (contract §6.5);
 * 2. the lifecycle, for events of the current process generation:
 *    - admitted rows → one delivery prompt → `deliver`; accepted → `onDelivered`, refused →
 *      `onDeliveryFailed` (contract §9.2);
 *    - `host.onTurnBoundary` → `lifecycle.onTurnBoundary`: the returned final-check is what
 *      the adapter injects into the same session (§6.4, §8.3), recorded as `prompt_input`
 *      (§8.4); a `final_check failed` event → `onFinalCheckUndeliverable` (Phase 4: no retry);
 *    - `turn_end` error/interrupted → `onRuntimeError` (every pending row ends `failed`);
 *    - an unexpected `exit` → `onRuntimeError(processExited)`; the adapter restarts it with
 *      backoff, and the next `ready` → `onProcessReplaced`, whose recovery frontiers are
 *      persisted (§6.6); `gave_up` → the runtime is down.
 *
 * Generations: the lifecycle numbers processes from its table's generation; each restart is
 * the next one. Lifecycle effects of an older process's events are skipped (STYLE.md
 * "generation-tagged watches"); the state and the bus see every event.
 */
import { randomUUID } from 'node:crypto';
import { Subscription, filter } from 'rxjs';
import type { Agent } from '../../../shared/api/contract.js';
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ApprovalAnswer, ApprovalAsk } from '../runtime/approval-port.js';
import type { RuntimeAdapter, RuntimeEventEnvelope, TurnBoundaryHost } from '../runtime/runtime-adapter.js';
import type { RecoveryCause, RecoveryFrontier } from '../wake/pending-delivery.js';
import type { FinalCheckInjection, WakeDelivery, WakeLifecycle } from '../wake/wake-lifecycle.js';

export interface PromptInputRecord {
  readonly agentId: string;
  readonly kind: 'delivery' | 'final_check';
  readonly wakeTokens: readonly string[];
  readonly text: string;
}

/** What building the runtime adapter gave (`createRuntimeAdapter`'s result). */
export type MadeAdapter =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: string; readonly message: string };

export interface AgentSessionPorts {
  /**
   * The delivery prompt for admitted rows (prompt compiler over the stored messages), or null
   * when it cannot be built. `turn` is `fresh` for the session's first delivery (contract §8.1).
   */
  renderDelivery(delivery: WakeDelivery, turn: 'fresh' | 'wake'): string | null;
  /** contract §8.4: every prompt written into the runtime is a `prompt_input` trajectory entry. */
  recordPromptInput(record: PromptInputRecord): void;
  /**
   * contract §6.6: the frontiers of runtime-visible rows whose session was lost (the process was
   * replaced, or the context compacted / overflowed), for one synthetic recovery wake each.
   */
  onRecovery(frontiers: readonly RecoveryFrontier[], cause: RecoveryCause): void;
  /** The runtime could not be built or started, or gave up after the restart cap. */
  onRuntimeDown(detail: string): void;
  /** The agent's state changed. */
  onState(state: Agent['state']): void;
  /** issue 15: a restart was scheduled (its attempt number), or the runtime is up again (null). */
  onRestart?(attempt: number | null): void;
}

/** issue 14: where the runtime's permission questions go (approvals/approval-service.ts). */
export interface AgentApprovals {
  request(
    origin: { agentId: string; runtime: string; turnId: string | null; wakeTokens: readonly string[] },
    ask: ApprovalAsk,
  ): Promise<ApprovalAnswer>;
  cancelAgent(agentId: string, reason: string): void;
}

export interface AgentSessionOptions {
  readonly agentId: string;
  /** issue 14: the approval service; without it every permission question is denied with a reason. */
  readonly approvals?: AgentApprovals;
  readonly lifecycle: WakeLifecycle;
  readonly bus: HookBus;
  readonly ports: AgentSessionPorts;
  readonly log?: DaemonLog;
}

/** Recent turns remembered per agent (a late retry result of an older turn is simply not shown on a wake). */
const TURNS_KEPT = 256;

export class AgentSession {
  readonly #o: AgentSessionOptions;
  readonly #subs = new Subscription();
  #events: Subscription | null = null;
  #adapter: RuntimeAdapter | null = null;
  #state: Agent['state'] = 'starting';
  #turnId: string | null = null;
  /** issue 14: the turn the runtime said it waits on the operator in (its own signal), if it still does. */
  #runtimeWaitTurn: string | null = null;
  readonly #turnWakes = new Map<string, readonly string[]>();
  #delivered = false;
  /** The adapter generation whose events count, and the lifecycle generation it maps to. */
  #adapterGen = -1;
  #lifeGen = -1;
  #lastInjection: FinalCheckInjection | null = null;
  #lastError: string | null = null;
  /** issue 16: the running turn's context was reset; its error end is that reset, not a runtime error. */
  #resetInTurn = false;
  /** issue 15: the reason of `#lastError`, and why the runtime is down (deliveries then fail with it). */
  #lastReason: FailureReason | null = null;
  #downReason: FailureReason | null = null;
  /** What `#down` last said (a delivery to a runtime that could not be built fails with it). */
  #downDetail: string | null = null;
  #ready: Promise<boolean> = Promise.resolve(false);
  #stopped = false;
  /** The lifecycle's deliveries are followed (once, by the first start or a replacement). */
  #following = false;
  /** issue 14: a replacement process is starting; its first `ready` is a process replacement (§6.6). */
  #replacing = false;

  /** Give this to the adapter (`RuntimeDeps.host`): the lifecycle decides every final-check. */
  readonly host: TurnBoundaryHost = {
    onTurnBoundary: () => Promise.resolve(this.#boundary()),
    // issue 14: the running turn and its wakes travel with the question (the chip shows it on them).
    requestApproval: (ask) => {
      const approvals = this.#o.approvals;
      const turnId = this.#turnId;
      if (approvals === undefined)
        return Promise.resolve({
          decision: 'deny',
          scope: 'once',
          status: 'denied',
          reason: 'AgentTeam has no operator connected to answer this request.',
        });
      return approvals.request(
        {
          agentId: this.#o.agentId,
          runtime: this.#adapter?.runtime ?? 'unknown',
          turnId,
          wakeTokens: turnId === null ? [] : this.wakesOfTurn(turnId),
        },
        ask,
      );
    },
  };

  constructor(options: AgentSessionOptions) {
    this.#o = options;
  }

  get state(): Agent['state'] {
    return this.#state;
  }

  /** The running turn's id (delivery correlation), or null between turns. */
  get turnId(): string | null {
    return this.#turnId;
  }

  /** The wakes a recent turn carried at its `turn.start` (empty when unknown or too old). */
  wakesOfTurn(turnId: string): readonly string[] {
    return this.#turnWakes.get(turnId) ?? [];
  }

  /**
   * Starts the runtime built around `host` and begins delivering. Resolves false (the agent
   * shows as crashed, `onRuntimeDown` is told) when it could not be built or started.
   */
  async start(made: MadeAdapter): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    this.#followDeliveries();
    this.#lifeGen = lifecycle.generation(agentId);
    return this.#launch(made);
  }

  /**
   * issue 14: the agent's configuration changed (a workspace or permission policy chosen in the UI).
   * The running process is replaced by the one `build` makes, exactly as a crashed one is (contract §6.6): admission
   * pauses, the old process is stopped (its pending approvals are cancelled by its exit), and when
   * the new one is ready its runtime-visible rows are recovered into it (one recovery wake per
   * target) and rows it never saw are re-offered. Resolves false when the new runtime cannot start
   * (the rows that waited for it then end `failed`, as when a crashed runtime gives up).
   */
  async replace(build: () => MadeAdapter, detail: string): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    if (this.#stopped) return false;
    lifecycle.onProcessExited(agentId, this.#lifeGen, detail, 'runtime_error');
    const old = this.#adapter;
    this.#adapter = null;
    this.#replacing = true;
    this.#delivered = false;
    // The old process's last events still reach the state and the bus (its exit cancels its pending
    // approvals) but settle nothing: an interrupted turn of a process we ended is no runtime error.
    this.#adapterGen = Number.MAX_SAFE_INTEGER;
    await old?.stop();
    this.#events?.unsubscribe();
    this.#events = null;
    // The daemon stopped meanwhile: nothing new is started (no orphans).
    if (this.#stopped) return false;
    this.#adapterGen = -1;
    this.#downReason = null;
    this.#downDetail = null;
    this.#setState('starting');
    this.#followDeliveries();
    // Built only now: a new MCP token is issued once the old process is gone.
    const made = build();
    const ok = await this.#launch(made);
    if (!ok && this.#replacing) {
      // No replacement comes: what waited for one ends failed (as after gave_up, §9.2), and the
      // table re-opens on a new generation so later wakes fail at delivery with the reason the
      // runtime is down — never held forever.
      this.#replacing = false;
      lifecycle.onRuntimeError(agentId, this.#lifeGen, this.#downDetail ?? 'the restarted runtime could not start', {
        reason: this.#downReason ?? 'runtime_error',
      });
      this.#lifeGen = lifecycle.generation(agentId) + 1;
      lifecycle.onProcessReplaced(agentId, this.#lifeGen);
    }
    return ok;
  }

  /** Subscribes to the lifecycle's deliveries for this agent, once. */
  #followDeliveries(): void {
    if (this.#following) return;
    this.#following = true;
    const { lifecycle, agentId } = this.#o;
    this.#subs.add(
      lifecycle.deliveries$.pipe(filter((d) => d.agentId === agentId)).subscribe((d) => {
        void this.#deliver(d);
      }),
    );
  }

  async #launch(made: MadeAdapter): Promise<boolean> {
    const { agentId, log } = this.#o;
    if (!made.ok) {
      log?.error('agent runtime not created', { agentId, code: made.code, message: made.message });
      this.#down(made.message);
      return false;
    }
    const adapter = made.adapter;
    this.#adapter = adapter;
    // Rows admitted while the first process starts wait for it (never fail for being early).
    this.#events = adapter.events$.subscribe((e) => this.#onEvent(e));
    this.#ready = adapter.start().then((res) => {
      if (!res.ok) {
        log?.error('runtime could not start', {
          agentId,
          runtime: adapter.runtime,
          code: res.code,
          message: res.message,
        });
        this.#downReason = res.reason ?? 'cli_exited';
        this.#down(res.message);
      }
      return res.ok;
    });
    const ok = await this.#ready;
    if (!ok && this.#state === 'starting') this.#setState('crashed');
    return ok;
  }

  /** Stops delivering and stops the adapter (no orphans); the adapter's last events still reach the bus. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#subs.unsubscribe();
    await this.#adapter?.stop();
    this.#events?.unsubscribe();
    this.#setState('stopped');
  }

  #onEvent(e: RuntimeEventEnvelope): void {
    this.#bridge(e);
    if (!this.#stopped) this.#settle(e);
  }

  /** The agent's state and the hook bus: every event, whatever its generation. */
  #bridge(e: RuntimeEventEnvelope): void {
    const { bus, agentId, lifecycle } = this.#o;
    switch (e.type) {
      case 'ready':
        this.#downReason = null;
        this.#o.ports.onRestart?.(null);
        this.#setState('idle');
        return;
      case 'restart_scheduled':
        this.#o.ports.onRestart?.(e.attempt);
        return;
      case 'turn_start': {
        const turnId = `turn_${randomUUID()}`;
        this.#turnId = turnId;
        this.#setState('busy');
        const rows = lifecycle.pending(agentId);
        const wakeTokens = rows.map((r) => r.wakeToken);
        this.#rememberTurn(turnId, wakeTokens);
        bus.emit('turn.start', {
          turnId,
          agentId,
          channel: LOCAL_CHANNEL,
          wakeTokens,
          ...(rows[0] ? { target: rows[0].target } : {}),
        });
        return;
      }
      case 'tool_call':
        if (this.#turnId !== null) bus.emit('runtime.local', { turnId: this.#turnId, kind: 'tool_call', tool: e.name });
        return;
      case 'local_text':
        // Counts only: the text itself never reaches the daemon's host side (contract §6.5).
        if (this.#turnId !== null)
          bus.emit('runtime.local', { turnId: this.#turnId, kind: 'local_text', bytes: e.bytes, runes: e.runes });
        return;
      case 'operator_wait':
        this.#runtimeWait(e.waiting);
        return;
      case 'turn_end':
        this.#endTurn();
        this.#setState('idle');
        return;
      case 'exit':
        // issue 14: the process that asked is gone: its pending approvals are cancelled (no chip waits forever).
        this.#o.approvals?.cancelAgent(
          agentId,
          e.expected ? 'the agent was stopped' : 'the runtime exited before an answer',
        );
        this.#endTurn();
        this.#setState(e.expected ? 'stopped' : 'starting');
        return;
      case 'gave_up':
        this.#setState('crashed');
        return;
      default:
        return;
    }
  }

  /** The lifecycle: events of the current process generation only. */
  #settle(e: RuntimeEventEnvelope): void {
    const { lifecycle, agentId, ports } = this.#o;
    if (e.generation < this.#adapterGen) return;
    switch (e.type) {
      case 'ready': {
        if (this.#adapterGen === -1 && !this.#replacing) {
          this.#adapterGen = e.generation;
          return;
        }
        this.#replacing = false;
        if (e.generation === this.#adapterGen) return;
        // A restarted process: the lifecycle's next generation (§6.6, §8.3).
        this.#adapterGen = e.generation;
        const next = lifecycle.generation(agentId) + 1;
        this.#lifeGen = next;
        const frontiers = lifecycle.onProcessReplaced(agentId, next);
        if (frontiers.length > 0) ports.onRecovery(frontiers, 'process_replaced');
        return;
      }
      case 'context_reset': {
        // issue 16: recover the runtime-visible rows into the continued (compacted) session.
        this.#resetInTurn = this.#turnId !== null;
        const frontiers = lifecycle.onContextReset(agentId, this.#lifeGen, e.cause);
        if (frontiers.length > 0) ports.onRecovery(frontiers, e.cause);
        return;
      }
      case 'runtime_error':
        this.#lastError = e.detail;
        this.#lastReason = e.reason ?? null;
        return;
      case 'final_check': {
        const injection = this.#lastInjection;
        if (e.outcome === 'failed' && injection !== null)
          lifecycle.onFinalCheckUndeliverable(
            agentId,
            injection.generation,
            injection.wakeTokens,
            e.detail ?? undefined,
          );
        return;
      }
      case 'turn_end': {
        const reset = this.#resetInTurn;
        this.#resetInTurn = false;
        // A turn that failed because its context overflowed was recovered at the reset (§6.6).
        if (e.outcome !== 'completed' && !reset)
          lifecycle.onRuntimeError(
            agentId,
            this.#lifeGen,
            this.#lastError ?? (e.outcome === 'interrupted' ? 'the turn was interrupted' : 'the runtime turn failed'),
            { reason: this.#lastReason ?? 'runtime_error' },
          );
        this.#lastError = null;
        this.#lastReason = null;
        return;
      }
      case 'exit': {
        // A process that never became ready is a failed start, reported by the start itself
        // (issue 15: a missing CLI must fail its wakes with `cli_missing`, not hold them queued).
        if (e.expected || this.#adapterGen === -1) return;
        const detail =
          this.#lastError ??
          `the ${this.#adapter?.runtime ?? 'agent'} runtime exited unexpectedly (${e.signal ?? `code ${e.code ?? '?'}`})`;
        const reason = this.#lastReason ?? 'cli_exited';
        this.#lastError = null;
        this.#lastReason = null;
        this.#resetInTurn = false;
        // issue 16: the replacement recovers the runtime-visible rows (§6.6); nothing is failed for the crash itself.
        lifecycle.onProcessExited(agentId, this.#lifeGen, detail, reason);
        return;
      }
      case 'gave_up': {
        const detail = `the runtime crashed ${e.restarts} times and is no longer restarted`;
        this.#downReason = 'cli_exited';
        // No replacement comes: the rows that waited for one end `failed` now (§9.2).
        lifecycle.onRuntimeError(agentId, this.#lifeGen, detail, { processExited: true, reason: 'cli_exited' });
        this.#down(detail);
        return;
      }
      case 'local_text':
        // Counts only (contract §6.5): they reach the wake status as diagnostics, never the text.
        lifecycle.onLocalTextCounts(agentId, this.#lifeGen, { bytes: e.bytes, runes: e.runes });
        return;
      default:
        // Tool calls settle nothing (contract §9.2).
        return;
    }
  }

  #boundary(): string | null {
    const { lifecycle, agentId, ports } = this.#o;
    if (this.#stopped) return null;
    const injection = lifecycle.onTurnBoundary(agentId, this.#lifeGen, 'turn_end');
    this.#lastInjection = injection;
    if (injection === null) return null;
    // Recorded before the injection is tried (§6.4).
    ports.recordPromptInput({
      agentId,
      kind: 'final_check',
      wakeTokens: injection.wakeTokens,
      text: injection.finalCheck,
    });
    return injection.finalCheck;
  }

  async #deliver(d: WakeDelivery): Promise<void> {
    const { lifecycle, agentId, ports } = this.#o;
    await this.#ready;
    // A daemon stopping while the runtime started: the store may already be closed.
    if (this.#stopped) return;
    const adapter = this.#adapter;
    if (d.generation !== this.#lifeGen) return;
    const tokens = d.wakes.map((w) => w.wakeToken);
    if (adapter === null) {
      // issue 14: no runtime could be built (e.g. its workspace is not a folder): the wake ends with why.
      lifecycle.onDeliveryFailed(
        agentId,
        d.generation,
        tokens,
        this.#downDetail ?? 'the runtime is not running',
        this.#downReason ?? 'runtime_error',
      );
      return;
    }
    const text = ports.renderDelivery(d, this.#delivered ? 'wake' : 'fresh');
    if (text === null) {
      lifecycle.onDeliveryFailed(
        agentId,
        d.generation,
        tokens,
        'the delivery prompt could not be built',
        'runtime_error',
      );
      return;
    }
    this.#delivered = true;
    ports.recordPromptInput({ agentId, kind: 'delivery', wakeTokens: tokens, text });
    const res = await adapter.deliver(text);
    if (res.ok) lifecycle.onDelivered(agentId, d.generation, tokens);
    // issue 15: a runtime that is down fails the delivery with the reason it went down for.
    else
      lifecycle.onDeliveryFailed(
        agentId,
        d.generation,
        tokens,
        res.message,
        res.code === 'not_running' ? (this.#downReason ?? 'cli_exited') : 'cli_exited',
      );
  }

  #down(detail: string): void {
    this.#downDetail = detail;
    this.#setState('crashed');
    this.#o.ports.onRuntimeDown(detail);
  }

  #endTurn(): void {
    if (this.#turnId !== null) this.#o.bus.emit('turn.end', { turnId: this.#turnId });
    this.#turnId = null;
    this.#runtimeWaitTurn = null;
  }

  /**
   * issue 14 "Liveness from the runtime where it exists": while the runtime says it waits on the
   * operator, the turn's silence clock is paused by the same `approval.wait` the daemon's pending
   * approvals use (the watchdog counts waits: paused while either says so, restarted from zero
   * when the last ends). Balanced per turn: one "on" for the turn it was said in, one "off".
   */
  #runtimeWait(waiting: boolean): void {
    const turnId = this.#turnId;
    if (waiting && turnId !== null && this.#runtimeWaitTurn !== turnId) {
      this.#runtimeWaitTurn = turnId;
      this.#o.bus.emit('approval.wait', { turnId, agentId: this.#o.agentId, waiting: true });
    } else if (!waiting && this.#runtimeWaitTurn !== null) {
      const was = this.#runtimeWaitTurn;
      this.#runtimeWaitTurn = null;
      this.#o.bus.emit('approval.wait', { turnId: was, agentId: this.#o.agentId, waiting: false });
    }
  }

  #rememberTurn(turnId: string, wakeTokens: readonly string[]): void {
    this.#turnWakes.set(turnId, wakeTokens);
    if (this.#turnWakes.size > TURNS_KEPT) this.#turnWakes.delete(this.#turnWakes.keys().next().value as string);
  }

  #setState(state: Agent['state']): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#o.ports.onState(state);
  }
}
