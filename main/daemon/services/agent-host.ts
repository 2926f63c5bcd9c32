/**
 * One configured agent at run time: its runtime adapter (any `RuntimeAdapter`), the binding to
 * the wake lifecycle, and the bridge from runtime events to the hook bus (`turn.start`,
 * `turn.end`, runtime-local tool calls and local-text counts — never the text: contract §6.5).
 */
import { randomUUID } from 'node:crypto';
import { Subscription } from 'rxjs';
import type { Agent } from '../../../shared/api/contract.js';
import { LOCAL_CHANNEL, type AgentConfig } from '../../../shared/config.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-types.js';
import { compileDelivery, type DeliveryMessage } from '../prompt/prompt-compiler.js';
import type { PromptTrajectory } from '../prompt/prompt-trajectory.js';
import type { RuntimeAdapter, TurnBoundaryHost } from '../runtime/runtime-adapter.js';
import { WakeRuntimeBinding } from '../runtime/wake-runtime-binding.js';
import type { Store } from '../store/index.js';
import type { RecoveryFrontier } from '../wake/pending-delivery.js';
import type { WakeDelivery, WakeLifecycle } from '../wake/wake-lifecycle.js';

export type AdapterFactory = (
  host: TurnBoundaryHost,
) =>
  | { readonly ok: true; readonly adapter: RuntimeAdapter }
  | { readonly ok: false; readonly code: string; readonly message: string };

export interface AgentHostOptions {
  readonly agent: AgentConfig;
  /** Builds the runtime adapter around the binding's turn-boundary host. */
  readonly createAdapter: AdapterFactory;
  readonly lifecycle: WakeLifecycle;
  readonly bus: HookBus;
  readonly store: Store;
  readonly trajectory: PromptTrajectory;
  readonly onState: (agent: Agent['state']) => void;
  readonly onRuntimeDown: (detail: string) => void;
  readonly onRecovery: (frontiers: readonly RecoveryFrontier[]) => void;
  readonly log?: DaemonLog;
}

export class AgentHost {
  #state: Agent['state'] = 'starting';
  #turnId: string | null = null;
  #delivered = false;
  readonly #subs = new Subscription();
  readonly #binding: WakeRuntimeBinding;

  constructor(private readonly o: AgentHostOptions) {
    this.#binding = new WakeRuntimeBinding({
      agentId: o.agent.id,
      lifecycle: o.lifecycle,
      ...(o.log ? { log: o.log } : {}),
      ports: {
        renderDelivery: (d) => this.#renderDelivery(d),
        // Deliveries are recorded as they are compiled (turn context + delivery, §8.4);
        // the final-check is recorded here, before the injection is tried (§6.4).
        recordPromptInput: (r) => {
          if (r.kind === 'final_check')
            o.store.appendPromptInput({
              agentId: r.agentId,
              wakeTokens: [...r.wakeTokens],
              kind: 'final_check',
              text: r.text,
            });
        },
        onRecovery: (_agentId, frontiers) => o.onRecovery(frontiers),
        onRuntimeDown: (_agentId, detail) => {
          this.#setState('crashed');
          o.onRuntimeDown(detail);
        },
      },
    });
  }

  get state(): Agent['state'] {
    return this.#state;
  }

  /** The running turn's id (delivery correlation), or null between turns. */
  get turnId(): string | null {
    return this.#turnId;
  }

  /** Starts the runtime; resolves false when it could not start (the agent shows as crashed). */
  async start(): Promise<boolean> {
    const { agent, bus, lifecycle } = this.o;
    const made = this.o.createAdapter(this.#binding.host);
    if (!made.ok) {
      this.o.log?.error('agent runtime not created', { agentId: agent.id, code: made.code, message: made.message });
      this.#setState('crashed');
      this.o.onRuntimeDown(made.message);
      return false;
    }
    this.#subs.add(
      made.adapter.events$.subscribe((e) => {
        switch (e.type) {
          case 'ready':
            this.#setState('idle');
            return;
          case 'turn_start': {
            const turnId = `turn_${randomUUID()}`;
            this.#turnId = turnId;
            this.#setState('busy');
            const rows = lifecycle.pending(agent.id);
            bus.emit('turn.start', {
              turnId,
              agentId: agent.id,
              channel: LOCAL_CHANNEL,
              wakeTokens: rows.map((r) => r.wakeToken),
              ...(rows[0] ? { target: rows[0].target } : {}),
            });
            return;
          }
          case 'tool_call':
            if (this.#turnId !== null)
              bus.emit('runtime.local', { turnId: this.#turnId, kind: 'tool_call', tool: e.name });
            return;
          case 'local_text':
            // Counts only: the text itself never reaches the daemon's host side (contract §6.5).
            if (this.#turnId !== null)
              bus.emit('runtime.local', { turnId: this.#turnId, kind: 'local_text', bytes: e.bytes, runes: e.runes });
            return;
          case 'turn_end':
            this.#endTurn();
            this.#setState('idle');
            return;
          case 'exit':
            this.#endTurn();
            this.#setState(e.expected ? 'stopped' : 'starting');
            return;
          case 'gave_up':
            this.#setState('crashed');
            return;
          default:
            return;
        }
      }),
    );
    const ok = await this.#binding.start(made.adapter);
    if (!ok && this.#state === 'starting') this.#setState('crashed');
    return ok;
  }

  async stop(): Promise<void> {
    await this.#binding.stop();
    this.#subs.unsubscribe();
    this.#setState('stopped');
  }

  #endTurn(): void {
    if (this.#turnId !== null) this.o.bus.emit('turn.end', { turnId: this.#turnId });
    this.#turnId = null;
  }
  #renderDelivery(d: WakeDelivery): string | null {
    const messages: DeliveryMessage[] = [];
    for (const w of d.wakes) {
      const m = this.o.store.getMessage(w.messageId);
      if (m === undefined || w.targetKey === null) return null;
      messages.push({
        messageId: m.id,
        target: w.targetKey,
        targetSeq: w.targetSeq,
        wakeToken: w.wakeToken,
        authorName: m.authorName,
        content: m.content,
      });
    }
    // contract §8.1: the contract block rides every wake, resume and fresh turn.
    const compiled = compileDelivery(this.o.agent, messages, { turn: this.#delivered ? 'wake' : 'fresh' });
    this.#delivered = true;
    this.o.trajectory.record(compiled.promptInputs);
    return compiled.text;
  }

  #setState(state: Agent['state']): void {
    if (state === this.#state) return;
    this.#state = state;
    this.o.onState(state);
  }
}
