/**
 * One configured agent at run time: its runtime adapter (any `RuntimeAdapter`: Claude Code,
 * Codex, OpenCode, demo) bound to the wake lifecycle and the hook bus, through ONE subscription
 * to the adapter's events. This is the shell: every decision (the agent's state, the bus bridge,
 * what the lifecycle is told, and for which process generation) is `agentSessionStep`'s
 * (agent-session-machine.ts, STYLE.md habit 6). The shell subscribes to the adapter and the
 * lifecycle's deliveries, awaits what is asynchronous (start, stop, delivery writes), feeds what
 * happened with the facts only I/O can read, and performs the calls in order:
 *
 * - admitted rows → one delivery prompt → `deliver`; accepted → `onDelivered`, refused →
 *   `onDeliveryFailed` (contract §9.2);
 * - `host.onTurnBoundary` → `lifecycle.onTurnBoundary`: the returned final-check is what the
 *   adapter injects into the same session (§6.4, §8.3), recorded as `prompt_input` (§8.4);
 * - an unexpected `exit` → `onProcessExited`; the adapter restarts it with backoff, and the next
 *   `ready` → `onProcessReplaced`, whose recovery frontiers go to `onRecovery` (§6.6);
 * - a context overflow (`context_overflow`) on a runtime that compacts natively → `compact`: the
 *   same session compacts and the same wakes go on with a continuation prompt (issue 38); where it
 *   cannot (or that fails) → `onContextReset` (the originals end, their recovery markers are saved)
 *   and `renewSession`: the owner replaces the process (`replace`) by one that starts a fresh
 *   session; the recovery wake is delivered only once that one is ready (§6.6).
 */
import type { AnnouncedLimitWindow, TurnUsage } from '../../../shared/usage.js';
import { randomUUID } from 'node:crypto';
import { Subscription, filter } from 'rxjs';
import type { Agent } from '../../../shared/api/contract.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ApprovalAnswer, ApprovalAsk } from '../runtime/approval-port.js';
import type { RuntimeAdapter, RuntimeEventEnvelope, TurnBoundaryHost } from '../runtime/runtime-adapter.js';
import type { ContinuedWake } from '../prompt/overflow-continuation.js';
import type { RecoveryCause, RecoveryFrontier } from '../wake/pending-delivery.js';
import type { WakeDelivery, WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { AgentSessionCall } from './agent-session-calls.js';
import type { AgentSessionEvent, RuntimeInput } from './agent-session-events.js';
import { agentSessionStep } from './agent-session-machine.js';
import {
  initialAgentSessionState,
  type AgentSessionState,
  type OverflowContinuation,
  type TurnEndReason,
} from './agent-session-state.js';

export interface PromptInputRecord {
  readonly agentId: string;
  readonly kind: 'delivery' | 'final_check' | 'continuation';
  readonly wakeTokens: readonly string[];
  readonly text: string;
}

/** What building the runtime adapter gave (`createRuntimeAdapter`'s result). */
export type MadeAdapter =
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** issue 26: a runtime whose workspace is prepared first (an isolated agent's git worktree) is built later. */
export type MaybeMadeAdapter = MadeAdapter | Promise<MadeAdapter>;

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
   * replaced, or the context overflowed), for one synthetic recovery wake each.
   */
  onRecovery(frontiers: readonly RecoveryFrontier[], cause: RecoveryCause): void;
  /**
   * issue 24: the runtime compacted its context and goes on in the same session (a continuation,
   * contract §8.3, §9.2): nothing ends or is recovered; the wakes it works on note it on their
   * timelines (issue 38: `detail` says when the compaction followed an overflow).
   */
  onContextCompacted(detail: string | null): void;
  /**
   * issue 38: the continuation prompt after an overflow's compaction for these wakes (their exact
   * targets, the runtime's send tool), or null when none can be built.
   */
  renderContinuation?(wakes: readonly ContinuedWake[]): string | null;
  /** issue 38: why an overflow goes to a fresh session (§6.6) instead of a compaction: on the wakes' timelines. */
  onOverflowRenewal?(detail: string): void;
  /**
   * issue 27: the usage of a turn as the runtime reported it (one report per turn, or per model
   * request: Codex, OpenCode), with the turn and the wakes it carried at its start (possibly ended
   * already: the reply came first); optional (tests).
   */
  onUsage?(usage: TurnUsage, turn: { readonly turnId: string | null; readonly wakeTokens: readonly string[] }): void;
  /** issue 27: a rate-limit window the provider announced. */
  onLimitWindow?(window: AnnouncedLimitWindow, turnWakes: readonly string[]): void;
  /**
   * issue 24 (§6.6): the context overflowed and the session cannot go on: replace this session's
   * process (`replace`) by one that starts a fresh session, its stored session forgotten (never
   * resumed). Until the replacement is ready, deliveries wait (it re-offers them).
   */
  renewSession(detail: string): void;
  /** The runtime could not be built or started, or gave up after the restart cap. */
  onRuntimeDown(detail: string): void;
  /** The agent's state changed. */
  onState(state: Agent['state']): void;
  /** issue 15: a restart was scheduled (its attempt number), or the runtime is up again (null). */
  onRestart?(attempt: number | null): void;
  /**
   * issue 42: the sleeping agent's runtime was started again for a delivery and was ready after
   * `ms` (its wakes' timelines say "woke the agent (2.1 s)").
   */
  onWoke?(ms: number, wakeTokens: readonly string[]): void;
  /**
   * issue 27: a turn ended `provider_rate_limited`: true when the usage-pause service paused its
   * wakes (usage-pause-service.ts), false to fail them as before (`onUsageLimit: "fail"`).
   */
  onUsageLimit?(generation: number, detail: string): boolean;
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
  /** The daemon's clock in ms (issue 42: how long a wake-up took); `Date.now` by default. */
  readonly now?: () => number;
}

/** issue 42: a wake-up's start is tried twice before its deliveries fail (`#startAttached`). */
const WAKE_UP_STARTS = 2;

export class AgentSession {
  readonly #o: AgentSessionOptions;
  readonly #subs = new Subscription();
  #events: Subscription | null = null;
  #adapter: RuntimeAdapter | null = null;
  #ready: Promise<boolean> = Promise.resolve(false);
  #s: AgentSessionState;
  /** What the turn boundary being answered resolves with (set by `answer_final_check`). */
  #finalCheck: string | null = null;
  /** issue 42: while asleep, how the runtime is built again at the next delivery; the sleep's stop. */
  #rebuild: (() => MaybeMadeAdapter) | null = null;
  #asleep: Promise<void> = Promise.resolve();
  /** issue 42: the wake-up under way (deliveries that arrive meanwhile wait for the same one); its duration. */
  #waking: Promise<number | null> | null = null;

  /** Give this to the adapter (`RuntimeDeps.host`): the lifecycle decides every final-check. */
  readonly host: TurnBoundaryHost = {
    onTurnBoundary: () => Promise.resolve(this.#boundary()),
    // issue 14: the running turn and its wakes travel with the question (the chip shows it on them).
    requestApproval: (ask) => {
      const approvals = this.#o.approvals;
      const turnId = this.#s.turnId;
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
          runtime: this.#s.runtime ?? 'unknown',
          turnId,
          wakeTokens: turnId === null ? [] : this.wakesOfTurn(turnId),
        },
        ask,
      );
    },
  };

  constructor(options: AgentSessionOptions) {
    this.#o = options;
    this.#s = initialAgentSessionState(options.agentId);
  }

  get state(): Agent['state'] {
    return this.#s.agentState;
  }

  /**
   * issue 40: why the runtime is down (its wakes fail with `reason`), and what it said; null
   * while it is not down for a known reason.
   */
  get down(): { readonly reason: FailureReason; readonly detail: string | null } | null {
    const reason = this.#s.downReason;
    return reason === null ? null : { reason, detail: this.#s.downDetail };
  }

  /** The running turn's id (delivery correlation), or null between turns. */
  get turnId(): string | null {
    return this.#s.turnId;
  }

  /** The wakes a recent turn carried at its `turn.start` (empty when unknown or too old). */
  wakesOfTurn(turnId: string): readonly string[] {
    return this.#s.turnWakes.get(turnId) ?? [];
  }

  /**
   * Starts the runtime built around `host` and begins delivering. Resolves false (the agent
   * shows as crashed, `onRuntimeDown` is told) when it could not be built or started.
   */
  async start(made: MaybeMadeAdapter): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    this.#feed({ type: 'start', tableGeneration: lifecycle.generation(agentId) });
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
  async replace(build: () => MaybeMadeAdapter, detail: string): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    this.#feed({ type: 'replace', detail });
    if (this.#s.stopped) return false;
    const old = this.#adapter;
    this.#adapter = null;
    await old?.stop();
    // issue 42: a sleeping agent's process may still be stopping: never two on one session.
    await this.#asleep;
    this.#events?.unsubscribe();
    this.#events = null;
    this.#feed({ type: 'retired' });
    // The daemon stopped meanwhile: nothing new is started (no orphans).
    if (this.#s.stopped) return false;
    // Built only now: a new MCP token is issued once the old process is gone.
    const ok = await this.#launch(build());
    this.#feed({ type: 'replacement_settled', ok, tableGeneration: lifecycle.generation(agentId) });
    return ok;
  }

  async #launch(made: MaybeMadeAdapter, starts = 1): Promise<boolean> {
    if (!(made instanceof Promise)) return this.#attach(made, starts);
    // issue 26: rows admitted while the workspace is prepared wait for the runtime, as while it starts.
    let settle: (ok: boolean) => void = () => undefined;
    this.#ready = new Promise<boolean>((r) => (settle = r));
    const built = await made.catch((err: unknown): MadeAdapter => ({
      ok: false,
      // issue 40: an isolated agent's worktree could not be made: its entry cannot run as written.
      code: 'config_invalid',
      message: err instanceof Error ? err.message : String(err),
    }));
    // The daemon stopped meanwhile: nothing is started (no orphans).
    const ok = this.#s.stopped ? false : await this.#attach(built, starts);
    settle(ok);
    return ok;
  }

  async #attach(made: MadeAdapter, starts = 1): Promise<boolean> {
    if (!made.ok) {
      this.#feed({ type: 'runtime_unbuilt', code: made.code, message: made.message });
      return false;
    }
    const adapter = made.adapter;
    this.#adapter = adapter;
    this.#feed({ type: 'runtime_attached', runtime: adapter.runtime });
    // Rows admitted while the first process starts wait for it (never fail for being early).
    this.#events = adapter.events$.subscribe((e) => this.#feed(this.#facts(e)));
    this.#ready = this.#startAttached(adapter, starts);
    const ok = await this.#ready;
    this.#feed({ type: 'launch_settled', ok });
    return ok;
  }

  /**
   * Starts the attached adapter, up to `starts` times: issue 42, a wake-up's start that failed for
   * a cause another try can outlast (a start timeout while many CLIs start, an early exit) is not
   * the model's failure, so it is tried once more before the deliveries waiting for it fail. A
   * missing CLI, a sign-in or an unreachable host would fail the same way again.
   */
  async #startAttached(adapter: RuntimeAdapter, starts: number): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      const res = await adapter.start();
      if (res.ok) return true;
      const again = res.reason === undefined || res.reason === 'cli_exited';
      if (attempt < starts && again && !this.#s.stopped && this.#adapter === adapter) {
        this.#o.log?.warn('agent start failed; starting it once more', {
          agentId: this.#o.agentId,
          runtime: adapter.runtime,
          code: res.code,
          message: res.message,
        });
        this.#feed({ type: 'start_again' });
        continue;
      }
      this.#feed({ type: 'start_failed', runtime: adapter.runtime, result: res });
      return false;
    }
  }

  /**
   * issue 29 "Turns end": ends the running turn through the runtime's own interrupt (Claude Code's
   * stream-json `interrupt`, Codex `turn/interrupt`, OpenCode's session abort, the demo's); its
   * wakes end `failed` with `reason` once the runtime says the turn ended. `turnId` names the
   * turn meant (a timer's, or the one the operator saw working); null: whichever is running.
   * Resolves false when no turn is running (or a different one is).
   */
  endTurn(reason: TurnEndReason, detail: string, turnId: string | null = null): boolean {
    const running = this.#s.turnId;
    if (running === null || (turnId !== null && turnId !== running) || this.#s.stopped) return false;
    this.#feed({ type: 'end_turn', turnId: running, reason, detail });
    return true;
  }

  /** issue 29: whether turn `turnId` was asked to end and is still running (its runtime ignored the interrupt). */
  stillEnding(turnId: string): boolean {
    return this.#s.turnId === turnId && this.#s.turnEndAsked?.turnId === turnId;
  }

  /**
   * issue 42 "Sleep and wake": stops the idle agent's runtime until the next delivery, which
   * starts the one `rebuild` makes — in the same session, through the session store every restart
   * resumes from (runtime-session-store.ts: Claude Code `--resume`, Codex `thread/resume`,
   * OpenCode's session, ACP `session/load`). Resolves false when the agent was not idle (the
   * machine decides: agent-session-machine.ts `sleep`).
   */
  async sleep(rebuild: () => MaybeMadeAdapter): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    if (this.#waking !== null) return false;
    // Any row the lifecycle holds (one on its way to the runtime included) keeps the agent awake.
    this.#feed({ type: 'sleep', working: lifecycle.pending(agentId).length });
    if (this.#s.agentState !== 'sleeping') return false;
    const old = this.#adapter;
    this.#adapter = null;
    // Its exit is expected and settles nothing: no longer followed (the agent reads `sleeping`, not `stopped`).
    this.#events?.unsubscribe();
    this.#events = null;
    this.#rebuild = rebuild;
    this.#asleep = old?.stop() ?? Promise.resolve();
    await this.#asleep;
    this.#feed({ type: 'slept' });
    return true;
  }

  /** issue 42: the wake-up of a sleeping agent (one for every delivery that waits for it); its duration, or null. */
  #wake(): Promise<number | null> {
    this.#waking ??= this.#wakeUp().finally(() => (this.#waking = null));
    return this.#waking;
  }

  async #wakeUp(): Promise<number | null> {
    await this.#asleep;
    const rebuild = this.#rebuild;
    if (this.#s.stopped || this.#s.agentState !== 'sleeping' || rebuild === null) return null;
    this.#rebuild = null;
    const now = this.#o.now ?? Date.now;
    const started = now();
    this.#feed({ type: 'wake' });
    const ok = await this.#launch(rebuild(), WAKE_UP_STARTS);
    return ok ? now() - started : null;
  }

  /** Stops delivering and stops the adapter (no orphans); the adapter's last events still reach the bus. Idempotent. */
  async stop(): Promise<void> {
    this.#feed({ type: 'stop' });
    this.#subs.unsubscribe();
    await this.#adapter?.stop();
    await this.#asleep;
    this.#events?.unsubscribe();
    this.#feed({ type: 'stopped' });
  }

  /** A runtime event with what its decision needs to know: a new turn's id and wakes, the lifecycle's generation. */
  #facts(e: RuntimeEventEnvelope): RuntimeInput {
    const { lifecycle, agentId } = this.#o;
    if (e.type === 'turn_start') return { ...e, turnId: `turn_${randomUUID()}`, pending: lifecycle.pending(agentId) };
    if (e.type === 'ready') return { ...e, tableGeneration: lifecycle.generation(agentId) };
    if (e.type === 'context_overflow') return { ...e, continuation: this.#continuation(e.canCompact) };
    return e;
  }

  /** issue 38: the wakes the overflowed session works on (runtime-visible rows) and their continuation prompt. */
  #continuation(canCompact: boolean): OverflowContinuation {
    const { lifecycle, agentId, ports } = this.#o;
    const rows = lifecycle.pending(agentId).filter((r) => r.visible);
    const wakeTokens = rows.map((r) => r.wakeToken);
    if (!canCompact || rows.length === 0) return { wakeTokens, text: null };
    return { wakeTokens, text: ports.renderContinuation?.(rows) ?? null };
  }

  #boundary(): string | null {
    this.#finalCheck = null;
    this.#feed({ type: 'turn_boundary' });
    const finalCheck = this.#finalCheck;
    this.#finalCheck = null;
    return finalCheck;
  }

  async #deliver(delivery: WakeDelivery): Promise<void> {
    // issue 42: a delivery for a sleeping agent wakes it first (deliveries meanwhile wait for the same wake-up).
    if (this.#s.agentState === 'sleeping' || this.#waking !== null) {
      const ms = await this.#wake();
      if (ms !== null)
        this.#o.ports.onWoke?.(
          ms,
          delivery.wakes.map((w) => w.wakeToken),
        );
    }
    await this.#ready;
    this.#feed({ type: 'delivery_due', delivery });
  }

  async #write(delivery: WakeDelivery, text: string): Promise<void> {
    const adapter = this.#adapter;
    // A bug, not a boundary error: the machine writes only while an adapter is attached.
    if (adapter === null) throw new Error(`internal: agent "${this.#o.agentId}" has no runtime to write into`);
    // issue 38: asked again right before the runtime writes it: a wake paused meanwhile never reaches it.
    const { lifecycle, agentId } = this.#o;
    const tokens = delivery.wakes.map((w) => w.wakeToken);
    const result = await adapter.deliver(text, () => lifecycle.due(agentId, delivery.generation, tokens));
    this.#feed({ type: 'delivery_written', delivery, result });
  }

  /** One step of the machine: its state is kept, then its calls are performed in order. */
  #feed(event: AgentSessionEvent): void {
    const [next, calls] = agentSessionStep(this.#s, event);
    this.#s = next;
    for (const call of calls) this.#perform(call);
  }

  #perform(c: AgentSessionCall): void {
    const { lifecycle, agentId, ports, bus } = this.#o;
    switch (c.call) {
      case 'report_state':
        return ports.onState(c.state);
      case 'report_restart':
        return ports.onRestart?.(c.attempt);
      case 'report_down':
        return ports.onRuntimeDown(c.detail);
      case 'log_error':
        return this.#o.log?.error(c.message, c.fields);
      case 'log_warn':
        return this.#o.log?.warn(c.message, c.fields);
      case 'interrupt_runtime':
        return void this.#adapter?.interrupt();
      case 'record_prompt_input':
        return ports.recordPromptInput({ agentId, kind: c.kind, wakeTokens: c.wakeTokens, text: c.text });
      case 'turn.start':
        return bus.emit(c.call, c.event);
      case 'turn.end':
        return bus.emit(c.call, c.event);
      case 'runtime.local':
        return bus.emit(c.call, c.event);
      case 'approval.wait':
        return bus.emit(c.call, c.event);
      case 'cancel_approvals':
        return this.#o.approvals?.cancelAgent(agentId, c.reason);
      case 'follow_deliveries':
        this.#subs.add(
          lifecycle.deliveries$.pipe(filter((d) => d.agentId === agentId)).subscribe((d) => void this.#deliver(d)),
        );
        return;
      case 'render_delivery':
        return this.#feed({
          type: 'delivery_rendered',
          delivery: c.delivery,
          text: ports.renderDelivery(c.delivery, c.turn),
        });
      case 'write_prompt':
        return void this.#write(c.delivery, c.text);
      case 'mark_delivered':
        return lifecycle.onDelivered(agentId, c.generation, c.wakeTokens);
      case 'fail_delivery':
        return lifecycle.onDeliveryFailed(agentId, c.generation, c.wakeTokens, c.detail, c.reason);
      case 'choose_final_check':
        return this.#feed({
          type: 'final_check_chosen',
          injection: lifecycle.onTurnBoundary(agentId, c.generation, 'turn_end'),
        });
      case 'answer_final_check':
        this.#finalCheck = c.finalCheck;
        return;
      case 'final_check_undeliverable':
        return lifecycle.onFinalCheckUndeliverable(agentId, c.generation, c.wakeTokens, c.detail ?? undefined);
      case 'fail_pending':
        if (
          c.reason === 'provider_rate_limited' &&
          !c.processExited &&
          ports.onUsageLimit?.(c.generation, c.detail) === true
        )
          return;
        return lifecycle.onRuntimeError(agentId, c.generation, c.detail, {
          processExited: c.processExited,
          reason: c.reason,
        });
      case 'end_turn_rows':
        return lifecycle.onTurnEnded(agentId, c.generation, c.reason, c.detail);
      case 'process_exited':
        return lifecycle.onProcessExited(agentId, c.generation, c.detail, c.reason);
      case 'process_replaced':
        return this.#recover(lifecycle.onProcessReplaced(agentId, c.generation), 'process_replaced');
      case 'note_compaction':
        this.#o.log?.info('runtime compacted its context; the turn continues', {
          agentId,
          ...(c.detail === null ? {} : { detail: c.detail }),
        });
        return ports.onContextCompacted(c.detail);
      case 'compact_runtime':
        return void this.#compact(c.continuation);
      case 'note_renewal':
        this.#o.log?.info('context overflow: the session is renewed', { agentId, detail: c.detail });
        return ports.onOverflowRenewal?.(c.detail);
      case 'context_reset':
        return this.#recover(lifecycle.onContextReset(agentId, c.generation, c.cause), c.cause);
      case 'record_usage':
        return ports.onUsage?.(c.usage, { turnId: c.turnId, wakeTokens: c.wakeTokens });
      case 'record_limit_window':
        return ports.onLimitWindow?.(c.window, c.wakeTokens);
      case 'renew_session':
        return ports.renewSession(c.detail);
      case 'count_local_text':
        return lifecycle.onLocalTextCounts(agentId, c.generation, { bytes: c.bytes, runes: c.runes });
    }
  }

  /** issue 38: the adapter compacts its session and writes the continuation; the machine hears how it went. */
  async #compact(continuation: string | null): Promise<void> {
    const adapter = this.#adapter;
    const res =
      adapter?.compact === undefined
        ? { ok: false as const, message: 'the runtime cannot compact its session' }
        : await adapter.compact(continuation);
    this.#feed({ type: 'compaction_settled', ok: res.ok, detail: res.ok ? null : res.message });
  }

  /** contract §6.6: one synthetic recovery wake per frontier of the lost session. */
  #recover(frontiers: readonly RecoveryFrontier[], cause: RecoveryCause): void {
    if (frontiers.length > 0) this.#o.ports.onRecovery(frontiers, cause);
  }
}
