/**
 * Binds one agent's runtime (any `AgentRuntime`) to the wake lifecycle — the behaviour shared
 * by all runtimes (issue 10):
 *
 * - admitted rows → one delivery prompt → `submit`; accepted → `onDelivered`, refused →
 *   `onDeliveryFailed` (contract §9.2);
 * - `turn.end` completed → `onTurnBoundary`; a returned final-check goes into the same session
 *   (contract §6.4, §8.3) and, if it cannot, `onFinalCheckUndeliverable` (Phase 4: no retry);
 * - `turn.end` failed or interrupted → `onRuntimeError` (every pending row ends `failed`);
 * - `local_text` → `onLocalText` (counted, then dropped: §6.5);
 * - an unexpected exit → `onRuntimeError(processExited)`, then a capped restart with backoff;
 *   the new process → `onProcessReplaced` and its recovery frontiers go to the integrator (§6.6);
 * - `stop()` stops the process and its children (no orphans) and cancels any pending restart.
 *
 * Generations: the lifecycle numbers runtime processes from 0 (its table's generation); each
 * restart is the next one. Runtime events of an older process are ignored here, and the
 * lifecycle ignores stale generations too (STYLE.md "generation-tagged watches").
 */
import { Subscription, asyncScheduler, filter, timer, type SchedulerLike } from 'rxjs';
import type { DaemonLog } from '../daemon-types.js';
import type { RecoveryFrontier } from '../wake/pending-delivery.js';
import type { WakeDelivery, WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { AgentRuntime, PromptKind, RuntimeEvent } from './agent-runtime.js';
import { RestartPolicy, type RestartPolicyOptions } from './restart-policy.js';

export interface PromptInputRecord {
  readonly agentId: string;
  readonly kind: PromptKind;
  readonly wakeTokens: readonly string[];
  readonly text: string;
}

export interface WakeRuntimeBindingPorts {
  /** The delivery prompt for admitted rows (prompt compiler over the stored messages), or null when it cannot be built. */
  renderDelivery(delivery: WakeDelivery): string | null;
  /** contract §8.4: every prompt written into the runtime is a `prompt_input` trajectory entry. */
  recordPromptInput?(record: PromptInputRecord): void;
  /** contract §6.6: the old process's frontiers after a replacement, for synthetic recovery wakes. */
  onRecovery?(agentId: string, frontiers: readonly RecoveryFrontier[]): void;
  /** The runtime could not be (re)started, or gave up after the restart cap. */
  onRuntimeDown?(agentId: string, detail: string): void;
}

export interface WakeRuntimeBindingOptions {
  readonly agentId: string;
  readonly runtime: AgentRuntime;
  readonly lifecycle: WakeLifecycle;
  readonly ports: WakeRuntimeBindingPorts;
  readonly restart?: RestartPolicyOptions;
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

export class WakeRuntimeBinding {
  readonly #o: WakeRuntimeBindingOptions;
  readonly #policy: RestartPolicy;
  readonly #subs = new Subscription();
  #restartSub: Subscription | null = null;
  /** The runtime's generation whose events count, and the lifecycle generation it maps to. */
  #runtimeGen = -1;
  #lifeGen = -1;
  #stopped = false;
  #ready: Promise<boolean> = Promise.resolve(false);

  constructor(options: WakeRuntimeBindingOptions) {
    this.#o = options;
    this.#policy = new RestartPolicy(options.restart);
  }

  /** Starts the runtime and begins delivering. Resolves false (and reports `onRuntimeDown`) when it cannot start. */
  start(): Promise<boolean> {
    const { runtime, lifecycle, agentId } = this.#o;
    // Rows admitted while the first process starts wait for it (never fail for being early).
    this.#lifeGen = lifecycle.generation(agentId);
    this.#subs.add(runtime.events$.subscribe((e) => this.#onRuntimeEvent(e)));
    this.#subs.add(
      lifecycle.deliveries$.pipe(filter((d) => d.agentId === agentId)).subscribe((d) => {
        void this.#deliver(d);
      }),
    );
    this.#ready = this.#startProcess(false);
    return this.#ready;
  }

  async #startProcess(replacement: boolean): Promise<boolean> {
    const { runtime, lifecycle, agentId, ports, log } = this.#o;
    const started = await runtime.start();
    if (this.#stopped) {
      await runtime.stop();
      return false;
    }
    if (!started.ok) {
      log?.error('runtime could not start', { agentId, runtime: runtime.kind, code: started.code, message: started.message });
      ports.onRuntimeDown?.(agentId, started.message);
      if (replacement) this.#scheduleRestart(`restart failed: ${started.message}`);
      return false;
    }
    this.#runtimeGen = started.value.generation;
    if (replacement) {
      const next = lifecycle.generation(agentId) + 1;
      this.#lifeGen = next;
      const frontiers = lifecycle.onProcessReplaced(agentId, next);
      if (frontiers.length > 0) ports.onRecovery?.(agentId, frontiers);
    } else {
      this.#lifeGen = lifecycle.generation(agentId);
    }
    log?.info('runtime ready', { agentId, runtime: runtime.kind, resumed: started.value.resumed });
    return true;
  }

  async #deliver(d: WakeDelivery): Promise<void> {
    const { runtime, lifecycle, agentId, ports } = this.#o;
    const tokens = d.wakes.map((w) => w.wakeToken);
    await this.#ready;
    if (d.generation !== this.#lifeGen) return;
    const text = ports.renderDelivery(d);
    if (text === null) {
      lifecycle.onDeliveryFailed(agentId, d.generation, tokens, 'the delivery prompt could not be built');
      return;
    }
    ports.recordPromptInput?.({ agentId, kind: 'delivery', wakeTokens: tokens, text });
    const res = await runtime.submit({ kind: 'delivery', text });
    if (res.ok) lifecycle.onDelivered(agentId, d.generation, tokens);
    else lifecycle.onDeliveryFailed(agentId, d.generation, tokens, res.message);
  }

  #onRuntimeEvent(e: RuntimeEvent): void {
    if (e.generation !== this.#runtimeGen) return;
    const { lifecycle, agentId, runtime, ports } = this.#o;
    const gen = this.#lifeGen;
    switch (e.type) {
      case 'local_text':
        lifecycle.onLocalText(agentId, gen, e.text);
        return;
      case 'turn.end': {
        if (e.outcome !== 'completed') {
          lifecycle.onRuntimeError(agentId, gen, e.error ?? `the runtime turn ended ${e.outcome}`);
          return;
        }
        const injection = lifecycle.onTurnBoundary(agentId, gen, 'turn_end');
        if (injection === null) return;
        ports.recordPromptInput?.({ agentId, kind: 'final_check', wakeTokens: injection.wakeTokens, text: injection.finalCheck });
        void runtime.submit({ kind: 'final_check', text: injection.finalCheck }).then((res) => {
          if (!res.ok) lifecycle.onFinalCheckUndeliverable(agentId, injection.generation, injection.wakeTokens, res.message);
        });
        return;
      }
      case 'exit': {
        if (e.expected || this.#stopped) return;
        const detail = `the ${runtime.kind} runtime exited unexpectedly (${e.signal ?? `code ${e.code ?? '?'}`})`;
        lifecycle.onRuntimeError(agentId, gen, detail, { processExited: true });
        this.#scheduleRestart(detail);
        return;
      }
      default:
        return;
    }
  }

  #scheduleRestart(detail: string): void {
    const { agentId, runtime, ports, log } = this.#o;
    const scheduler = this.#o.scheduler ?? asyncScheduler;
    const decision = this.#policy.onCrash(scheduler.now());
    if (!decision.restart) {
      log?.error('runtime restart cap reached; not restarting', { agentId, runtime: runtime.kind, crashes: decision.crashes });
      ports.onRuntimeDown?.(agentId, `${detail}; stopped restarting after ${decision.crashes} crashes`);
      return;
    }
    log?.warn('runtime restarting', { agentId, runtime: runtime.kind, attempt: decision.attempt, delayMs: decision.delayMs });
    this.#restartSub?.unsubscribe();
    this.#restartSub = timer(decision.delayMs, scheduler).subscribe(() => {
      this.#restartSub = null;
      if (!this.#stopped) void this.#startProcess(true);
    });
  }

  /** Stops delivering, cancels a pending restart and stops the runtime (no orphans). Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#restartSub?.unsubscribe();
    this.#subs.unsubscribe();
    await this.#o.runtime.stop();
  }
}
