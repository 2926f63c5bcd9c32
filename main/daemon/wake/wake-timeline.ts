/**
 * A wake's timeline entries that are not status changes (the inspector, UI.md): silence
 * beacons and the escalation (watchdog spec A), each delivery attempt's outcome of the reply
 * answering it (spec B), and alerts raised about it. Status changes are the lifecycle's own.
 */
import { deliveryDetail } from '../../../shared/delivery-detail.js';
import { wokeDetail, type WakeEventKind } from '../../../shared/api/contract.js';
import type { DeliveryResultEvent } from '../bus/hook-events.js';
import type { BeaconKind } from '../watchdog/silence-beacons.js';
import type { WakeLifecycle } from './wake-lifecycle.js';
import type { WakeJournal } from './wake-ports.js';

export interface WakeTimelineOptions {
  readonly journal: Pick<WakeJournal, 'appendWakeEvent'>;
  readonly lifecycle: Pick<WakeLifecycle, 'workingOn'>;
  /** The target a stored wake answers on; undefined when there is no such wake. */
  readonly targetOf: (wakeToken: string) => string | undefined;
  /** The wakes a recent turn of the agent carried (empty when the turn is unknown or too old). */
  readonly wakesOfTurn: (agentId: string, turnId: string) => readonly string[];
  /** An entry was appended to a wake's timeline (issue 39: the API's `wake.timeline`, that entry alone). */
  readonly changed: (entry: WakeTimelineEntry) => void;
}

/** One entry appended to a wake's timeline, as appended (the store stamps its time). */
export interface WakeTimelineEntry {
  readonly wakeToken: string;
  readonly kind: WakeEventKind;
  readonly reason?: string;
  readonly detail?: string;
}

/** What a beacon says and where (the beacon router's status update). */
export interface TimelineBeacon {
  readonly agentId: string;
  readonly kind: BeaconKind;
  readonly text: string;
  /** The wakes listed at the turn's `turn.start`. */
  readonly wakeTokens: readonly string[];
}

export class WakeTimeline {
  constructor(private readonly o: WakeTimelineOptions) {}

  /**
   * watchdog spec A: a beacon reports the turn's silence, so it goes on every wake the runtime
   * is working on now (`WakeLifecycle.workingOn`); an ended wake refuses it (store). Returns
   * the wakes it marked.
   */
  beacon(b: TimelineBeacon): readonly string[] {
    const kind = b.kind === 'escalation' ? 'escalation' : 'beacon';
    const marked = this.o.lifecycle
      .workingOn(b.agentId, b.wakeTokens)
      .filter((wakeToken) => this.#append({ wakeToken, kind, detail: b.text }));
    return marked;
  }

  /**
   * issue 24: the runtime compacted its context and goes on (a continuation, contract §8.3): the
   * wakes it is working on now keep a "context compacted" entry for the inspector; nothing else
   * changes. Returns the wakes it marked.
   */
  compacted(agentId: string, detail: string | null = null): readonly string[] {
    return this.#mark(agentId, detail === null ? { kind: 'compaction' } : { kind: 'compaction', detail });
  }

  /**
   * issue 38: an overflow goes to a fresh session (§6.6) instead of a compaction continuation: why
   * (the runtime cannot compact, the compaction failed, it overflowed again right after one) goes
   * on the wakes it was working on, before they end. Returns the wakes it marked.
   */
  renewed(agentId: string, detail: string): readonly string[] {
    return this.#mark(agentId, { kind: 'alert', detail });
  }

  /**
   * issue 42: the agent was asleep and its runtime was started again (in the same session) for
   * these wakes: "woke the agent (2.1 s)" on each, before it works on them.
   */
  woke(wakeTokens: readonly string[], ms: number): void {
    for (const wakeToken of wakeTokens) this.#append({ wakeToken, kind: 'wake_up', detail: wokeDetail(ms) });
  }

  #mark(agentId: string, entry: { readonly kind: 'compaction' | 'alert'; readonly detail?: string }): string[] {
    return this.o.lifecycle.workingOn(agentId, []).filter((wakeToken) => this.#append({ wakeToken, ...entry }));
  }

  /** Appends one entry (false: the store refused it, e.g. a beacon on an ended wake) and tells the API. */
  #append(entry: WakeTimelineEntry): boolean {
    if (!this.o.journal.appendWakeEvent(entry)) return false;
    this.o.changed(entry);
    return true;
  }

  /** Each delivery attempt's outcome of a reply goes on the wakes of its turn that answer on its target. */
  delivery(r: DeliveryResultEvent): void {
    if (r.purpose !== 'reply') return;
    for (const wakeToken of this.o.wakesOfTurn(r.agentId, r.turnId)) {
      if (this.o.targetOf(wakeToken) !== r.target) continue;
      this.#append({ wakeToken, kind: 'delivery', detail: deliveryDetail(r) });
    }
  }

  /** An alert about a wake joins its timeline. */
  alert(a: { readonly wakeToken: string | null; readonly kind: string; readonly message: string }): void {
    if (a.wakeToken === null) return;
    this.#append({ wakeToken: a.wakeToken, kind: 'alert', detail: `${a.kind}: ${a.message}` });
  }
}
