import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type {
  AgentRuntime,
  RuntimeEvent,
  RuntimePrompt,
  RuntimeResult,
  SubmitReceipt,
} from '../../../../../main/daemon/runtime/agent-runtime.js';
import type { RuntimeEventEnvelope } from '../../../../../main/daemon/runtime/runtime-adapter.js';
import { TurnRuntimeAdapter } from '../../../../../main/daemon/runtime/turn-runtime-adapter.js';

class ScriptedTurnRuntime implements AgentRuntime {
  readonly kind = 'opencode' as const;
  readonly events = new Subject<RuntimeEvent>();
  readonly events$ = this.events.asObservable();
  readonly submitted: RuntimePrompt[] = [];
  generation = 0;
  starts = 0;
  refuse = false;
  async start() {
    this.starts += 1;
    this.generation += 1;
    this.events.next({ type: 'ready', generation: this.generation, sessionId: 'ses', resumed: this.starts > 1 });
    return { ok: true as const, value: { generation: this.generation, sessionId: 'ses', resumed: this.starts > 1 } };
  }
  async submit(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    this.submitted.push(prompt);
    return this.refuse
      ? { ok: false, code: 'not_running', message: 'gone' }
      : { ok: true, value: { generation: this.generation, turnId: null } };
  }
  async interrupt() {
    return { ok: true as const, value: undefined };
  }
  async stop() {}
  diagnostics() {
    return { pid: null, stderrTail: '' };
  }
  turn(outcome: 'completed' | 'failed' | 'interrupted' = 'completed', error: string | null = null) {
    this.events.next({ type: 'turn.start', generation: this.generation, turnId: 't', at: 0 });
    this.events.next({ type: 'turn.end', generation: this.generation, turnId: 't', outcome, error, at: 0 });
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup(finalChecks: Array<string | null>) {
  const inner = new ScriptedTurnRuntime();
  const scheduler = new VirtualTimeScheduler();
  const answers = [...finalChecks];
  const adapter = new TurnRuntimeAdapter({
    runtime: inner,
    host: { onTurnBoundary: async () => answers.shift() ?? null },
    scheduler,
    restart: { baseDelayMs: 100, maxDelayMs: 100, maxRestarts: 1, windowMs: 60_000 },
  });
  const events: RuntimeEventEnvelope[] = [];
  adapter.events$.subscribe((e) => events.push(e));
  return { inner, adapter, events, scheduler, types: () => events.map((e) => e.type) };
}

describe('TurnRuntimeAdapter: Codex/OpenCode turns as the shared RuntimeAdapter', () => {
  it('a delivery turn and its final-check turn are one logical turn (one turn_start, one turn_end)', async () => {
    const s = setup(['FINAL-CHECK x', null]);
    await s.adapter.start();
    expect(await s.adapter.deliver('hello')).toEqual({ ok: true });
    s.inner.turn();
    await flush();
    expect(s.inner.submitted).toEqual([
      { kind: 'delivery', text: 'hello' },
      { kind: 'final_check', text: 'FINAL-CHECK x' },
    ]);
    s.inner.turn();
    await flush();
    expect(s.types()).toEqual(['ready', 'turn_start', 'final_check', 'turn_end']);
    expect(s.events.find((e) => e.type === 'final_check')).toMatchObject({
      outcome: 'injected',
      via: 'user_message',
      generation: 1,
    });
  });

  it('local text travels as counts only; tool calls by name', async () => {
    const s = setup([]);
    await s.adapter.start();
    s.inner.events.next({ type: 'local_text', generation: 1, turnId: 't', text: 'héllo' });
    s.inner.events.next({
      type: 'tool',
      generation: 1,
      turnId: 't',
      tool: 'agentteam_message_send',
      status: 'started',
    });
    s.inner.events.next({
      type: 'tool',
      generation: 1,
      turnId: 't',
      tool: 'agentteam_message_send',
      status: 'completed',
    });
    expect(s.events.slice(1)).toEqual([
      { type: 'local_text', bytes: 6, runes: 5, generation: 1 },
      { type: 'tool_call', name: 'agentteam_message_send', generation: 1 },
    ]);
  });

  it('a failed turn is a bounded runtime_error then turn_end error; a refused final-check ends the turn', async () => {
    const s = setup(['FINAL-CHECK y']);
    await s.adapter.start();
    s.inner.turn('failed', 'fake: scripted 400');
    expect(s.types()).toEqual(['ready', 'turn_start', 'runtime_error', 'turn_end']);
    expect(s.events.at(-1)).toMatchObject({ outcome: 'error' });
    s.inner.refuse = true;
    s.inner.turn();
    await flush();
    expect(s.types().slice(-3)).toEqual(['turn_start', 'final_check', 'turn_end']);
    expect(s.events.at(-2)).toMatchObject({ outcome: 'failed', detail: 'gone' });
  });

  it('a crash mid-turn → runtime_error, exit, restart after the backoff, then gave_up at the cap', async () => {
    const s = setup([]);
    await s.adapter.start();
    s.inner.events.next({ type: 'turn.start', generation: 1, turnId: 't', at: 0 });
    s.inner.events.next({ type: 'exit', generation: 1, code: null, signal: 'SIGKILL', expected: false });
    expect(s.types().slice(-3)).toEqual(['runtime_error', 'exit', 'restart_scheduled']);
    s.scheduler.flush();
    await flush();
    expect(s.inner.starts).toBe(2);
    expect(s.events.at(-1)).toMatchObject({ type: 'ready', resumed: true, generation: 2 });
    s.inner.events.next({ type: 'exit', generation: 2, code: 1, signal: null, expected: false });
    expect(s.events.at(-1)).toMatchObject({ type: 'gave_up', restarts: 1 });
  });

  it('stop cancels a scheduled restart', async () => {
    const s = setup([]);
    await s.adapter.start();
    s.inner.events.next({ type: 'exit', generation: 1, code: 1, signal: null, expected: false });
    await s.adapter.stop();
    s.scheduler.flush();
    await flush();
    expect(s.inner.starts).toBe(1);
  });
});
