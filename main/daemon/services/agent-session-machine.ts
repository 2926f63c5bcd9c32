/**
 * Every decision of an agent session (agent-session.ts), as a pure machine (STYLE.md habit 6):
 * `agentSessionStep(state, event) → [state, calls]`. The shell feeds what happened (a runtime
 * event, a start, a replacement, a delivery, a turn boundary) with the facts only I/O can read
 * (a new turn id, the pending rows, the lifecycle's generation), and performs the calls in order
 * (`AgentSessionCall`). No timers, no clock, no I/O here.
 *
 * For each runtime event, in this order:
 * 1. the agent's state (`starting` → `idle` ⇄ `busy`, `crashed`, `stopped`) and the hook bus
 *    bridge: `turn.start` (with the wakes the turn carries), `turn.end`, runtime-local tool
 *    calls and local-text counts — never the text (contract §6.5) — whatever its generation;
 * 2. the lifecycle, for events of the current process generation only, and not after `stop`
 *    (STYLE.md "generation-tagged watches": a stale event can never settle a newer turn).
 *
 * Generations: the lifecycle numbers processes from its table's generation; each restarted or
 * replacing process is the next one (`lifecycleGeneration`), mapped from the adapter's own
 * process generation (`process`).
 */
import type { Agent } from '../../../shared/api/contract.js';
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import type { FailureReason, RuntimeKind } from '../../../shared/wake-status.js';
import type { HookEventMap } from '../bus/hook-events.js';
import type {
  ContextResetCause,
  DeliverResult,
  RuntimeEventEnvelope,
  StartResult,
} from '../runtime/runtime-adapter.js';
import type { FinalCheckInjection, WakeDelivery } from '../wake/wake-lifecycle.js';

/** Which runtime process's events settle wakes. */
export type ProcessWatch =
  /** No process is ready yet: every event counts, the first `ready` names the generation. */
  | { readonly phase: 'awaiting_ready' }
  /** issue 14: the old process is being stopped for a replacement: none of its events settle anything. */
  | { readonly phase: 'retiring' }
  /** The old process is gone: the new one's first `ready` is a process replacement (§6.6). */
  | { readonly phase: 'awaiting_replacement' }
  /** Events of `generation` or later count; a later `ready` is a restarted process. */
  | { readonly phase: 'live'; readonly generation: number };

/** The last `runtime_error` of the running turn: the detail (and reason) its failure ends rows with. */
export interface RuntimeErrorNote {
  readonly detail: string;
  readonly reason: FailureReason | null;
}

export interface AgentSessionState {
  readonly agentId: string;
  readonly agentState: Agent['state'];
  /** `stop` was asked: nothing more is settled or delivered. */
  readonly stopped: boolean;
  /** The lifecycle's deliveries are followed (once, by the first start or a replacement). */
  readonly following: boolean;
  /** The attached adapter's runtime; null while none is (not built, or being replaced). */
  readonly runtime: RuntimeKind | null;
  readonly process: ProcessWatch;
  /** The lifecycle generation the current process maps to (-1 before `start`). */
  readonly lifecycleGeneration: number;
  /** A delivery was written into this process's session: the next is a wake, not fresh (§8.1). */
  readonly delivered: boolean;
  /** The running turn (delivery correlation), or null between turns. */
  readonly turnId: string | null;
  /** issue 14: the turn the runtime said it waits on the operator in (its own signal), if it still does. */
  readonly operatorWaitTurn: string | null;
  /** The wakes recent turns carried at their `turn.start` (at most `TURNS_KEPT`, oldest dropped). */
  readonly turnWakes: ReadonlyMap<string, readonly string[]>;
  /** issue 16: the running turn's context was reset; its error end is that reset, not a runtime error. */
  readonly resetInTurn: boolean;
  readonly lastError: RuntimeErrorNote | null;
  /** The last final-check the lifecycle chose (a `final_check failed` event ends its rows). */
  readonly lastInjection: FinalCheckInjection | null;
  /** issue 15: why the runtime is down (deliveries then fail with it). */
  readonly downReason: FailureReason | null;
  /** What the last "runtime down" said (a delivery to a runtime that could not be built fails with it). */
  readonly downDetail: string | null;
}

/** Recent turns remembered per agent (a late retry result of an older turn is simply not shown on a wake). */
export const TURNS_KEPT = 256;

export function initialAgentSessionState(agentId: string): AgentSessionState {
  return {
    agentId,
    agentState: 'starting',
    stopped: false,
    following: false,
    runtime: null,
    process: { phase: 'awaiting_ready' },
    lifecycleGeneration: -1,
    delivered: false,
    turnId: null,
    operatorWaitTurn: null,
    turnWakes: new Map(),
    resetInTurn: false,
    lastError: null,
    lastInjection: null,
    downReason: null,
    downDetail: null,
  };
}

/** A row the lifecycle holds when a turn starts (the wakes the turn carries). */
export interface CarriedWake {
  readonly wakeToken: string;
  readonly target: string;
}

type Envelope<T extends RuntimeEventEnvelope['type']> = Extract<RuntimeEventEnvelope, { readonly type: T }>;

/** A runtime event with the facts its decision needs that only the shell can read. */
export type RuntimeInput =
  | (Envelope<'ready'> & { readonly tableGeneration: number })
  | (Envelope<'turn_start'> & { readonly turnId: string; readonly pending: readonly CarriedWake[] })
  | Exclude<RuntimeEventEnvelope, { readonly type: 'ready' | 'turn_start' }>;

/** What the shell saw happen besides the runtime's events. */
export type ShellEvent =
  /** `start`: the lifecycle's generation for this agent now. */
  | { readonly type: 'start'; readonly tableGeneration: number }
  /** The runtime adapter could not be built (`MadeAdapter` not ok). */
  | { readonly type: 'runtime_unbuilt'; readonly code: string; readonly message: string }
  /** An adapter was built and is being started. */
  | { readonly type: 'runtime_attached'; readonly runtime: RuntimeKind }
  | {
      readonly type: 'start_failed';
      readonly runtime: RuntimeKind;
      readonly result: Extract<StartResult, { readonly ok: false }>;
    }
  /** The adapter's start settled (the shell awaited it). */
  | { readonly type: 'launch_settled'; readonly ok: boolean }
  /** issue 14: `replace` was asked (the configuration changed). */
  | { readonly type: 'replace'; readonly detail: string }
  /** The replaced process has stopped. */
  | { readonly type: 'retired' }
  /** The replacement's launch settled; the lifecycle's generation for this agent now. */
  | { readonly type: 'replacement_settled'; readonly ok: boolean; readonly tableGeneration: number }
  | { readonly type: 'stop' }
  /** The adapter has stopped after `stop`. */
  | { readonly type: 'stopped' }
  /** The lifecycle admitted rows for this agent (after the runtime's start settled). */
  | { readonly type: 'delivery_due'; readonly delivery: WakeDelivery }
  /** The delivery prompt the shell rendered for `delivery` (null: it could not be built). */
  | { readonly type: 'delivery_rendered'; readonly delivery: WakeDelivery; readonly text: string | null }
  /** The adapter's answer to a delivery written into it. */
  | { readonly type: 'delivery_written'; readonly delivery: WakeDelivery; readonly result: DeliverResult }
  /** The adapter asks at a turn boundary (`host.onTurnBoundary`, contract §8.3). */
  | { readonly type: 'turn_boundary' }
  /** The lifecycle's answer at that boundary: the one final-check to inject, or null. */
  | { readonly type: 'final_check_chosen'; readonly injection: FinalCheckInjection | null };

export type AgentSessionEvent = RuntimeInput | ShellEvent;

/** What the shell performs, in order (a closed set). */
export type AgentSessionCall =
  // ports
  | { readonly call: 'report_state'; readonly state: Agent['state'] }
  /** issue 15: a restart was scheduled (its attempt number), or the runtime is up again (null). */
  | { readonly call: 'report_restart'; readonly attempt: number | null }
  | { readonly call: 'report_down'; readonly detail: string }
  | { readonly call: 'log_error'; readonly message: string; readonly fields: Readonly<Record<string, unknown>> }
  /** contract §8.4: every prompt written into the runtime is a `prompt_input` trajectory entry. */
  | {
      readonly call: 'record_prompt_input';
      readonly kind: 'delivery' | 'final_check';
      readonly wakeTokens: readonly string[];
      readonly text: string;
    }
  // the hook bus
  | { readonly call: 'turn.start'; readonly event: HookEventMap['turn.start'] }
  | { readonly call: 'turn.end'; readonly event: HookEventMap['turn.end'] }
  | { readonly call: 'runtime.local'; readonly event: HookEventMap['runtime.local'] }
  | { readonly call: 'approval.wait'; readonly event: HookEventMap['approval.wait'] }
  /** issue 14: the process that asked is gone: its pending approvals are cancelled. */
  | { readonly call: 'cancel_approvals'; readonly reason: string }
  // deliveries (the shell answers with `delivery_rendered`, then `delivery_written`)
  | { readonly call: 'follow_deliveries' }
  | { readonly call: 'render_delivery'; readonly delivery: WakeDelivery; readonly turn: 'fresh' | 'wake' }
  | { readonly call: 'write_prompt'; readonly delivery: WakeDelivery; readonly text: string }
  // the lifecycle
  | { readonly call: 'mark_delivered'; readonly generation: number; readonly wakeTokens: readonly string[] }
  | {
      readonly call: 'fail_delivery';
      readonly generation: number;
      readonly wakeTokens: readonly string[];
      readonly detail: string;
      readonly reason: FailureReason;
    }
  /** The shell asks the lifecycle and answers with `final_check_chosen`. */
  | { readonly call: 'choose_final_check'; readonly generation: number }
  /** The text `host.onTurnBoundary` resolves with: the adapter injects it into the same session (§6.4). */
  | { readonly call: 'answer_final_check'; readonly finalCheck: string }
  /** Phase 4: the final-check could not be injected: its rows end at once, no retry. */
  | {
      readonly call: 'final_check_undeliverable';
      readonly generation: number;
      readonly wakeTokens: readonly string[];
      readonly detail: string | null;
    }
  /** §9.2: every pending row ends `failed` (with `processExited`, admission pauses). */
  | {
      readonly call: 'fail_pending';
      readonly generation: number;
      readonly detail: string;
      readonly reason: FailureReason;
      readonly processExited: boolean;
    }
  /** issue 16: admission pauses until a replacement, which recovers the runtime-visible rows. */
  | {
      readonly call: 'process_exited';
      readonly generation: number;
      readonly detail: string;
      readonly reason: FailureReason;
    }
  /** §6.6, §8.3: a new process is the lifecycle's `generation`; its recovery frontiers go to `onRecovery`. */
  | { readonly call: 'process_replaced'; readonly generation: number }
  /** issue 16: the context was reset in the same process; the recovery frontiers go to `onRecovery`. */
  | { readonly call: 'context_reset'; readonly generation: number; readonly cause: ContextResetCause }
  /** Counts only (contract §6.5): they reach the wake status as diagnostics, never the text. */
  | {
      readonly call: 'count_local_text';
      readonly generation: number;
      readonly bytes: number;
      readonly runes: number;
    };

export type AgentSessionStep = readonly [AgentSessionState, readonly AgentSessionCall[]];

/**
 * One decision: the state after `event` and what the shell performs for it, in order. Pure:
 * `state` is never changed (an event that changes nothing returns it as it is).
 */
export function agentSessionStep(state: AgentSessionState, event: AgentSessionEvent): AgentSessionStep {
  const calls: AgentSessionCall[] = [];
  const next = decide(state, event, calls);
  return [next, calls];
}

function decide(s: AgentSessionState, e: AgentSessionEvent, calls: AgentSessionCall[]): AgentSessionState {
  switch (e.type) {
    case 'start':
      return follow({ ...s, lifecycleGeneration: e.tableGeneration }, calls);
    case 'runtime_unbuilt':
      calls.push({
        call: 'log_error',
        message: 'agent runtime not created',
        fields: { agentId: s.agentId, code: e.code, message: e.message },
      });
      return down(s, e.message, calls);
    case 'runtime_attached':
      return { ...s, runtime: e.runtime };
    case 'start_failed':
      calls.push({
        call: 'log_error',
        message: 'runtime could not start',
        fields: { agentId: s.agentId, runtime: e.runtime, code: e.result.code, message: e.result.message },
      });
      return down({ ...s, downReason: e.result.reason ?? 'cli_exited' }, e.result.message, calls);
    case 'launch_settled':
      return !e.ok && s.agentState === 'starting' ? agentStateTo(s, 'crashed', calls) : s;
    case 'replace':
      return replace(s, e.detail, calls);
    case 'retired':
      return retired(s, calls);
    case 'replacement_settled':
      return replacementSettled(s, e, calls);
    case 'stop':
      return { ...s, stopped: true };
    case 'stopped':
      return agentStateTo(s, 'stopped', calls);
    case 'delivery_due':
      return deliveryDue(s, e.delivery, calls);
    case 'delivery_rendered':
      return deliveryRendered(s, e.delivery, e.text, calls);
    case 'delivery_written':
      return deliveryWritten(s, e.delivery, e.result, calls);
    case 'turn_boundary':
      // contract §6.4: the lifecycle alone decides every final-check; none after stop.
      if (!s.stopped) calls.push({ call: 'choose_final_check', generation: s.lifecycleGeneration });
      return s;
    case 'final_check_chosen':
      return finalCheckChosen(s, e.injection, calls);
    default: {
      const bridged = bridge(s, e, calls);
      return bridged.stopped || !counts(bridged.process, e.generation) ? bridged : settle(bridged, e, calls);
    }
  }
}

/** Whether an event of process `generation` may settle anything. */
function counts(process: ProcessWatch, generation: number): boolean {
  switch (process.phase) {
    case 'retiring':
      return false;
    case 'live':
      return generation >= process.generation;
    default:
      return true;
  }
}

// —— 1. The agent's state and the hook bus: every event, whatever its generation ——

function bridge(s: AgentSessionState, e: RuntimeInput, calls: AgentSessionCall[]): AgentSessionState {
  switch (e.type) {
    case 'ready':
      calls.push({ call: 'report_restart', attempt: null });
      return agentStateTo({ ...s, downReason: null }, 'idle', calls);
    case 'restart_scheduled':
      calls.push({ call: 'report_restart', attempt: e.attempt });
      return s;
    case 'turn_start': {
      const started = agentStateTo({ ...s, turnId: e.turnId }, 'busy', calls);
      const wakeTokens = e.pending.map((r) => r.wakeToken);
      const first = e.pending[0];
      calls.push({
        call: 'turn.start',
        event: {
          turnId: e.turnId,
          agentId: s.agentId,
          channel: LOCAL_CHANNEL,
          wakeTokens,
          ...(first ? { target: first.target } : {}),
        },
      });
      return { ...started, turnWakes: remember(s.turnWakes, e.turnId, wakeTokens) };
    }
    case 'tool_call':
      if (s.turnId !== null)
        calls.push({ call: 'runtime.local', event: { turnId: s.turnId, kind: 'tool_call', tool: e.name } });
      return s;
    case 'local_text':
      // Counts only: the text itself never reaches the daemon's host side (contract §6.5).
      if (s.turnId !== null)
        calls.push({
          call: 'runtime.local',
          event: { turnId: s.turnId, kind: 'local_text', bytes: e.bytes, runes: e.runes },
        });
      return s;
    case 'operator_wait':
      return operatorWait(s, e.waiting, calls);
    case 'turn_end':
      return agentStateTo(endTurn(s, calls), 'idle', calls);
    case 'exit':
      // issue 14: the process that asked is gone: its pending approvals are cancelled (no chip waits forever).
      calls.push({
        call: 'cancel_approvals',
        reason: e.expected ? 'the agent was stopped' : 'the runtime exited before an answer',
      });
      return agentStateTo(endTurn(s, calls), e.expected ? 'stopped' : 'starting', calls);
    case 'gave_up':
      return agentStateTo(s, 'crashed', calls);
    default:
      return s;
  }
}

/**
 * issue 14 "Liveness from the runtime where it exists": while the runtime says it waits on the
 * operator, the turn's silence clock is paused by the same `approval.wait` the daemon's pending
 * approvals use (the watchdog counts waits: paused while either says so, restarted from zero
 * when the last ends). Balanced per turn: one "on" for the turn it was said in, one "off".
 */
function operatorWait(s: AgentSessionState, waiting: boolean, calls: AgentSessionCall[]): AgentSessionState {
  const turnId = s.turnId;
  if (waiting && turnId !== null && s.operatorWaitTurn !== turnId) {
    calls.push({ call: 'approval.wait', event: { turnId, agentId: s.agentId, waiting: true } });
    return { ...s, operatorWaitTurn: turnId };
  }
  if (!waiting && s.operatorWaitTurn !== null) {
    calls.push({ call: 'approval.wait', event: { turnId: s.operatorWaitTurn, agentId: s.agentId, waiting: false } });
    return { ...s, operatorWaitTurn: null };
  }
  return s;
}

function endTurn(s: AgentSessionState, calls: AgentSessionCall[]): AgentSessionState {
  if (s.turnId !== null) calls.push({ call: 'turn.end', event: { turnId: s.turnId } });
  return s.turnId === null && s.operatorWaitTurn === null ? s : { ...s, turnId: null, operatorWaitTurn: null };
}

function remember(
  turnWakes: ReadonlyMap<string, readonly string[]>,
  turnId: string,
  wakeTokens: readonly string[],
): ReadonlyMap<string, readonly string[]> {
  const next = new Map(turnWakes).set(turnId, wakeTokens);
  if (next.size > TURNS_KEPT) next.delete(next.keys().next().value as string);
  return next;
}

// —— 2. The lifecycle: events of the current process generation only ——

function settle(s: AgentSessionState, e: RuntimeInput, calls: AgentSessionCall[]): AgentSessionState {
  switch (e.type) {
    case 'ready':
      return ready(s, e, calls);
    case 'context_reset':
      // issue 16: recover the runtime-visible rows into the continued (compacted) session.
      // issue 24 changes this one row: a native compaction (`context_compacted`) becomes a
      // continuation (rows stay pending, nothing recovered); only `context_overflow` recovers.
      calls.push({ call: 'context_reset', generation: s.lifecycleGeneration, cause: e.cause });
      return { ...s, resetInTurn: s.turnId !== null };
    case 'runtime_error':
      return { ...s, lastError: { detail: e.detail, reason: e.reason ?? null } };
    case 'final_check': {
      const injection = s.lastInjection;
      if (e.outcome === 'failed' && injection !== null)
        calls.push({
          call: 'final_check_undeliverable',
          generation: injection.generation,
          wakeTokens: injection.wakeTokens,
          detail: e.detail,
        });
      return s;
    }
    case 'turn_end':
      // A turn that failed because its context overflowed was recovered at the reset (§6.6).
      if (e.outcome !== 'completed' && !s.resetInTurn)
        calls.push({
          call: 'fail_pending',
          generation: s.lifecycleGeneration,
          detail:
            s.lastError?.detail ??
            (e.outcome === 'interrupted' ? 'the turn was interrupted' : 'the runtime turn failed'),
          reason: s.lastError?.reason ?? 'runtime_error',
          processExited: false,
        });
      return { ...s, resetInTurn: false, lastError: null };
    case 'exit':
      return exited(s, e, calls);
    case 'gave_up': {
      const detail = `the runtime crashed ${e.restarts} times and is no longer restarted`;
      // No replacement comes: the rows that waited for one end `failed` now (§9.2).
      calls.push({
        call: 'fail_pending',
        generation: s.lifecycleGeneration,
        detail,
        reason: 'cli_exited',
        processExited: true,
      });
      return down({ ...s, downReason: 'cli_exited' }, detail, calls);
    }
    case 'local_text':
      calls.push({ call: 'count_local_text', generation: s.lifecycleGeneration, bytes: e.bytes, runes: e.runes });
      return s;
    default:
      // Tool calls settle nothing (contract §9.2).
      return s;
  }
}

function ready(
  s: AgentSessionState,
  e: Envelope<'ready'> & { readonly tableGeneration: number },
  calls: AgentSessionCall[],
): AgentSessionState {
  const live: ProcessWatch = { phase: 'live', generation: e.generation };
  if (s.process.phase === 'awaiting_ready') return { ...s, process: live };
  if (s.process.phase === 'live' && s.process.generation === e.generation) return s;
  // A restarted (or replacing) process: the lifecycle's next generation (§6.6, §8.3).
  const generation = e.tableGeneration + 1;
  calls.push({ call: 'process_replaced', generation });
  return { ...s, process: live, lifecycleGeneration: generation };
}

function exited(s: AgentSessionState, e: Envelope<'exit'>, calls: AgentSessionCall[]): AgentSessionState {
  // A process that never became ready is a failed start, reported by the start itself
  // (issue 15: a missing CLI must fail its wakes with `cli_missing`, not hold them queued).
  if (e.expected || s.process.phase !== 'live') return s;
  const detail =
    s.lastError?.detail ??
    `the ${s.runtime ?? 'agent'} runtime exited unexpectedly (${e.signal ?? `code ${e.code ?? '?'}`})`;
  // issue 16: the replacement recovers the runtime-visible rows (§6.6); nothing is failed for the crash itself.
  calls.push({
    call: 'process_exited',
    generation: s.lifecycleGeneration,
    detail,
    reason: s.lastError?.reason ?? 'cli_exited',
  });
  return { ...s, lastError: null, resetInTurn: false };
}

// —— Replacement (issue 14, contract §6.6) ——

function replace(s: AgentSessionState, detail: string, calls: AgentSessionCall[]): AgentSessionState {
  if (s.stopped) return s;
  calls.push({ call: 'process_exited', generation: s.lifecycleGeneration, detail, reason: 'runtime_error' });
  // The old process's last events still reach the state and the bus (its exit cancels its pending
  // approvals) but settle nothing: an interrupted turn of a process we ended is no runtime error.
  return { ...s, runtime: null, process: { phase: 'retiring' }, delivered: false };
}

function retired(s: AgentSessionState, calls: AgentSessionCall[]): AgentSessionState {
  // The daemon stopped meanwhile: nothing new is started (no orphans).
  if (s.stopped) return s;
  const reopened = { ...s, process: { phase: 'awaiting_replacement' } as const, downReason: null, downDetail: null };
  return follow(agentStateTo(reopened, 'starting', calls), calls);
}

function replacementSettled(
  s: AgentSessionState,
  e: { readonly ok: boolean; readonly tableGeneration: number },
  calls: AgentSessionCall[],
): AgentSessionState {
  if (e.ok || s.process.phase !== 'awaiting_replacement') return s;
  // No replacement comes: what waited for one ends failed (as after gave_up, §9.2), and the
  // table re-opens on a new generation so later wakes fail at delivery with the reason the
  // runtime is down — never held forever. (Every row just ended: nothing is recovered.)
  const generation = e.tableGeneration + 1;
  calls.push(
    {
      call: 'fail_pending',
      generation: s.lifecycleGeneration,
      detail: s.downDetail ?? 'the restarted runtime could not start',
      reason: s.downReason ?? 'runtime_error',
      processExited: false,
    },
    { call: 'process_replaced', generation },
  );
  return { ...s, process: { phase: 'awaiting_ready' }, lifecycleGeneration: generation };
}

// —— Deliveries (contract §9.2) and the turn boundary (§6.4, §8.3) ——

function deliveryDue(s: AgentSessionState, d: WakeDelivery, calls: AgentSessionCall[]): AgentSessionState {
  // A daemon stopping while the runtime started: the store may already be closed.
  if (s.stopped || d.generation !== s.lifecycleGeneration) return s;
  if (s.runtime === null)
    // issue 14: no runtime could be built (e.g. its workspace is not a folder): the wake ends with why.
    calls.push(failDelivery(d, s.downDetail ?? 'the runtime is not running', s.downReason ?? 'runtime_error'));
  else calls.push({ call: 'render_delivery', delivery: d, turn: s.delivered ? 'wake' : 'fresh' });
  return s;
}

function deliveryRendered(
  s: AgentSessionState,
  d: WakeDelivery,
  text: string | null,
  calls: AgentSessionCall[],
): AgentSessionState {
  if (text === null) {
    calls.push(failDelivery(d, 'the delivery prompt could not be built', 'runtime_error'));
    return s;
  }
  calls.push(
    { call: 'record_prompt_input', kind: 'delivery', wakeTokens: tokensOf(d), text },
    { call: 'write_prompt', delivery: d, text },
  );
  return s.delivered ? s : { ...s, delivered: true };
}

function deliveryWritten(
  s: AgentSessionState,
  d: WakeDelivery,
  result: DeliverResult,
  calls: AgentSessionCall[],
): AgentSessionState {
  if (result.ok) calls.push({ call: 'mark_delivered', generation: d.generation, wakeTokens: tokensOf(d) });
  // issue 15: a runtime that is down fails the delivery with the reason it went down for.
  else
    calls.push(
      failDelivery(d, result.message, result.code === 'not_running' ? (s.downReason ?? 'cli_exited') : 'cli_exited'),
    );
  return s;
}

function finalCheckChosen(
  s: AgentSessionState,
  injection: FinalCheckInjection | null,
  calls: AgentSessionCall[],
): AgentSessionState {
  if (injection !== null)
    calls.push(
      // Recorded before the injection is tried (§6.4, §8.4).
      {
        call: 'record_prompt_input',
        kind: 'final_check',
        wakeTokens: injection.wakeTokens,
        text: injection.finalCheck,
      },
      { call: 'answer_final_check', finalCheck: injection.finalCheck },
    );
  return { ...s, lastInjection: injection };
}

function failDelivery(d: WakeDelivery, detail: string, reason: FailureReason): AgentSessionCall {
  return { call: 'fail_delivery', generation: d.generation, wakeTokens: tokensOf(d), detail, reason };
}

function tokensOf(d: WakeDelivery): readonly string[] {
  return d.wakes.map((w) => w.wakeToken);
}

// —— Shared steps ——

/** Follows the lifecycle's deliveries for this agent, once. */
function follow(s: AgentSessionState, calls: AgentSessionCall[]): AgentSessionState {
  if (s.following) return s;
  calls.push({ call: 'follow_deliveries' });
  return { ...s, following: true };
}

/** The runtime could not be built or started, or gave up: crashed, and the daemon is told why. */
function down(s: AgentSessionState, detail: string, calls: AgentSessionCall[]): AgentSessionState {
  const crashed = agentStateTo({ ...s, downDetail: detail }, 'crashed', calls);
  calls.push({ call: 'report_down', detail });
  return crashed;
}

/** A change of the agent's state is reported; a repeat is not. */
function agentStateTo(s: AgentSessionState, agentState: Agent['state'], calls: AgentSessionCall[]): AgentSessionState {
  if (s.agentState === agentState) return s;
  calls.push({ call: 'report_state', state: agentState });
  return { ...s, agentState };
}
