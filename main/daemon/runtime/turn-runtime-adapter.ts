/**
 * Presents a turn-based runtime (Codex app-server, OpenCode serve: `AgentRuntime`, one turn
 * per prompt) through the runtime-neutral `RuntimeAdapter` the host uses for every runtime.
 *
 * Where Claude Code answers the final-check inside the same turn (Stop hook), these runtimes
 * end the turn first. So at a completed turn end the host is asked (`onTurnBoundary`); its
 * final-check goes into the same thread/session as the next turn (`via: 'user_message'`), and
 * the delivery turn and its final-check turn form one logical turn: one `turn_start`, one
 * `turn_end` (watchdog hooks), exactly as the host sees a Claude Code turn.
 *
 * Shared adapter behaviour lives here once for both runtimes: local text reduced to counts
 * (contract §6.5), failed turns as bounded `runtime_error` + `turn_end error`, and a crash →
 * capped restart with backoff (`RestartSupervisor`), `gave_up` at the cap.
 */
import { Subject, asyncScheduler, type Observable, type SchedulerLike, type Subscription, timer } from 'rxjs';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-types.js';
import type { AgentRuntime, RuntimeEvent as TurnEvent } from './agent-runtime.js';
import {
  boundedDetail,
  textMetrics,
  type DeliverResult,
  type RuntimeAdapter,
  type RuntimeEvent,
  type RuntimeEventEnvelope,
  type StartResult,
  type TurnBoundaryHost,
} from './runtime-adapter.js';
import { DEFAULT_RESTART_POLICY, RestartSupervisor, type RestartPolicy } from './supervisor.js';

export interface TurnRuntimeAdapterOptions {
  readonly runtime: AgentRuntime;
  readonly host: TurnBoundaryHost;
  readonly restart?: RestartPolicy;
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

export class TurnRuntimeAdapter implements RuntimeAdapter {
  readonly runtime: RuntimeKind;
  readonly #inner: AgentRuntime;
  readonly #o: TurnRuntimeAdapterOptions;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$: Observable<RuntimeEventEnvelope> = this.#events.asObservable();
  readonly #supervisor: RestartSupervisor;
  readonly #scheduler: SchedulerLike;
  readonly #sub: Subscription;
  #restartTimer: Subscription | null = null;
  #sessionId: string | null = null;
  /** A delivery turn and its final-check turn are one logical turn for the host. */
  #turnOpen = false;
  #stopped = false;

  constructor(options: TurnRuntimeAdapterOptions) {
    this.#o = options;
    this.#inner = options.runtime;
    this.runtime = options.runtime.kind;
    this.#supervisor = new RestartSupervisor(options.restart ?? DEFAULT_RESTART_POLICY);
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#sub = this.#inner.events$.subscribe((e) => {
      void this.#onInner(e);
    });
  }

  /** The inner runtime (diagnostics, tests). */
  get inner(): AgentRuntime {
    return this.#inner;
  }

  async start(): Promise<StartResult> {
    this.#stopped = false;
    this.#supervisor.reset();
    return this.#start();
  }

  async #start(): Promise<StartResult> {
    const res = await this.#inner.start();
    if (res.ok) return { ok: true, sessionId: res.value.sessionId, resumed: res.value.resumed };
    const code = res.code === 'spawn_failed' ? 'spawn_failed' : res.code === 'not_ready' ? 'start_timeout' : 'exited';
    return { ok: false, code, message: res.message };
  }

  async deliver(text: string): Promise<DeliverResult> {
    const res = await this.#inner.submit({ kind: 'delivery', text });
    if (res.ok) return { ok: true };
    return {
      ok: false,
      code: res.code === 'not_running' || res.code === 'process_exited' ? 'not_running' : 'write_failed',
      message: res.message,
    };
  }

  async interrupt(): Promise<void> {
    const res = await this.#inner.interrupt();
    if (!res.ok)
      this.#o.log?.warn('runtime interrupt failed', { runtime: this.runtime, code: res.code, message: res.message });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#restartTimer?.unsubscribe();
    this.#restartTimer = null;
    await this.#inner.stop();
  }

  /** Stops and completes the event stream (the adapter is discarded). */
  async dispose(): Promise<void> {
    await this.stop();
    this.#sub.unsubscribe();
    this.#events.complete();
  }

  #emit(generation: number, event: RuntimeEvent): void {
    this.#events.next({ ...event, generation } as RuntimeEventEnvelope);
  }

  async #onInner(e: TurnEvent): Promise<void> {
    const g = e.generation;
    switch (e.type) {
      case 'ready':
        this.#sessionId = e.sessionId;
        this.#emit(g, { type: 'ready', sessionId: e.sessionId, resumed: e.resumed });
        return;
      case 'turn.start':
        if (this.#turnOpen) return;
        this.#turnOpen = true;
        this.#emit(g, { type: 'turn_start', sessionId: this.#sessionId });
        return;
      case 'tool':
        if (e.status === 'started') this.#emit(g, { type: 'tool_call', name: e.tool });
        return;
      case 'local_text':
        // contract §6.5: the text stops here; only its counts travel.
        this.#emit(g, { type: 'local_text', ...textMetrics(e.text) });
        return;
      case 'turn.end':
        if (e.outcome === 'completed') return this.#boundary(g);
        if (e.outcome === 'failed')
          this.#emit(g, { type: 'runtime_error', detail: boundedDetail(e.error ?? `the ${this.runtime} turn failed`) });
        this.#endTurn(g, e.outcome === 'failed' ? 'error' : 'interrupted');
        return;
      case 'exit':
        return this.#onExit(g, e.code, e.signal, e.expected);
    }
  }

  async #boundary(g: number): Promise<void> {
    let text: string | null;
    try {
      text = await this.#o.host.onTurnBoundary();
    } catch (err) {
      this.#emit(g, {
        type: 'final_check',
        outcome: 'failed',
        via: 'user_message',
        detail: boundedDetail(`host error: ${err instanceof Error ? err.message : String(err)}`),
      });
      text = null;
    }
    if (text === null) return this.#endTurn(g, 'completed');
    const res = await this.#inner.submit({ kind: 'final_check', text });
    this.#emit(g, {
      type: 'final_check',
      outcome: res.ok ? 'injected' : 'failed',
      via: 'user_message',
      detail: res.ok ? null : boundedDetail(res.message),
    });
    // The final-check turn continues the logical turn; its end asks the host again.
    if (!res.ok) this.#endTurn(g, 'completed');
  }

  #endTurn(g: number, outcome: 'completed' | 'error' | 'interrupted'): void {
    if (!this.#turnOpen) return;
    this.#turnOpen = false;
    this.#emit(g, { type: 'turn_end', outcome });
  }

  #onExit(g: number, code: number | null, signal: string | null, expected: boolean): void {
    if (this.#turnOpen && !expected)
      this.#emit(g, {
        type: 'runtime_error',
        detail: boundedDetail(`the ${this.runtime} runtime exited during a turn (code ${code}, signal ${signal})`),
      });
    this.#turnOpen = false;
    this.#emit(g, { type: 'exit', code, signal, expected });
    if (expected || this.#stopped) return;
    const decision = this.#supervisor.onCrash(this.#scheduler.now());
    if (!decision.restart) {
      this.#o.log?.error('runtime restart cap reached', { runtime: this.runtime, restarts: decision.restarts });
      this.#emit(g, { type: 'gave_up', restarts: decision.restarts });
      return;
    }
    this.#emit(g, { type: 'restart_scheduled', attempt: decision.attempt, delayMs: decision.delayMs });
    this.#restartTimer = timer(decision.delayMs, this.#scheduler).subscribe(() => {
      this.#restartTimer = null;
      if (this.#stopped) return;
      void this.#start().then((res) => {
        if (!res.ok) this.#onExit(this.#inner.generation, null, null, false);
      });
    });
  }
}
