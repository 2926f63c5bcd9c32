/**
 * Binds one agent's `RuntimeAdapter` (any runtime: Claude Code, Codex, OpenCode, demo) to the
 * wake lifecycle — the host side of the runtime-neutral interface:
 *
 * - admitted rows → one delivery prompt → `deliver`; accepted → `onDelivered`, refused →
 *   `onDeliveryFailed` (contract §9.2);
 * - `host.onTurnBoundary` → `lifecycle.onTurnBoundary`: the returned final-check is what the
 *   adapter injects into the same session (contract §6.4, §8.3), recorded as `prompt_input`
 *   (§8.4); a `final_check failed` event → `onFinalCheckUndeliverable` (Phase 4: no retry);
 * - `turn_end` error/interrupted → `onRuntimeError` (every pending row ends `failed`);
 * - an unexpected `exit` → `onRuntimeError(processExited)`; the adapter restarts it with
 *   backoff, and the next `ready` → `onProcessReplaced`, whose recovery frontiers go to the
 *   integrator (§6.6); `gave_up` → `onRuntimeDown`.
 *
 * Generations: the lifecycle numbers processes from its table's generation; each restart is
 * the next one. Events of an older process are ignored (STYLE.md "generation-tagged watches").
 */
import { Subscription, filter } from 'rxjs';
import type { DaemonLog } from '../daemon-types.js';
import type { RecoveryFrontier } from '../wake/pending-delivery.js';
import type { FinalCheckInjection, WakeDelivery, WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { RuntimeAdapter, RuntimeEventEnvelope, TurnBoundaryHost } from './runtime-adapter.js';

export interface PromptInputRecord {
  readonly agentId: string;
  readonly kind: 'delivery' | 'final_check';
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
  /** The runtime could not start, or gave up after the restart cap. */
  onRuntimeDown?(agentId: string, detail: string): void;
}

export interface WakeRuntimeBindingOptions {
  readonly agentId: string;
  readonly lifecycle: WakeLifecycle;
  readonly ports: WakeRuntimeBindingPorts;
  readonly log?: DaemonLog;
}

export class WakeRuntimeBinding {
  readonly #o: WakeRuntimeBindingOptions;
  readonly #subs = new Subscription();
  #adapter: RuntimeAdapter | null = null;
  /** The adapter generation whose events count, and the lifecycle generation it maps to. */
  #adapterGen = -1;
  #lifeGen = -1;
  #lastInjection: FinalCheckInjection | null = null;
  #lastError: string | null = null;
  #ready: Promise<boolean> = Promise.resolve(false);
  #stopped = false;

  /** Give this to the adapter (`RuntimeDeps.host`): the lifecycle decides every final-check. */
  readonly host: TurnBoundaryHost = { onTurnBoundary: () => Promise.resolve(this.#boundary()) };

  constructor(options: WakeRuntimeBindingOptions) {
    this.#o = options;
  }

  /** Starts the adapter and begins delivering. Resolves false (and reports `onRuntimeDown`) when it cannot start. */
  start(adapter: RuntimeAdapter): Promise<boolean> {
    const { lifecycle, agentId } = this.#o;
    this.#adapter = adapter;
    // Rows admitted while the first process starts wait for it (never fail for being early).
    this.#lifeGen = lifecycle.generation(agentId);
    this.#subs.add(adapter.events$.subscribe((e) => this.#onEvent(e)));
    this.#subs.add(
      lifecycle.deliveries$.pipe(filter((d) => d.agentId === agentId)).subscribe((d) => {
        void this.#deliver(d);
      }),
    );
    this.#ready = adapter.start().then((res) => {
      if (!res.ok) {
        this.#o.log?.error('runtime could not start', {
          agentId,
          runtime: adapter.runtime,
          code: res.code,
          message: res.message,
        });
        this.#o.ports.onRuntimeDown?.(agentId, res.message);
      }
      return res.ok;
    });
    return this.#ready;
  }

  #boundary(): string | null {
    const { lifecycle, agentId, ports } = this.#o;
    if (this.#stopped) return null;
    const injection = lifecycle.onTurnBoundary(agentId, this.#lifeGen, 'turn_end');
    this.#lastInjection = injection;
    if (injection === null) return null;
    ports.recordPromptInput?.({
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
    const adapter = this.#adapter;
    if (adapter === null || d.generation !== this.#lifeGen) return;
    const tokens = d.wakes.map((w) => w.wakeToken);
    const text = ports.renderDelivery(d);
    if (text === null) {
      lifecycle.onDeliveryFailed(agentId, d.generation, tokens, 'the delivery prompt could not be built');
      return;
    }
    ports.recordPromptInput?.({ agentId, kind: 'delivery', wakeTokens: tokens, text });
    const res = await adapter.deliver(text);
    if (res.ok) lifecycle.onDelivered(agentId, d.generation, tokens);
    else lifecycle.onDeliveryFailed(agentId, d.generation, tokens, res.message);
  }

  #onEvent(e: RuntimeEventEnvelope): void {
    const { lifecycle, agentId, ports } = this.#o;
    if (e.generation < this.#adapterGen) return;
    switch (e.type) {
      case 'ready': {
        if (this.#adapterGen === -1) {
          this.#adapterGen = e.generation;
          return;
        }
        if (e.generation === this.#adapterGen) return;
        // A restarted process: the lifecycle's next generation (§6.6, §8.3).
        this.#adapterGen = e.generation;
        const next = lifecycle.generation(agentId) + 1;
        this.#lifeGen = next;
        const frontiers = lifecycle.onProcessReplaced(agentId, next);
        if (frontiers.length > 0) ports.onRecovery?.(agentId, frontiers);
        return;
      }
      case 'runtime_error':
        this.#lastError = e.detail;
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
        if (e.outcome !== 'completed')
          lifecycle.onRuntimeError(
            agentId,
            this.#lifeGen,
            this.#lastError ?? (e.outcome === 'interrupted' ? 'the turn was interrupted' : 'the runtime turn failed'),
          );
        this.#lastError = null;
        return;
      }
      case 'exit': {
        if (e.expected || this.#stopped) return;
        const detail =
          this.#lastError ??
          `the ${this.#adapter?.runtime ?? 'agent'} runtime exited unexpectedly (${e.signal ?? `code ${e.code ?? '?'}`})`;
        this.#lastError = null;
        lifecycle.onRuntimeError(agentId, this.#lifeGen, detail, { processExited: true });
        return;
      }
      case 'gave_up':
        ports.onRuntimeDown?.(agentId, `the runtime crashed ${e.restarts} times and is no longer restarted`);
        return;
      case 'local_text':
        // Counts only (contract §6.5): they reach the wake status as diagnostics, never the text.
        lifecycle.onLocalTextCounts(agentId, this.#lifeGen, { bytes: e.bytes, runes: e.runes });
        return;
      default:
        // Tool calls settle nothing (contract §9.2).
        return;
    }
  }

  /** Stops delivering and stops the adapter (no orphans). Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#subs.unsubscribe();
    await this.#adapter?.stop();
  }
}
