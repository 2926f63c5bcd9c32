/**
 * Table tests for the agent session's decisions (STYLE.md habit 6): each row is a state and an
 * event, and the state change and the calls the shell must perform, in order. A row's state
 * fields that are not named in `changes` must stay as they were.
 */
import { COMPACTED_AFTER_OVERFLOW } from '../../../../../shared/api/contract.js';
import { describe, expect, it } from 'vitest';
import type { TargetKey } from '../../../../../shared/target.js';
import type { AgentSessionCall } from '../../../../../main/daemon/services/agent-session-calls.js';
import type { AgentSessionEvent, RuntimeInput } from '../../../../../main/daemon/services/agent-session-events.js';
import {
  RENEW_DETAIL,
  RENEWAL_REASONS,
  agentSessionStep,
} from '../../../../../main/daemon/services/agent-session-machine.js';
import {
  TURNS_KEPT,
  initialAgentSessionState,
  type AgentSessionState,
} from '../../../../../main/daemon/services/agent-session-state.js';
import type { FinalCheckInjection, WakeDelivery } from '../../../../../main/daemon/wake/wake-lifecycle.js';

const BASE = initialAgentSessionState('a1');
/** Started, its adapter (process generation 1) ready, the lifecycle at generation 0, idle. */
const LIVE: AgentSessionState = {
  ...BASE,
  agentState: 'idle',
  following: true,
  runtime: 'codex',
  process: { phase: 'live', generation: 1 },
  lifecycleGeneration: 0,
};
const IN_TURN: AgentSessionState = { ...LIVE, agentState: 'busy', turnId: 't1', turnWakes: new Map([['t1', ['w1']]]) };
const STOPPED: AgentSessionState = { ...LIVE, stopped: true };
/** `replace` asked: the old process (generation 1) is being stopped. */
const RETIRING: AgentSessionState = { ...LIVE, runtime: null, process: { phase: 'retiring' } };
/** The old process is gone; the replacement is starting. */
const AWAITING_REPLACEMENT: AgentSessionState = {
  ...LIVE,
  agentState: 'starting',
  process: { phase: 'awaiting_replacement' },
};

const D: WakeDelivery = {
  agentId: 'a1',
  generation: 0,
  wakes: [
    {
      wakeToken: 'w1',
      messageId: 'm1',
      target: '#general',
      targetKey: '#general' as TargetKey,
      targetSeq: 1,
      deliveryClass: 'visible_reply',
    },
  ],
};
const INJECTION: FinalCheckInjection = { generation: 0, finalCheck: 'FINAL-CHECK #general', wakeTokens: ['w1'] };

/** A runtime event of process generation 1 (the live one) unless told. */
const rt = (event: RuntimeInput): RuntimeInput => event;
/** issue 38: an overflow as the shell feeds it: whether the session can compact, and its continuation. */
const overflow = (canCompact: boolean, wakeTokens: readonly string[], text: string | null) =>
  rt({ type: 'context_overflow', canCompact, continuation: { wakeTokens, text }, generation: 1 });
const COMPACTING: AgentSessionState['overflow'] = {
  phase: 'compacting',
  continuation: { wakeTokens: ['w1'], text: 'CONTINUE #general' },
};
const ready = (generation: number, tableGeneration = 0) =>
  rt({ type: 'ready', sessionId: 's1', resumed: false, generation, tableGeneration });
const turnEnd = (outcome: 'completed' | 'error' | 'interrupted', generation = 1) =>
  rt({ type: 'turn_end', outcome, generation });
const exit = (expected: boolean, signal: string | null = 'SIGKILL', code: number | null = null, generation = 1) =>
  rt({ type: 'exit', code, signal, expected, generation });

interface Row {
  readonly name: string;
  readonly state: AgentSessionState;
  readonly event: AgentSessionEvent;
  readonly changes: Partial<AgentSessionState>;
  readonly calls: readonly AgentSessionCall[];
}

const start: Row[] = [
  {
    name: 'start: the lifecycle generation is taken, the deliveries followed',
    state: BASE,
    event: { type: 'start', tableGeneration: 3 },
    changes: { lifecycleGeneration: 3, following: true },
    calls: [{ call: 'follow_deliveries' }],
  },
  {
    name: 'start: deliveries already followed are not followed twice',
    state: { ...BASE, following: true },
    event: { type: 'start', tableGeneration: 3 },
    changes: { lifecycleGeneration: 3 },
    calls: [],
  },
  {
    name: 'runtime_unbuilt: logged, crashed, reported down with the message; its cause is the down reason (issue 40)',
    state: BASE,
    event: { type: 'runtime_unbuilt', code: 'workspace_missing', message: 'no such folder' },
    changes: { agentState: 'crashed', downDetail: 'no such folder', downReason: 'workspace_missing' },
    calls: [
      {
        call: 'log_error',
        message: 'agent runtime not created',
        fields: { agentId: 'a1', code: 'workspace_missing', message: 'no such folder' },
      },
      { call: 'report_state', state: 'crashed' },
      { call: 'report_down', detail: 'no such folder' },
    ],
  },
  {
    name: 'runtime_unbuilt: a code outside the failure vocabulary is config_invalid, never runtime_error (issue 40)',
    state: BASE,
    event: { type: 'runtime_unbuilt', code: 'built', message: 'cannot run as written' },
    changes: { agentState: 'crashed', downDetail: 'cannot run as written', downReason: 'config_invalid' },
    calls: [
      {
        call: 'log_error',
        message: 'agent runtime not created',
        fields: { agentId: 'a1', code: 'built', message: 'cannot run as written' },
      },
      { call: 'report_state', state: 'crashed' },
      { call: 'report_down', detail: 'cannot run as written' },
    ],
  },
  {
    name: 'runtime_attached: the runtime kind is known',
    state: BASE,
    event: { type: 'runtime_attached', runtime: 'claude-code' },
    changes: { runtime: 'claude-code' },
    calls: [],
  },
  {
    name: 'start_failed: logged, down with its reason (issue 15: cli_missing)',
    state: { ...BASE, runtime: 'codex' },
    event: {
      type: 'start_failed',
      runtime: 'codex',
      result: { ok: false, code: 'spawn_failed', message: 'ENOENT', reason: 'cli_missing' },
    },
    changes: { agentState: 'crashed', downReason: 'cli_missing', downDetail: 'ENOENT' },
    calls: [
      {
        call: 'log_error',
        message: 'runtime could not start',
        fields: { agentId: 'a1', runtime: 'codex', code: 'spawn_failed', message: 'ENOENT' },
      },
      { call: 'report_state', state: 'crashed' },
      { call: 'report_down', detail: 'ENOENT' },
    ],
  },
  {
    name: 'start_failed without a reason: cli_exited',
    state: { ...BASE, agentState: 'crashed' },
    event: { type: 'start_failed', runtime: 'codex', result: { ok: false, code: 'exited', message: 'exited 1' } },
    changes: { downReason: 'cli_exited', downDetail: 'exited 1' },
    calls: [
      {
        call: 'log_error',
        message: 'runtime could not start',
        fields: { agentId: 'a1', runtime: 'codex', code: 'exited', message: 'exited 1' },
      },
      { call: 'report_down', detail: 'exited 1' },
    ],
  },
  {
    name: 'launch_settled not ok while still starting: crashed',
    state: BASE,
    event: { type: 'launch_settled', ok: false },
    changes: { agentState: 'crashed' },
    calls: [{ call: 'report_state', state: 'crashed' }],
  },
  {
    name: 'launch_settled not ok, already crashed: nothing more',
    state: { ...BASE, agentState: 'crashed' },
    event: { type: 'launch_settled', ok: false },
    changes: {},
    calls: [],
  },
  {
    name: 'launch_settled ok: nothing (the ready event did the rest)',
    state: LIVE,
    event: { type: 'launch_settled', ok: true },
    changes: {},
    calls: [],
  },
  {
    name: 'stop: nothing more is settled or delivered',
    state: LIVE,
    event: { type: 'stop' },
    changes: { stopped: true },
    calls: [],
  },
  {
    name: 'stopped: the agent is stopped',
    state: STOPPED,
    event: { type: 'stopped' },
    changes: { agentState: 'stopped' },
    calls: [{ call: 'report_state', state: 'stopped' }],
  },
];

const replacement: Row[] = [
  {
    name: 'replace: admission pauses, the old process retires, the next delivery is fresh',
    state: { ...IN_TURN, delivered: true },
    event: { type: 'replace', detail: 'restarted with a new workspace' },
    changes: { runtime: null, process: { phase: 'retiring' }, delivered: false },
    calls: [
      { call: 'process_exited', generation: 0, detail: 'restarted with a new workspace', reason: 'process_replaced' },
    ],
  },
  {
    // issue 24: the renewal an overflow asked for (its process already retires since the reset).
    name: "replace for an overflow's renewal: the same replacement (admission pauses, the next delivery is fresh)",
    state: { ...LIVE, delivered: true, process: { phase: 'retiring' } },
    event: { type: 'replace', detail: RENEW_DETAIL },
    changes: { runtime: null, delivered: false },
    calls: [{ call: 'process_exited', generation: 0, detail: RENEW_DETAIL, reason: 'process_replaced' }],
  },
  {
    name: 'replace of a turn asked to end that did not (issue 29): its rows fail with the reason, not recovered; the rows it never saw wait for the replacement (issue 38)',
    state: {
      ...IN_TURN,
      delivered: true,
      turnEndAsked: { turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped' },
    },
    event: { type: 'replace', detail: 'stopped' },
    changes: { runtime: null, process: { phase: 'retiring' }, delivered: false },
    calls: [
      {
        call: 'end_turn_rows',
        generation: 0,
        detail: 'stopped; the runtime did not end the turn, so it was restarted',
        reason: 'stopped_by_operator',
      },
      { call: 'process_exited', generation: 0, detail: 'stopped', reason: 'process_replaced' },
    ],
  },
  {
    name: 'replace after stop: nothing',
    state: STOPPED,
    event: { type: 'replace', detail: 'restarted' },
    changes: {},
    calls: [],
  },
  {
    name: 'retired: starting again, awaiting the replacement, no longer down',
    state: { ...RETIRING, agentState: 'stopped', downReason: 'cli_exited', downDetail: 'gone' },
    event: { type: 'retired' },
    changes: { agentState: 'starting', process: { phase: 'awaiting_replacement' }, downReason: null, downDetail: null },
    calls: [{ call: 'report_state', state: 'starting' }],
  },
  {
    name: 'retired, deliveries not followed yet (the first start failed to build): followed now',
    state: { ...RETIRING, following: false, agentState: 'crashed' },
    event: { type: 'retired' },
    changes: { agentState: 'starting', process: { phase: 'awaiting_replacement' }, following: true },
    calls: [{ call: 'report_state', state: 'starting' }, { call: 'follow_deliveries' }],
  },
  {
    name: 'retired after stop: nothing new is started',
    state: { ...RETIRING, stopped: true },
    event: { type: 'retired' },
    changes: {},
    calls: [],
  },
  {
    name: 'replacement_settled not ok: what waited fails with why, the table re-opens on the next generation',
    state: { ...AWAITING_REPLACEMENT, agentState: 'crashed', downDetail: 'no such folder' },
    event: { type: 'replacement_settled', ok: false, tableGeneration: 0 },
    changes: { process: { phase: 'awaiting_ready' }, lifecycleGeneration: 1 },
    calls: [
      { call: 'fail_pending', generation: 0, detail: 'no such folder', reason: 'runtime_error', processExited: false },
      { call: 'process_replaced', generation: 1 },
    ],
  },
  {
    name: 'replacement_settled not ok, nothing said why: a default detail and the down reason',
    state: { ...AWAITING_REPLACEMENT, downReason: 'cli_missing' },
    event: { type: 'replacement_settled', ok: false, tableGeneration: 0 },
    changes: { process: { phase: 'awaiting_ready' }, lifecycleGeneration: 1 },
    calls: [
      {
        call: 'fail_pending',
        generation: 0,
        detail: 'the restarted runtime could not start',
        reason: 'cli_missing',
        processExited: false,
      },
      { call: 'process_replaced', generation: 1 },
    ],
  },
  {
    name: 'replacement_settled ok: nothing (its ready recovered the rows)',
    state: LIVE,
    event: { type: 'replacement_settled', ok: true, tableGeneration: 1 },
    changes: {},
    calls: [],
  },
  {
    name: 'replacement_settled not ok when no replacement was awaited: nothing',
    state: LIVE,
    event: { type: 'replacement_settled', ok: false, tableGeneration: 0 },
    changes: {},
    calls: [],
  },
];

const deliveries: Row[] = [
  {
    name: 'delivery_due: the first delivery is rendered as a fresh turn (contract §8.1)',
    state: LIVE,
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [{ call: 'render_delivery', delivery: D, turn: 'fresh' }],
  },
  {
    name: 'delivery_due: a later delivery is a wake',
    state: { ...LIVE, delivered: true },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [{ call: 'render_delivery', delivery: D, turn: 'wake' }],
  },
  {
    name: 'delivery_due of another lifecycle generation: nothing',
    state: { ...LIVE, lifecycleGeneration: 1 },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [],
  },
  {
    // issue 24: a replacement or an overflow's renewal is under way: the row is held, never written
    // into the old process nor failed for being early; the replacement re-offers it.
    name: 'delivery_due while the process retires: held (the replacement re-offers it)',
    state: { ...LIVE, process: { phase: 'retiring' } },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [],
  },
  {
    name: 'delivery_due after stop: nothing (the store may be closed)',
    state: STOPPED,
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [],
  },
  {
    name: 'delivery_due with no runtime built: fails with why it is down',
    state: { ...LIVE, runtime: null, downDetail: 'no such folder', downReason: 'cli_missing' },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [
      { call: 'fail_delivery', generation: 0, wakeTokens: ['w1'], detail: 'no such folder', reason: 'cli_missing' },
    ],
  },
  {
    name: 'delivery_due with no runtime and no reason: not running, runtime_error',
    state: { ...LIVE, runtime: null },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [
      {
        call: 'fail_delivery',
        generation: 0,
        wakeTokens: ['w1'],
        detail: 'the runtime is not running',
        reason: 'runtime_error',
      },
    ],
  },
  {
    // issue 42: a wake-up whose start failed (twice): the wake says why the start failed, not that no process took the write.
    name: "delivery_due while its start failed (crashed): fails with the start's failure",
    state: {
      ...LIVE,
      agentState: 'crashed',
      process: { phase: 'awaiting_ready' },
      downDetail: 'codex app-server was not ready within 30 s',
      downReason: 'cli_exited',
    },
    event: { type: 'delivery_due', delivery: D },
    changes: {},
    calls: [
      {
        call: 'fail_delivery',
        generation: 0,
        wakeTokens: ['w1'],
        detail: 'codex app-server was not ready within 30 s',
        reason: 'cli_exited',
      },
    ],
  },
  {
    name: 'delivery_rendered: recorded as prompt_input (§8.4), then written',
    state: LIVE,
    event: { type: 'delivery_rendered', delivery: D, text: 'DELIVERY m1' },
    changes: { delivered: true },
    calls: [
      { call: 'record_prompt_input', kind: 'delivery', wakeTokens: ['w1'], text: 'DELIVERY m1' },
      { call: 'write_prompt', delivery: D, text: 'DELIVERY m1' },
    ],
  },
  {
    name: 'delivery_rendered null: the prompt could not be built, the rows fail',
    state: LIVE,
    event: { type: 'delivery_rendered', delivery: D, text: null },
    changes: {},
    calls: [
      {
        call: 'fail_delivery',
        generation: 0,
        wakeTokens: ['w1'],
        detail: 'the delivery prompt could not be built',
        reason: 'runtime_error',
      },
    ],
  },
  {
    name: 'delivery_written ok: delivered (runtime-visible)',
    state: LIVE,
    event: { type: 'delivery_written', delivery: D, result: { ok: true } },
    changes: {},
    calls: [{ call: 'mark_delivered', generation: 0, wakeTokens: ['w1'] }],
  },
  {
    name: 'delivery_written not_running: fails with the reason the runtime went down for',
    state: { ...LIVE, downReason: 'cli_missing' },
    event: {
      type: 'delivery_written',
      delivery: D,
      result: { ok: false, code: 'not_running', message: 'the runtime is not running' },
    },
    changes: {},
    calls: [
      {
        call: 'fail_delivery',
        generation: 0,
        wakeTokens: ['w1'],
        detail: 'the runtime is not running',
        reason: 'cli_missing',
      },
    ],
  },
  {
    name: 'delivery_written not_running, no down reason: cli_exited',
    state: LIVE,
    event: { type: 'delivery_written', delivery: D, result: { ok: false, code: 'not_running', message: 'gone' } },
    changes: {},
    calls: [{ call: 'fail_delivery', generation: 0, wakeTokens: ['w1'], detail: 'gone', reason: 'cli_exited' }],
  },
  {
    name: 'delivery_written write_failed: cli_exited whatever the down reason',
    state: { ...LIVE, downReason: 'cli_missing' },
    event: { type: 'delivery_written', delivery: D, result: { ok: false, code: 'write_failed', message: 'EPIPE' } },
    changes: {},
    calls: [{ call: 'fail_delivery', generation: 0, wakeTokens: ['w1'], detail: 'EPIPE', reason: 'cli_exited' }],
  },
];

const boundary: Row[] = [
  {
    name: 'turn_boundary: the lifecycle chooses the final-check (§6.4)',
    state: IN_TURN,
    event: { type: 'turn_boundary' },
    changes: {},
    calls: [{ call: 'choose_final_check', generation: 0 }],
  },
  {
    name: 'turn_boundary after stop: no final-check',
    state: STOPPED,
    event: { type: 'turn_boundary' },
    changes: {},
    calls: [],
  },
  {
    name: 'final_check_chosen: recorded before it is answered (§6.4, §8.4)',
    state: IN_TURN,
    event: { type: 'final_check_chosen', injection: INJECTION },
    changes: { lastInjection: INJECTION },
    calls: [
      { call: 'record_prompt_input', kind: 'final_check', wakeTokens: ['w1'], text: 'FINAL-CHECK #general' },
      { call: 'answer_final_check', finalCheck: 'FINAL-CHECK #general' },
    ],
  },
  {
    name: 'final_check_chosen null: nothing to answer, the last injection forgotten',
    state: { ...IN_TURN, lastInjection: INJECTION },
    event: { type: 'final_check_chosen', injection: null },
    changes: { lastInjection: null },
    calls: [],
  },
];

const turns: Row[] = [
  {
    name: 'turn_start: busy, turn.start with the wakes it carries (remembered)',
    state: LIVE,
    event: rt({
      type: 'turn_start',
      sessionId: 's1',
      generation: 1,
      turnId: 't2',
      pending: [{ wakeToken: 'w1', target: '#general' }],
    }),
    changes: { agentState: 'busy', turnId: 't2', turnWakes: new Map([['t2', ['w1']]]) },
    calls: [
      { call: 'report_state', state: 'busy' },
      {
        call: 'turn.start',
        event: { turnId: 't2', agentId: 'a1', channel: 'local', wakeTokens: ['w1'], target: '#general' },
      },
    ],
  },
  {
    name: 'turn_start carrying no wakes: no target',
    state: LIVE,
    event: rt({ type: 'turn_start', sessionId: null, generation: 1, turnId: 't2', pending: [] }),
    changes: { agentState: 'busy', turnId: 't2', turnWakes: new Map([['t2', []]]) },
    calls: [
      { call: 'report_state', state: 'busy' },
      { call: 'turn.start', event: { turnId: 't2', agentId: 'a1', channel: 'local', wakeTokens: [] } },
    ],
  },
  {
    name: 'tool_call in a turn: runtime.local, settles nothing (§9.2)',
    state: IN_TURN,
    event: rt({ type: 'tool_call', name: 'mcp__agentteam__message_send', generation: 1 }),
    changes: {},
    calls: [
      { call: 'runtime.local', event: { turnId: 't1', kind: 'tool_call', tool: 'mcp__agentteam__message_send' } },
    ],
  },
  {
    name: 'tool_call outside a turn: nothing',
    state: LIVE,
    event: rt({ type: 'tool_call', name: 'x', generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'local_text in a turn: counts on the bus and on the wake (§6.5)',
    state: IN_TURN,
    event: rt({ type: 'local_text', bytes: 5, runes: 4, generation: 1 }),
    changes: {},
    calls: [
      { call: 'runtime.local', event: { turnId: 't1', kind: 'local_text', bytes: 5, runes: 4 } },
      { call: 'count_local_text', generation: 0, bytes: 5, runes: 4 },
    ],
  },
  {
    name: 'local_text outside a turn: counted on the wake only',
    state: LIVE,
    event: rt({ type: 'local_text', bytes: 1, runes: 1, generation: 1 }),
    changes: {},
    calls: [{ call: 'count_local_text', generation: 0, bytes: 1, runes: 1 }],
  },
  {
    name: 'operator_wait on in a turn: approval.wait on',
    state: IN_TURN,
    event: rt({ type: 'operator_wait', waiting: true, generation: 1 }),
    changes: { operatorWaitTurn: 't1' },
    calls: [{ call: 'approval.wait', event: { turnId: 't1', agentId: 'a1', waiting: true } }],
  },
  {
    name: 'operator_wait on again: once per change',
    state: { ...IN_TURN, operatorWaitTurn: 't1' },
    event: rt({ type: 'operator_wait', waiting: true, generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'operator_wait off: approval.wait off for the turn it was said in',
    state: { ...IN_TURN, operatorWaitTurn: 't1' },
    event: rt({ type: 'operator_wait', waiting: false, generation: 1 }),
    changes: { operatorWaitTurn: null },
    calls: [{ call: 'approval.wait', event: { turnId: 't1', agentId: 'a1', waiting: false } }],
  },
  {
    name: 'operator_wait on outside a turn: nothing to pause',
    state: LIVE,
    event: rt({ type: 'operator_wait', waiting: true, generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'operator_wait off with no wait: nothing to release',
    state: IN_TURN,
    event: rt({ type: 'operator_wait', waiting: false, generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'turn_end completed: turn.end, idle; a wait of the turn leaves nothing for the next',
    state: { ...IN_TURN, operatorWaitTurn: 't1' },
    event: turnEnd('completed'),
    changes: { agentState: 'idle', turnId: null, operatorWaitTurn: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'turn_end error: the pending rows fail with the runtime error (§9.2)',
    state: { ...IN_TURN, lastError: { detail: 'API error 400', reason: 'provider_error' } },
    event: turnEnd('error'),
    changes: { agentState: 'idle', turnId: null, lastError: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
      { call: 'fail_pending', generation: 0, detail: 'API error 400', reason: 'provider_error', processExited: false },
    ],
  },
  {
    name: 'turn_end error with no runtime error: a default detail, runtime_error',
    state: IN_TURN,
    event: turnEnd('error'),
    changes: { agentState: 'idle', turnId: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
      {
        call: 'fail_pending',
        generation: 0,
        detail: 'the runtime turn failed',
        reason: 'runtime_error',
        processExited: false,
      },
    ],
  },
  {
    name: 'turn_end interrupted: the rows fail, the turn was interrupted',
    state: IN_TURN,
    event: turnEnd('interrupted'),
    changes: { agentState: 'idle', turnId: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
      {
        call: 'fail_pending',
        generation: 0,
        detail: 'the turn was interrupted',
        reason: 'runtime_error',
        processExited: false,
      },
    ],
  },
  {
    // issue 24: the overflowed process retires at the reset; its failed turn's end settles nothing.
    name: 'turn_end error after a context reset in the turn (the process retires): recovered at the reset, nothing fails',
    state: { ...IN_TURN, process: { phase: 'retiring' }, lastError: { detail: 'Prompt is too long', reason: null } },
    event: turnEnd('error'),
    changes: { agentState: 'idle', turnId: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'end_turn (issue 29): the approvals of the turn are cancelled, the runtime interrupted, the reason noted',
    state: IN_TURN,
    event: { type: 'end_turn', turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped by the operator' },
    changes: { turnEndAsked: { turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped by the operator' } },
    calls: [{ call: 'cancel_approvals', reason: 'stopped by the operator' }, { call: 'interrupt_runtime' }],
  },
  {
    name: 'end_turn of a turn that already ended (a late timer): nothing',
    state: { ...IN_TURN, turnId: 't2' },
    event: { type: 'end_turn', turnId: 't1', reason: 'turn_timeout', detail: 'timed out' },
    changes: {},
    calls: [],
  },
  {
    name: 'end_turn asked twice for one turn: interrupted once',
    state: { ...IN_TURN, turnEndAsked: { turnId: 't1', reason: 'turn_timeout', detail: 'timed out' } },
    event: { type: 'end_turn', turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped' },
    changes: {},
    calls: [],
  },
  {
    name: 'end_turn after stop: nothing',
    state: { ...IN_TURN, stopped: true },
    event: { type: 'end_turn', turnId: 't1', reason: 'turn_timeout', detail: 'timed out' },
    changes: {},
    calls: [],
  },
  {
    name: "turn_end interrupted after end_turn: that turn's rows fail with its reason, not the runtime error (issue 38: only its rows)",
    state: {
      ...IN_TURN,
      lastError: { detail: 'aborted', reason: null },
      turnEndAsked: { turnId: 't1', reason: 'turn_timeout', detail: 'the turn ran over 120 minutes' },
    },
    event: turnEnd('interrupted'),
    changes: { agentState: 'idle', turnId: null, lastError: null, turnEndAsked: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
      { call: 'end_turn_rows', generation: 0, detail: 'the turn ran over 120 minutes', reason: 'turn_timeout' },
    ],
  },
  {
    name: "turn_end completed after end_turn (it finished first, issue 38): that turn's rows still end, with why it was ended",
    state: { ...IN_TURN, turnEndAsked: { turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped' } },
    event: turnEnd('completed'),
    changes: { agentState: 'idle', turnId: null, turnEndAsked: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
      { call: 'end_turn_rows', generation: 0, detail: 'stopped', reason: 'stopped_by_operator' },
    ],
  },
  {
    name: "turn_boundary of a turn being ended: no final-check is chosen; issue 38: the turn's rows end with why (never left delivered)",
    state: { ...IN_TURN, turnEndAsked: { turnId: 't1', reason: 'stopped_by_operator', detail: 'stopped' } },
    event: { type: 'turn_boundary' },
    changes: {},
    calls: [{ call: 'end_turn_rows', generation: 0, detail: 'stopped', reason: 'stopped_by_operator' }],
  },
  {
    name: 'input_dropped (issue 29): logged, and the turn failure detail if none is known',
    state: IN_TURN,
    event: rt({ type: 'input_dropped', chars: 20, limit: 10, generation: 1 }),
    changes: {
      lastError: {
        detail: 'a line of runtime output (20 characters) was over the 10-character cap and was dropped',
        reason: null,
      },
    },
    calls: [
      {
        call: 'log_warn',
        message: 'runtime output line over the cap dropped',
        fields: { agentId: 'a1', chars: 20, limit: 10 },
      },
    ],
  },
  {
    name: 'input_dropped after a runtime error: the error stays the detail',
    state: { ...IN_TURN, lastError: { detail: 'boom', reason: null } },
    event: rt({ type: 'input_dropped', chars: 20, limit: 10, generation: 1 }),
    changes: {},
    calls: [
      {
        call: 'log_warn',
        message: 'runtime output line over the cap dropped',
        fields: { agentId: 'a1', chars: 20, limit: 10 },
      },
    ],
  },
  {
    name: 'runtime_error: remembered for the turn end (its reason too)',
    state: IN_TURN,
    event: rt({ type: 'runtime_error', detail: 'API error 400', reason: 'provider_error', generation: 1 }),
    changes: { lastError: { detail: 'API error 400', reason: 'provider_error' } },
    calls: [],
  },
  {
    name: 'runtime_error without a reason',
    state: IN_TURN,
    event: rt({ type: 'runtime_error', detail: 'boom', generation: 1 }),
    changes: { lastError: { detail: 'boom', reason: null } },
    calls: [],
  },
  {
    // issue 24: this row asserted a compaction as a reset (recovered); it is a continuation now.
    name: 'context_compacted in a turn: a continuation (issue 24): only the timeline notes it; nothing recovered, the turn not marked',
    state: IN_TURN,
    event: rt({ type: 'context_compacted', generation: 1 }),
    changes: {},
    calls: [{ call: 'note_compaction', detail: null }],
  },
  {
    name: 'usage in a turn (issue 27): stored as the runtime reported it; nothing settles',
    state: IN_TURN,
    event: rt({
      type: 'usage',
      usage: { inputTokens: 3, outputTokens: 2, cachedTokens: 1, costUsd: 0.5 },
      generation: 1,
    }),
    changes: {},
    calls: [
      {
        call: 'record_usage',
        usage: { inputTokens: 3, outputTokens: 2, cachedTokens: 1, costUsd: 0.5 },
        turnId: 't1',
        wakeTokens: ['w1'],
      },
    ],
  },
  {
    name: "usage after the turn ended (issue 27: Codex / OpenCode report it late): on the latest turn's wakes",
    state: {
      ...LIVE,
      turnWakes: new Map([
        ['t0', ['w0']],
        ['t1', ['w1', 'w2']],
      ]),
    },
    event: rt({
      type: 'usage',
      usage: { inputTokens: 3, outputTokens: 2, cachedTokens: 0, costUsd: null },
      generation: 1,
    }),
    changes: {},
    calls: [
      {
        call: 'record_usage',
        usage: { inputTokens: 3, outputTokens: 2, cachedTokens: 0, costUsd: null },
        turnId: 't1',
        wakeTokens: ['w1', 'w2'],
      },
    ],
  },
  {
    name: 'limit_window (issue 27): the announced window is kept; nothing settles',
    state: IN_TURN,
    event: rt({
      type: 'limit_window',
      window: { runtime: 'codex', window: 'primary', windowMinutes: 300, usedPercent: 72, resetsAt: null },
      generation: 1,
    }),
    changes: {},
    calls: [
      {
        call: 'record_limit_window',
        wakeTokens: ['w1'],
        window: { runtime: 'codex', window: 'primary', windowMinutes: 300, usedPercent: 72, resetsAt: null },
      },
    ],
  },
  {
    // issue 24 (§6.6): this row recovered into the same session; issue 38: only a runtime that cannot compact renews now.
    name: 'context_overflow in a turn, the runtime cannot compact (issue 38): why on the timeline, the rows recovered, the session renewed',
    state: IN_TURN,
    event: overflow(false, ['w1'], null),
    changes: { process: { phase: 'retiring' } },
    calls: [
      { call: 'note_renewal', detail: RENEWAL_REASONS.unavailable },
      { call: 'context_reset', generation: 0, cause: 'context_overflow' },
      { call: 'renew_session', detail: RENEW_DETAIL },
    ],
  },
  {
    name: 'context_overflow between turns, the runtime cannot compact: recovered and renewed the same way',
    state: LIVE,
    event: overflow(false, [], null),
    changes: { process: { phase: 'retiring' } },
    calls: [
      { call: 'note_renewal', detail: RENEWAL_REASONS.unavailable },
      { call: 'context_reset', generation: 0, cause: 'context_overflow' },
      { call: 'renew_session', detail: RENEW_DETAIL },
    ],
  },
  {
    name: 'context_overflow of the retiring process (a second refusal before the renewal): nothing more',
    state: { ...IN_TURN, process: { phase: 'retiring' } },
    event: overflow(false, ['w1'], null),
    changes: {},
    calls: [],
  },
  {
    name: 'context_overflow in a turn, the session compacts (issue 38): compact it with the continuation; nothing ends, nothing is renewed',
    state: IN_TURN,
    event: overflow(true, ['w1'], 'CONTINUE #general'),
    changes: { overflow: COMPACTING },
    calls: [{ call: 'compact_runtime', continuation: 'CONTINUE #general' }],
  },
  {
    name: 'context_overflow with no wake in the session (issue 38): compacted, nothing to continue',
    state: LIVE,
    event: overflow(true, [], null),
    changes: { overflow: { phase: 'compacting', continuation: { wakeTokens: [], text: null } } },
    calls: [{ call: 'compact_runtime', continuation: null }],
  },
  {
    name: 'context_overflow whose continuation could not be built (issue 38): §6.6, never wakes left without a turn',
    state: IN_TURN,
    event: overflow(true, ['w1'], null),
    changes: { process: { phase: 'retiring' } },
    calls: [
      { call: 'note_renewal', detail: RENEWAL_REASONS.noPrompt },
      { call: 'context_reset', generation: 0, cause: 'context_overflow' },
      { call: 'renew_session', detail: RENEW_DETAIL },
    ],
  },
  {
    name: 'context_overflow reported again while compacting (issue 38): the compaction settling decides',
    state: { ...IN_TURN, overflow: COMPACTING },
    event: overflow(true, ['w1'], 'CONTINUE #general'),
    changes: {},
    calls: [],
  },
  {
    name: 'context_overflow right after a compaction, in its continuation (issue 38): §6.6, never a second compaction',
    state: { ...IN_TURN, overflow: { phase: 'continued' } },
    event: overflow(true, ['w1'], 'CONTINUE #general'),
    changes: { process: { phase: 'retiring' }, overflow: null },
    calls: [
      { call: 'note_renewal', detail: RENEWAL_REASONS.repeated },
      { call: 'context_reset', generation: 0, cause: 'context_overflow' },
      { call: 'renew_session', detail: RENEW_DETAIL },
    ],
  },
  {
    name: 'the overflowed turn ends while compacting (issue 38): its failure ends nothing',
    state: {
      ...IN_TURN,
      overflow: COMPACTING,
      lastError: { detail: 'Prompt is too long', reason: 'context_overflow' },
    },
    event: turnEnd('error'),
    changes: { agentState: 'idle', turnId: null, lastError: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'context_compacted while compacting after an overflow (issue 38): noted once, when it settled',
    state: { ...IN_TURN, overflow: COMPACTING },
    event: rt({ type: 'context_compacted', generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'compaction_settled ok (issue 38): the timeline says so, the continuation is a prompt_input; the wake goes on',
    state: { ...LIVE, overflow: COMPACTING },
    event: { type: 'compaction_settled', ok: true, detail: null },
    changes: { overflow: { phase: 'continued' } },
    calls: [
      { call: 'note_compaction', detail: COMPACTED_AFTER_OVERFLOW },
      { call: 'record_prompt_input', kind: 'continuation', wakeTokens: ['w1'], text: 'CONTINUE #general' },
    ],
  },
  {
    name: 'compaction_settled failed (issue 38): §6.6 with the reason on the timeline',
    state: { ...LIVE, overflow: COMPACTING },
    event: { type: 'compaction_settled', ok: false, detail: 'too_few_groups' },
    changes: { process: { phase: 'retiring' }, overflow: null },
    calls: [
      { call: 'note_renewal', detail: RENEWAL_REASONS.failed('too_few_groups') },
      { call: 'context_reset', generation: 0, cause: 'context_overflow' },
      { call: 'renew_session', detail: RENEW_DETAIL },
    ],
  },
  {
    name: 'compaction_settled after the process was replaced meanwhile (issue 38): nothing',
    state: { ...RETIRING, overflow: COMPACTING },
    event: { type: 'compaction_settled', ok: false, detail: 'the process was replaced' },
    changes: {},
    calls: [],
  },
  {
    name: 'the continuation turn ends (issue 38): the ordinary rule again, and a later overflow is a new one',
    state: { ...IN_TURN, overflow: { phase: 'continued' } },
    event: turnEnd('completed'),
    changes: { agentState: 'idle', turnId: null, overflow: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'turn_boundary while compacting after an overflow (issue 38): no final-check',
    state: { ...IN_TURN, overflow: COMPACTING },
    event: { type: 'turn_boundary' },
    changes: {},
    calls: [],
  },
  {
    name: 'final_check failed: the rows of the last injection end at once (Phase 4, no retry)',
    state: { ...IN_TURN, lastInjection: INJECTION },
    event: rt({ type: 'final_check', outcome: 'failed', via: 'user_message', detail: 'process gone', generation: 1 }),
    changes: {},
    calls: [{ call: 'final_check_undeliverable', generation: 0, wakeTokens: ['w1'], detail: 'process gone' }],
  },
  {
    name: 'final_check injected: nothing to settle',
    state: { ...IN_TURN, lastInjection: INJECTION },
    event: rt({ type: 'final_check', outcome: 'injected', via: 'stop_hook', detail: null, generation: 1 }),
    changes: {},
    calls: [],
  },
  {
    name: 'final_check failed with no injection: nothing',
    state: IN_TURN,
    event: rt({ type: 'final_check', outcome: 'failed', via: 'user_message', detail: null, generation: 1 }),
    changes: {},
    calls: [],
  },
];

const processes: Row[] = [
  {
    name: 'ready, first process: idle, its generation counts from now, nothing recovered',
    state: { ...BASE, following: true, runtime: 'codex', lifecycleGeneration: 0 },
    event: ready(1),
    changes: { agentState: 'idle', process: { phase: 'live', generation: 1 } },
    calls: [
      { call: 'report_restart', attempt: null },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'ready again from the same process: up again, no new generation',
    state: { ...LIVE, downReason: 'cli_exited' },
    event: ready(1),
    changes: { downReason: null },
    calls: [{ call: 'report_restart', attempt: null }],
  },
  {
    name: 'ready from a restarted process: the lifecycle next generation, its rows recovered (§6.6)',
    state: { ...LIVE, agentState: 'starting' },
    event: ready(2, 0),
    changes: { agentState: 'idle', process: { phase: 'live', generation: 2 }, lifecycleGeneration: 1 },
    calls: [
      { call: 'report_restart', attempt: null },
      { call: 'report_state', state: 'idle' },
      { call: 'process_replaced', generation: 1 },
    ],
  },
  {
    name: 'ready from the replacing process (issue 14): a process replacement, whatever its generation',
    state: AWAITING_REPLACEMENT,
    event: ready(1, 0),
    changes: { agentState: 'idle', process: { phase: 'live', generation: 1 }, lifecycleGeneration: 1 },
    calls: [
      { call: 'report_restart', attempt: null },
      { call: 'report_state', state: 'idle' },
      { call: 'process_replaced', generation: 1 },
    ],
  },
  {
    name: 'restart_scheduled: its attempt is reported (issue 15)',
    state: { ...LIVE, agentState: 'starting' },
    event: rt({ type: 'restart_scheduled', attempt: 2, delayMs: 1000, generation: 1 }),
    changes: {},
    calls: [{ call: 'report_restart', attempt: 2 }],
  },
  {
    name: 'exit, unexpected: approvals cancelled, turn.end, starting; admission pauses for the replacement',
    state: IN_TURN,
    event: exit(false),
    changes: { agentState: 'starting', turnId: null },
    calls: [
      { call: 'cancel_approvals', reason: 'the runtime exited before an answer' },
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'starting' },
      {
        call: 'process_exited',
        generation: 0,
        detail: 'the codex runtime exited unexpectedly (SIGKILL)',
        reason: 'cli_exited',
      },
    ],
  },
  {
    name: 'exit, unexpected, after a runtime error: its detail and reason; the error note goes',
    state: { ...LIVE, lastError: { detail: 'out of memory', reason: 'provider_error' } },
    event: exit(false, null, 1),
    changes: { agentState: 'starting', lastError: null },
    calls: [
      { call: 'cancel_approvals', reason: 'the runtime exited before an answer' },
      { call: 'report_state', state: 'starting' },
      { call: 'process_exited', generation: 0, detail: 'out of memory', reason: 'provider_error' },
    ],
  },
  {
    name: 'exit, unexpected, no signal: its exit code in the detail',
    state: { ...LIVE, runtime: null },
    event: exit(false, null, 1),
    changes: { agentState: 'starting' },
    calls: [
      { call: 'cancel_approvals', reason: 'the runtime exited before an answer' },
      { call: 'report_state', state: 'starting' },
      {
        call: 'process_exited',
        generation: 0,
        detail: 'the agent runtime exited unexpectedly (code 1)',
        reason: 'cli_exited',
      },
    ],
  },
  {
    name: 'exit, unexpected, before any ready: a failed start, reported by the start (issue 15)',
    state: { ...BASE, runtime: 'codex', following: true, lifecycleGeneration: 0 },
    event: exit(false, null, null),
    changes: {},
    calls: [{ call: 'cancel_approvals', reason: 'the runtime exited before an answer' }],
  },
  {
    name: 'exit, expected: approvals cancelled, stopped; nothing fails',
    state: IN_TURN,
    event: exit(true, null, 0),
    changes: { agentState: 'stopped', turnId: null },
    calls: [
      { call: 'cancel_approvals', reason: 'the agent was stopped' },
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'stopped' },
    ],
  },
  {
    name: 'gave_up: crashed; no replacement comes, so what waited for one fails now (§9.2); down',
    state: { ...LIVE, agentState: 'starting' },
    event: rt({ type: 'gave_up', restarts: 5, generation: 1 }),
    changes: {
      agentState: 'crashed',
      downReason: 'cli_exited',
      downDetail: 'the runtime crashed 5 times and is no longer restarted',
    },
    calls: [
      { call: 'report_state', state: 'crashed' },
      {
        call: 'fail_pending',
        generation: 0,
        detail: 'the runtime crashed 5 times and is no longer restarted',
        reason: 'cli_exited',
        processExited: true,
      },
      { call: 'report_down', detail: 'the runtime crashed 5 times and is no longer restarted' },
    ],
  },
  {
    name: 'gave_up after restarts its host refused (issue 43): what waited fails host_unreachable with the host’s sentence; down for that reason',
    state: { ...LIVE, agentState: 'starting' },
    event: rt({
      type: 'gave_up',
      restarts: 5,
      reason: 'host_unreachable',
      detail: 'box did not answer over SSH',
      generation: 1,
    }),
    changes: {
      agentState: 'crashed',
      downReason: 'host_unreachable',
      downDetail: 'the runtime was restarted 5 times and is no longer restarted: box did not answer over SSH',
    },
    calls: [
      { call: 'report_state', state: 'crashed' },
      {
        call: 'fail_pending',
        generation: 0,
        detail: 'the runtime was restarted 5 times and is no longer restarted: box did not answer over SSH',
        reason: 'host_unreachable',
        processExited: true,
      },
      {
        call: 'report_down',
        detail: 'the runtime was restarted 5 times and is no longer restarted: box did not answer over SSH',
      },
    ],
  },
];

/** STYLE.md "generation-tagged watches": the state and the bus see every event, the lifecycle only current ones. */
const generations: Row[] = [
  {
    name: 'stale: an error end of a restarted-away process fails nothing (bus and state only)',
    state: { ...IN_TURN, process: { phase: 'live', generation: 2 }, lifecycleGeneration: 1 },
    event: turnEnd('error', 1),
    changes: { agentState: 'idle', turnId: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'stale: local text of an older process reaches the bus, not the wake',
    state: { ...IN_TURN, process: { phase: 'live', generation: 2 } },
    event: rt({ type: 'local_text', bytes: 3, runes: 3, generation: 1 }),
    changes: {},
    calls: [{ call: 'runtime.local', event: { turnId: 't1', kind: 'local_text', bytes: 3, runes: 3 } }],
  },
  {
    name: 'stale: a ready of an older process is no restart',
    state: { ...LIVE, process: { phase: 'live', generation: 2 } },
    event: ready(1),
    changes: {},
    calls: [{ call: 'report_restart', attempt: null }],
  },
  {
    name: 'stale: the interrupted turn of a process being replaced is no runtime error',
    state: { ...RETIRING, agentState: 'busy', turnId: 't1' },
    event: turnEnd('interrupted'),
    changes: { agentState: 'idle', turnId: null },
    calls: [
      { call: 'turn.end', event: { turnId: 't1' } },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'stale: an unexpected exit of a process being replaced pauses nothing more',
    state: RETIRING,
    event: exit(false),
    changes: { agentState: 'starting' },
    calls: [
      { call: 'cancel_approvals', reason: 'the runtime exited before an answer' },
      { call: 'report_state', state: 'starting' },
    ],
  },
  {
    name: 'stale: gave_up of a process being replaced is crashed on screen, fails nothing',
    state: RETIRING,
    event: rt({ type: 'gave_up', restarts: 5, generation: 1 }),
    changes: { agentState: 'crashed' },
    calls: [{ call: 'report_state', state: 'crashed' }],
  },
  {
    name: 'after stop: events still reach the bus and the state, never the lifecycle',
    state: { ...STOPPED, agentState: 'busy', turnId: 't1' },
    event: rt({ type: 'gave_up', restarts: 5, generation: 1 }),
    changes: { agentState: 'crashed' },
    calls: [{ call: 'report_state', state: 'crashed' }],
  },
];

/** issue 42: an idle agent asleep (its process stopped until the next delivery). */
const ASLEEP: AgentSessionState = {
  ...LIVE,
  agentState: 'sleeping',
  runtime: null,
  process: { phase: 'awaiting_ready' },
  delivered: true,
};

const sleeping: Row[] = [
  {
    name: 'sleep: an idle agent sleeps; the lifecycle generation and `delivered` stay',
    state: { ...LIVE, delivered: true },
    event: { type: 'sleep', working: 0 },
    changes: { agentState: 'sleeping', runtime: null, process: { phase: 'awaiting_ready' } },
    calls: [],
  },
  {
    name: 'slept: the process is gone; the agent reads sleeping',
    state: ASLEEP,
    event: { type: 'slept' },
    changes: {},
    calls: [{ call: 'report_state', state: 'sleeping' }],
  },
  {
    name: 'slept: woken (or stopped) meanwhile: nothing is reported',
    state: { ...ASLEEP, agentState: 'starting' },
    event: { type: 'slept' },
    changes: {},
    calls: [],
  },
  {
    name: 'sleep: a busy agent does not',
    state: IN_TURN,
    event: { type: 'sleep', working: 0 },
    changes: {},
    calls: [],
  },
  {
    name: 'sleep: an idle agent the runtime still works for (a visible row) does not',
    state: LIVE,
    event: { type: 'sleep', working: 1 },
    changes: {},
    calls: [],
  },
  {
    name: 'sleep: a stopped agent does not',
    state: { ...STOPPED, agentState: 'stopped' },
    event: { type: 'sleep', working: 0 },
    changes: {},
    calls: [],
  },
  {
    name: 'wake: a sleeping agent starts',
    state: ASLEEP,
    event: { type: 'wake' },
    changes: { agentState: 'starting' },
    calls: [{ call: 'report_state', state: 'starting' }],
  },
  {
    // issue 42: a wake-up's failed start is tried once more; its abandoned process's exit read `stopped`.
    name: "start_again: the agent reads starting again (not the failed start's stopped)",
    state: { ...ASLEEP, agentState: 'stopped' },
    event: { type: 'start_again' },
    changes: { agentState: 'starting' },
    calls: [{ call: 'report_state', state: 'starting' }],
  },
  {
    name: 'start_again after the daemon stopped: nothing',
    state: { ...ASLEEP, agentState: 'stopped', stopped: true },
    event: { type: 'start_again' },
    changes: {},
    calls: [],
  },
  {
    name: 'wake: an agent that is not asleep is left alone',
    state: LIVE,
    event: { type: 'wake' },
    changes: {},
    calls: [],
  },
  {
    name: 'woken: a resumed session is no replacement and keeps `delivered` (no second thread contract, §8.1)',
    state: { ...ASLEEP, agentState: 'starting' },
    event: rt({ type: 'ready', sessionId: 's1', resumed: true, generation: 1, tableGeneration: 0 }),
    changes: { agentState: 'idle', process: { phase: 'live', generation: 1 } },
    calls: [
      { call: 'report_restart', attempt: null },
      { call: 'report_state', state: 'idle' },
    ],
  },
  {
    name: 'woken: a session that could not be resumed is fresh again (§8.1)',
    state: { ...ASLEEP, agentState: 'starting' },
    event: ready(1),
    changes: { agentState: 'idle', process: { phase: 'live', generation: 1 }, delivered: false },
    calls: [
      { call: 'report_restart', attempt: null },
      { call: 'report_state', state: 'idle' },
    ],
  },
];

const ROWS: readonly Row[] = [
  ...start,
  ...replacement,
  ...deliveries,
  ...boundary,
  ...turns,
  ...processes,
  ...generations,
  ...sleeping,
];

/** Every event kind the machine knows: the compiler fails this object when one is added and not listed here. */
const EVENT_KINDS: Record<AgentSessionEvent['type'], true> = {
  start: true,
  runtime_unbuilt: true,
  runtime_attached: true,
  start_failed: true,
  launch_settled: true,
  replace: true,
  retired: true,
  replacement_settled: true,
  sleep: true,
  slept: true,
  wake: true,
  start_again: true,
  stop: true,
  stopped: true,
  delivery_due: true,
  delivery_rendered: true,
  delivery_written: true,
  turn_boundary: true,
  final_check_chosen: true,
  ready: true,
  turn_start: true,
  local_text: true,
  tool_call: true,
  final_check: true,
  operator_wait: true,
  turn_end: true,
  usage: true,
  limit_window: true,
  context_compacted: true,
  context_overflow: true,
  compaction_settled: true,
  runtime_error: true,
  input_dropped: true,
  end_turn: true,
  exit: true,
  restart_scheduled: true,
  gave_up: true,
};

describe('agentSessionStep: (state, event) → [state, calls]', () => {
  it.each(ROWS)('$name', ({ state, event, changes, calls }) => {
    const before = structuredClone(state);
    const [next, made] = agentSessionStep(state, event);
    expect(made).toEqual(calls);
    expect(next).toEqual({ ...state, ...changes });
    // Pure: the state it was given is never changed.
    expect(state).toEqual(before);
  });

  it('the table covers every event kind', () => {
    expect(new Set(ROWS.map((r) => r.event.type))).toEqual(new Set(Object.keys(EVENT_KINDS)));
  });

  it('an event that changes nothing returns the same state', () => {
    const [next, calls] = agentSessionStep(IN_TURN, rt({ type: 'tool_call', name: 'x', generation: 1 }));
    expect(next).toBe(IN_TURN);
    expect(calls).toHaveLength(1);
  });

  it(`a turn_start remembers at most ${TURNS_KEPT} turns, the oldest dropped`, () => {
    const turnWakes = new Map(Array.from({ length: TURNS_KEPT }, (_, i) => [`t${i}`, [`w${i}`]] as const));
    const [next] = agentSessionStep(
      { ...LIVE, turnWakes },
      rt({ type: 'turn_start', sessionId: null, generation: 1, turnId: 'new', pending: [] }),
    );
    expect(next.turnWakes.size).toBe(TURNS_KEPT);
    expect(next.turnWakes.has('t0')).toBe(false);
    expect(next.turnWakes.get('t1')).toEqual(['w1']);
    expect(next.turnWakes.get('new')).toEqual([]);
    expect(turnWakes.size).toBe(TURNS_KEPT);
  });
});

describe('agentSessionStep: the generation rules over a sequence', () => {
  const run = (state: AgentSessionState, events: readonly AgentSessionEvent[]) =>
    events.reduce<{ state: AgentSessionState; calls: AgentSessionCall[] }>(
      (acc, e) => {
        const [next, calls] = agentSessionStep(acc.state, e);
        return { state: next, calls: [...acc.calls, ...calls] };
      },
      { state, calls: [] },
    );
  const lifecycleCalls = (calls: readonly AgentSessionCall[]) =>
    calls.filter((c) => ['fail_pending', 'process_exited', 'process_replaced', 'count_local_text'].includes(c.call));

  it('crash, restart: the new process is the next lifecycle generation; the old one settles nothing after', () => {
    const { state, calls } = run(IN_TURN, [
      exit(false),
      ready(2, 0),
      turnEnd('error', 1),
      rt({ type: 'local_text', bytes: 1, runes: 1, generation: 1 }),
      rt({ type: 'local_text', bytes: 2, runes: 2, generation: 2 }),
    ]);
    expect(lifecycleCalls(calls)).toEqual([
      {
        call: 'process_exited',
        generation: 0,
        detail: 'the codex runtime exited unexpectedly (SIGKILL)',
        reason: 'cli_exited',
      },
      { call: 'process_replaced', generation: 1 },
      { call: 'count_local_text', generation: 1, bytes: 2, runes: 2 },
    ]);
    expect(state.lifecycleGeneration).toBe(1);
    expect(state.process).toEqual({ phase: 'live', generation: 2 });
  });

  it('replace: the old process ends settling nothing; the new one replaces it and takes fresh deliveries', () => {
    const { state, calls } = run({ ...IN_TURN, delivered: true }, [
      { type: 'replace', detail: 'restarted' },
      turnEnd('interrupted'),
      exit(true, null, 0),
      { type: 'retired' },
      { type: 'runtime_attached', runtime: 'claude-code' },
      ready(1, 0),
      { type: 'delivery_due', delivery: { ...D, generation: 1 } },
    ]);
    expect(lifecycleCalls(calls)).toEqual([
      { call: 'process_exited', generation: 0, detail: 'restarted', reason: 'process_replaced' },
      { call: 'process_replaced', generation: 1 },
    ]);
    expect(calls.at(-1)).toEqual({ call: 'render_delivery', delivery: { ...D, generation: 1 }, turn: 'fresh' });
    expect(state).toMatchObject({ runtime: 'claude-code', agentState: 'idle', lifecycleGeneration: 1 });
  });
});
