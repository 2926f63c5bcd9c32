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
import { COMPACTED_AFTER_OVERFLOW, OVERFLOW_RENEWAL_PREFIX, type Agent } from '../../../shared/api/contract.js';
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import { isFailureReason, type FailureReason } from '../../../shared/wake-status.js';
import type { DeliverResult } from '../runtime/runtime-adapter.js';
import type { FinalCheckInjection, WakeDelivery } from '../wake/wake-lifecycle.js';
import type { AgentSessionCall } from './agent-session-calls.js';
import type { AgentSessionEvent, Envelope, RuntimeInput } from './agent-session-events.js';
import { TURNS_KEPT, type AgentSessionState, type ProcessWatch } from './agent-session-state.js';

/** Why an overflowed session's process is replaced (issue 24, §6.6): the replacement's detail. */
export const RENEW_DETAIL = 'the context window overflowed; the agent continues in a fresh session';

/**
 * issue 38: why an overflow is recovered into a fresh session (§6.6) instead: the timeline's words
 * (each starts with OVERFLOW_RENEWAL_PREFIX, which the inspector reads).
 */
export const RENEWAL_REASONS = {
  unavailable: `${OVERFLOW_RENEWAL_PREFIX}; this runtime cannot compact its session, so the agent continues in a fresh one`,
  repeated: `${OVERFLOW_RENEWAL_PREFIX} again right after a compaction; the agent continues in a fresh session`,
  noPrompt: `${OVERFLOW_RENEWAL_PREFIX}; the continuation prompt could not be built, so the agent continues in a fresh session`,
  failed: (detail: string) =>
    `${OVERFLOW_RENEWAL_PREFIX} and the compaction failed (${detail}); the agent continues in a fresh session`,
} as const;

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
      // issue 40: the wakes it cannot take fail with the cause readiness names (its workspace, its
      // entry), never `runtime_error`.
      return down({ ...s, downReason: isFailureReason(e.code) ? e.code : 'config_invalid' }, e.message, calls);
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
    case 'sleep':
      return sleep(s, e.working);
    case 'slept':
      if (s.agentState === 'sleeping') calls.push({ call: 'report_state', state: 'sleeping' });
      return s;
    case 'wake':
      return s.agentState === 'sleeping' && !s.stopped ? agentStateTo(s, 'starting', calls) : s;
    case 'start_again':
      // The failed start's own exit read `stopped`: it is starting, not stopped.
      return s.stopped ? s : agentStateTo(s, 'starting', calls);
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
    case 'compaction_settled':
      return compactionSettled(s, e, calls);
    case 'turn_boundary':
      // contract §6.4: the lifecycle alone decides every final-check; none after stop, nor in a
      // turn being ended (issue 29: a final-check would start the work again), nor in the turn
      // that overflowed while the session compacts (issue 38: the continuation goes on instead).
      // issue 38: a turn asked to end that reaches its boundary anyway (it completed in a race with
      // the interrupt) ends its wakes here with why it was ended — never left `delivered` with no terminal.
      if (s.stopped) return s;
      if (s.turnEndAsked !== null) calls.push(endTurnRows(s, s.turnEndAsked));
      else if (s.overflow?.phase !== 'compacting')
        calls.push({ call: 'choose_final_check', generation: s.lifecycleGeneration });
      return s;
    case 'end_turn':
      return endTurnAsked(s, e, calls);
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
      // A note of an earlier turn the daemon asked to end never reaches this one (issue 29).
      const started = agentStateTo({ ...s, turnId: e.turnId, turnEndAsked: null }, 'busy', calls);
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
    case 'input_dropped':
      // issue 29: reported (log; the turn's failure detail if it then fails), never fatal.
      calls.push({
        call: 'log_warn',
        message: 'runtime output line over the cap dropped',
        fields: { agentId: s.agentId, chars: e.chars, limit: e.limit },
      });
      return s;
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

/**
 * issue 29 "Turns end": the running turn is interrupted through the runtime's own interrupt; its
 * pending approvals are cancelled (the runtime would otherwise wait on them), and its end fails
 * its rows with the reason (`settle`'s `turn_end`). Asked once per turn; a turn that already
 * ended (a late timer, a second Stop) is left alone.
 */
function endTurnAsked(
  s: AgentSessionState,
  e: Extract<AgentSessionEvent, { readonly type: 'end_turn' }>,
  calls: AgentSessionCall[],
): AgentSessionState {
  if (s.stopped || s.turnId !== e.turnId || s.turnEndAsked?.turnId === e.turnId) return s;
  calls.push({ call: 'cancel_approvals', reason: e.detail }, { call: 'interrupt_runtime' });
  return { ...s, turnEndAsked: { turnId: e.turnId, detail: e.detail, reason: e.reason } };
}

/** issue 27: the turn a usage report is about and its wakes: the running turn, else the latest one. */
function reportingTurn(s: AgentSessionState): { turnId: string | null; wakeTokens: readonly string[] } {
  const turnId = s.turnId ?? [...s.turnWakes.keys()].at(-1) ?? null;
  return { turnId, wakeTokens: turnId === null ? [] : (s.turnWakes.get(turnId) ?? []) };
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
    case 'usage':
      // issue 27: the runtime's own report of the turn's usage; nothing settles on it.
      calls.push({ call: 'record_usage', usage: e.usage, ...reportingTurn(s) });
      return s;
    case 'limit_window':
      calls.push({ call: 'record_limit_window', window: e.window, wakeTokens: reportingTurn(s).wakeTokens });
      return s;
    case 'context_compacted':
      // issue 24 (§8.3, §9.2): a native compaction is a continuation: the rows stay pending, the
      // send scope survives, nothing is recovered or re-sent; only the wakes' timelines note it
      // (issue 38: the compaction after an overflow is noted once it settled).
      if (s.overflow?.phase !== 'compacting') calls.push({ call: 'note_compaction', detail: null });
      return s;
    case 'context_overflow':
      return overflowed(s, e, calls);
    case 'runtime_error':
      return { ...s, lastError: { detail: e.detail, reason: e.reason ?? null } };
    case 'input_dropped':
      // A dropped line may have been the turn's end: if the turn then fails, this is why.
      return s.lastError !== null
        ? s
        : {
            ...s,
            lastError: {
              detail: `a line of runtime output (${e.chars} characters) was over the ${e.limit}-character cap and was dropped`,
              reason: null,
            },
          };
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
    case 'turn_end': {
      // (A turn that failed because its context overflowed ends in the retiring process: it settles nothing, §6.6.)
      // issue 38: nor while its session compacts: the same wakes go on in the continuation.
      if (s.overflow?.phase === 'compacting') return { ...s, lastError: null, turnEndAsked: null };
      // The continuation's turn ended: what follows is the ordinary rule, and a later overflow a new one.
      const after = s.overflow === null ? s : { ...s, overflow: null };
      // issue 29: a turn the daemon ended fails with why it was ended, whatever the runtime said —
      // issue 38: completed or not (a race with the interrupt), and only that turn's wakes: the ones
      // waiting for the next turn are delivered after it.
      const asked = s.turnEndAsked;
      if (asked !== null) calls.push(endTurnRows(s, asked));
      else if (e.outcome !== 'completed')
        calls.push({
          call: 'fail_pending',
          generation: s.lifecycleGeneration,
          detail:
            s.lastError?.detail ??
            (e.outcome === 'interrupted' ? 'the turn was interrupted' : 'the runtime turn failed'),
          reason: s.lastError?.reason ?? 'runtime_error',
          processExited: false,
        });
      return { ...after, lastError: null, turnEndAsked: null };
    }
    case 'exit':
      // issue 38: a compaction under way dies with its process (the replacement recovers, §6.6).
      return exited(s.overflow === null ? s : { ...s, overflow: null }, e, calls);
    case 'gave_up': {
      // issue 43: restarts refused by the agent's host end with the host's reason and sentence.
      const reason = e.reason ?? 'cli_exited';
      const detail =
        e.detail === undefined
          ? `the runtime crashed ${e.restarts} times and is no longer restarted`
          : `the runtime was restarted ${e.restarts} times and is no longer restarted: ${e.detail}`;
      // No replacement comes: the rows that waited for one end `failed` now (§9.2).
      calls.push({
        call: 'fail_pending',
        generation: s.lifecycleGeneration,
        detail,
        reason,
        processExited: true,
      });
      return down({ ...s, downReason: reason }, detail, calls);
    }
    case 'local_text':
      calls.push({ call: 'count_local_text', generation: s.lifecycleGeneration, bytes: e.bytes, runes: e.runes });
      return s;
    default:
      // Tool calls settle nothing (contract §9.2).
      return s;
  }
}

// —— Context overflow (issue 16, 24, 38; DESIGN.md "Compaction, context overflow, crashes") ——

/**
 * issue 38: a runtime that compacts natively goes on in the SAME session: it is asked to compact
 * once the overflowed turn ended, and the same wakes continue with a short prompt that does not
 * repeat the task; they keep their rows and send scope (§8.3, §9.2) and end by the ordinary rule.
 * §6.6 (a fresh session, recovery markers) only where that is not possible: the runtime cannot
 * compact, the overflow comes again right after a compaction, or no continuation can be written.
 */
function overflowed(
  s: AgentSessionState,
  e: Extract<RuntimeInput, { readonly type: 'context_overflow' }>,
  calls: AgentSessionCall[],
): AgentSessionState {
  // A second report of the same overflow (or of the compaction's own request): its settling decides.
  if (s.overflow?.phase === 'compacting') return s;
  const { continuation } = e;
  const why = !e.canCompact
    ? RENEWAL_REASONS.unavailable
    : s.overflow?.phase === 'continued'
      ? RENEWAL_REASONS.repeated
      : continuation.wakeTokens.length > 0 && continuation.text === null
        ? RENEWAL_REASONS.noPrompt
        : null;
  if (why !== null) return renew(s, why, calls);
  calls.push({ call: 'compact_runtime', continuation: continuation.text });
  return { ...s, overflow: { phase: 'compacting', continuation } };
}

/** issue 38: the compaction (and the continuation's write) settled. */
function compactionSettled(
  s: AgentSessionState,
  e: Extract<AgentSessionEvent, { readonly type: 'compaction_settled' }>,
  calls: AgentSessionCall[],
): AgentSessionState {
  const overflow = s.overflow;
  // Stopped, replaced or exited meanwhile: nothing of this session settles any more.
  if (s.stopped || overflow?.phase !== 'compacting' || s.process.phase === 'retiring') return s;
  if (!e.ok) return renew(s, RENEWAL_REASONS.failed(e.detail ?? 'no reason given'), calls);
  const { wakeTokens, text } = overflow.continuation;
  calls.push({ call: 'note_compaction', detail: COMPACTED_AFTER_OVERFLOW });
  // contract §8.4: the continuation written into the runtime is a `prompt_input` entry.
  if (text !== null) calls.push({ call: 'record_prompt_input', kind: 'continuation', wakeTokens, text });
  return { ...s, overflow: text === null ? null : { phase: 'continued' } };
}

/**
 * issue 16, 24 (§6.6): the context overflowed and the session cannot go on: the runtime-visible
 * rows end and are recovered, and the session is renewed: the process is replaced (`replace`) by
 * one that starts a fresh session. The overflowed process settles nothing more, and deliveries
 * wait for the fresh one (the replacement re-offers them): nothing, the recovery wake included,
 * is written into the overflowed session. issue 38: why, first, on the wakes' timelines.
 */
function renew(s: AgentSessionState, why: string, calls: AgentSessionCall[]): AgentSessionState {
  calls.push(
    { call: 'note_renewal', detail: why },
    { call: 'context_reset', generation: s.lifecycleGeneration, cause: 'context_overflow' },
    { call: 'renew_session', detail: RENEW_DETAIL },
  );
  return { ...s, overflow: null, process: { phase: 'retiring' } };
}

function ready(
  s: AgentSessionState,
  e: Envelope<'ready'> & { readonly tableGeneration: number },
  calls: AgentSessionCall[],
): AgentSessionState {
  const live: ProcessWatch = { phase: 'live', generation: e.generation };
  // issue 42: a process woken from sleep that could not resume its session starts a fresh one (§8.1).
  if (s.process.phase === 'awaiting_ready') return { ...s, process: live, delivered: s.delivered && e.resumed };
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
  return { ...s, lastError: null };
}

// —— Sleep (issue 42) ——

/**
 * issue 42 "Sleep and wake": only an idle agent sleeps — no turn running, nothing the runtime still
 * works on, not stopped — so no pending approval, recovery, usage pause or wake is lost: they all
 * live in the lifecycle and the store, not in the process. The process goes (its events are no
 * longer followed: its expected exit is no "stopped"), the lifecycle's generation stays (the rows
 * admitted while it sleeps are delivered to the woken one), and the woken process's first `ready`
 * is a first start's, not a replacement's; `slept` (its process stopped) reports the state. `delivered` is kept: a resumed session already has the
 * thread contract (§8.1).
 */
function sleep(s: AgentSessionState, working: number): AgentSessionState {
  if (s.stopped || s.agentState !== 'idle' || s.turnId !== null || working > 0 || s.overflow !== null) return s;
  // Reported once the process is gone (`slept`): the agent reads `sleeping` when it costs nothing.
  return { ...s, agentState: 'sleeping', runtime: null, process: { phase: 'awaiting_ready' }, lastError: null };
}

// —— Replacement (issue 14, contract §6.6) ——

function replace(s: AgentSessionState, detail: string, calls: AgentSessionCall[]): AgentSessionState {
  if (s.stopped) return s;
  // issue 29: a turn the daemon asked to end that did not end (its runtime ignored the interrupt):
  // its rows end `failed` with why it was ended — never recovered into the replacement.
  // issue 38: only that turn's wakes; the rows it never saw are re-offered to the replacement.
  const asked = s.turnEndAsked;
  if (asked !== null && asked.turnId === s.turnId)
    calls.push(
      endTurnRows(s, { ...asked, detail: `${asked.detail}; the runtime did not end the turn, so it was restarted` }),
    );
  // issue 24: the replacement ends the old process's (other) runtime-visible rows `failed/process_replaced`.
  calls.push({ call: 'process_exited', generation: s.lifecycleGeneration, detail, reason: 'process_replaced' });
  // The old process's last events still reach the state and the bus (its exit cancels its pending
  // approvals) but settle nothing: an interrupted turn of a process we ended is no runtime error.
  return { ...s, runtime: null, process: { phase: 'retiring' }, delivered: false, overflow: null };
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
  // A daemon stopping while the runtime started: the store may already be closed. While the
  // process retires (a replacement, a renewal after an overflow) the row waits: the replacement
  // re-offers it to the new process (never written into the old one, never failed for being early).
  if (s.stopped || d.generation !== s.lifecycleGeneration || s.process.phase === 'retiring') return s;
  // issue 14: no runtime could be built (e.g. its workspace is not a folder): the wake ends with why.
  // issue 42: nor could it start (a wake-up's start failed twice): its wakes say why — the start's
  // own failure (its timeout, its stderr) — not that the write found no process.
  if (s.runtime === null || (s.agentState === 'crashed' && s.downReason !== null))
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
  // issue 38: not written because its wakes were paused (or ended) while it waited: nothing to fail.
  else if (result.code === 'withdrawn') return s;
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

/** issue 29, 38: the wakes of the turn the daemon asked to end, ended with why. */
function endTurnRows(
  s: AgentSessionState,
  asked: { readonly detail: string; readonly reason: FailureReason },
): AgentSessionCall {
  return { call: 'end_turn_rows', generation: s.lifecycleGeneration, detail: asked.detail, reason: asked.reason };
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
